//! Simulated evaluations from one N's [`Pool`]: `resamples` times, I (item, draw) pairs picked with
//! replacement, and each metric's difference B − A over them (for the entropy correlation, the
//! difference of two Pearson r over the same items). The test on these differences is a paired
//! bootstrap test ([`super::report`]): the per-item differences of KL or of labels are skewed,
//! heavy-tailed or discrete, and entropies are not normal, so neither Student's t nor Williams'
//! t holds its level; the simulated evaluations' own spread does (the type-I checks).

use super::pool::Pool;
use super::PowerMetric;
use crate::sample;
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const PURPOSE_EVALUATIONS: u64 = 0x0903;

/// One metric's simulated evaluations at one (I, N).
#[derive(Debug, Clone, PartialEq)]
pub struct Sims {
    pub metric: PowerMetric,
    /// Per evaluation: the difference B − A.
    pub diff: Vec<f64>,
}

/// Correlation sums: x = H(p_N), a = H(q_A), b = H(q_B).
#[derive(Debug, Clone, Copy, Default)]
pub struct CorrSums {
    pub n: f64,
    x: f64,
    a: f64,
    b: f64,
    xx: f64,
    aa: f64,
    bb: f64,
    xa: f64,
    xb: f64,
}

impl CorrSums {
    #[inline]
    pub fn add(&mut self, x: f64, a: f64, b: f64) {
        self.n += 1.0;
        self.x += x;
        self.a += a;
        self.b += b;
        self.xx += x * x;
        self.aa += a * a;
        self.bb += b * b;
        self.xa += x * a;
        self.xb += x * b;
    }

    fn r(&self, sxy: f64, sx: f64, sy: f64, sxx: f64, syy: f64) -> f64 {
        let n = self.n;
        let cov = sxy - sx * sy / n;
        let vx = sxx - sx * sx / n;
        let vy = syy - sy * sy / n;
        if vx <= 0.0 || vy <= 0.0 {
            return f64::NAN;
        }
        cov / libm::sqrt(vx * vy)
    }

    /// r(H(p_N), H(q_B)) − r(H(p_N), H(q_A)) (NaN where a variable is constant).
    pub fn diff(&self) -> f64 {
        let ra = self.r(self.xa, self.x, self.a, self.xx, self.aa);
        let rb = self.r(self.xb, self.x, self.b, self.xx, self.bb);
        rb - ra
    }
}

/// `resamples` evaluations of `items` items from `pool`, every metric at once (in
/// `PowerMetric::of(pool.slots)` order). Deterministic in (seed, N, items).
pub fn evaluations(pool: &Pool, items: u32, resamples: u32, seed: u64) -> Vec<Sims> {
    let s = pool.slots.len();
    let rows = (pool.items as u64 * pool.draws as u64) as u32;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
        sample::stream(
            seed,
            PURPOSE_EVALUATIONS,
            pool.n.unwrap_or(0) as u64,
            items as u64,
        )
        .next_u64(),
    );
    let metrics = pool.slots.all();
    let mut out: Vec<Sims> = metrics
        .iter()
        .map(|&metric| Sims {
            metric,
            diff: Vec::with_capacity(resamples as usize),
        })
        .collect();
    let mut sum = vec![0.0f64; s];
    for _ in 0..resamples {
        sum.iter_mut().for_each(|x| *x = 0.0);
        let mut corr = CorrSums::default();
        for _ in 0..items {
            let j = rng.random_range(0..rows) as usize;
            for (a, &d) in sum.iter_mut().zip(&pool.diffs[j * s..(j + 1) * s]) {
                *a += d as f64;
            }
            let (ha, hb) = pool.model_entropy[j / pool.draws as usize];
            corr.add(pool.entropy[j] as f64, ha, hb);
        }
        push(&mut out, &sum, &corr, items as f64);
    }
    out
}

fn push(out: &mut [Sims], sum: &[f64], corr: &CorrSums, n: f64) {
    let mut slot = 0;
    for sims in out.iter_mut() {
        let d = if sims.metric == PowerMetric::EntropyCorr {
            corr.diff()
        } else {
            slot += 1;
            sum[slot - 1] / n
        };
        sims.diff.push(d);
    }
}

/// Every metric's difference over all of the pool's rows at once (the file's
/// own items, as they are): what the file itself says, and what an evaluation at this N expects.
pub fn whole(pool: &Pool) -> Vec<(PowerMetric, f64)> {
    let s = pool.slots.len();
    let mut sum = vec![0.0f64; s];
    let mut corr = CorrSums::default();
    for (j, row) in pool.diffs.chunks_exact(s).enumerate() {
        for (a, &d) in sum.iter_mut().zip(row) {
            *a += d as f64;
        }
        let (ha, hb) = pool.model_entropy[j / pool.draws as usize];
        corr.add(pool.entropy[j] as f64, ha, hb);
    }
    let mut out: Vec<Sims> = pool
        .slots
        .all()
        .into_iter()
        .map(|metric| Sims {
            metric,
            diff: vec![],
        })
        .collect();
    push(&mut out, &sum, &corr, corr.n);
    out.into_iter().map(|x| (x.metric, x.diff[0])).collect()
}
