//! What one item contributes to a comparison at N votes per item, drawn `draws` times per item:
//! each model's per-item score against the N-vote distribution, as B − A, and H(p_N) for the
//! entropy correlation. A simulated evaluation of I items picks I (item, draw) pairs from this pool
//! with replacement, so an evaluation's items are new items of the file's kind and each item's N
//! votes a fresh draw — the pool is built once per N and read by every (I, resample).
//!
//! N votes of an item that has at least N come from its own votes, without replacement (the
//! curves' subsampler); past its votes they are drawn from the item's posterior under the
//! extrapolation's prior, refitted on a resample of the items for each of [`PRIORS`] groups of
//! draws, so what M votes do not pin down about an item (and about the prior) is in the pool's
//! spread and so in the power.

use super::{PowerMetric, Slots};
use crate::extrapolate::{self, truth::posterior_truths, Components, Prior};
use crate::metrics::{self, calibration::majority_agreement};
use crate::ratings::Scale;
use crate::sample;
use crate::votes::VoteTable;

const PURPOSE_POOL: u64 = 0x0901;
const PURPOSE_POOL_POSTERIOR: u64 = 0x0902;
/// Priors the posterior draws cycle through: the fit, then refits on item resamples.
pub const PRIORS: u32 = 8;

/// The two models and the votes, aligned (items × K each).
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    pub table: &'a VoteTable,
    pub a: &'a [f64],
    pub b: &'a [f64],
    pub scale: Option<&'a Scale>,
}

/// The priors for draws past the items' votes: the fit (BIC's choice) and refits on resamples.
pub fn priors(table: &VoteTable, seed: u64) -> Result<Vec<Prior>, String> {
    let fit =
        extrapolate::fit(table, Components::Auto { max: 4 }, seed).map_err(|e| e.to_string())?;
    let mut out = vec![fit.clone()];
    for b in 1..PRIORS {
        let t = extrapolate::bootstrap::resample(table, seed, b);
        out.push(extrapolate::prior::refit(&t, &fit, seed).unwrap_or_else(|_| fit.clone()));
    }
    Ok(out)
}

/// Whether N votes per item need the posterior for some item.
pub fn needs_posterior(table: &VoteTable, n: u32) -> bool {
    (0..table.num_items()).any(|i| table.total(i) < n)
}

/// One N's pool.
#[derive(Debug, Clone)]
pub struct Pool {
    /// `None`: each item's own votes, all of them (the file as it is).
    pub n: Option<u32>,
    pub draws: u32,
    pub items: usize,
    pub slots: Slots,
    /// (item, draw) × slots: B − A per per-item metric, in [`Slots`] order.
    pub diffs: Vec<f32>,
    /// (item, draw): H(p_N).
    pub entropy: Vec<f32>,
    /// Per item: H(q_A), H(q_B).
    pub model_entropy: Vec<(f64, f64)>,
    /// Whether some item needed the posterior.
    pub extrapolated: bool,
}

impl Pool {
    /// The pool at `n` votes per item (`None`: every item's own votes, one draw).
    pub fn build(
        inp: Input,
        n: Option<u32>,
        draws: u32,
        seed: u64,
        priors: Option<&[Prior]>,
    ) -> Result<Pool, String> {
        let t = inp.table;
        let (ni, k) = (t.num_items(), t.num_classes());
        let slots = Slots::new(inp.scale.is_some());
        let draws = if n.is_none() { 1 } else { draws.max(1) };
        let extrapolated = n.is_some_and(|n| needs_posterior(t, n));
        let truths: Vec<Vec<f64>> = if extrapolated {
            let pr = priors.ok_or("N past the items' votes needs the extrapolation's prior")?;
            (0..draws)
                .map(|d| posterior_truths(t, &pr[(d % pr.len() as u32) as usize], seed, d))
                .collect()
        } else {
            Vec::new()
        };
        let s = slots.len();
        let mut diffs = Vec::with_capacity(ni * draws as usize * s);
        let mut entropy = Vec::with_capacity(ni * draws as usize);
        let mut model_entropy = Vec::with_capacity(ni);
        let mut c = vec![0u32; k];
        let mut p = vec![0.0f64; k];
        let mut row = vec![0.0f64; s];
        let mut votes = Vec::new();
        for i in 0..ni {
            let (qa, qb) = (&inp.a[i * k..(i + 1) * k], &inp.b[i * k..(i + 1) * k]);
            model_entropy.push((metrics::entropy(qa), metrics::entropy(qb)));
            let m = t.total(i);
            for d in 0..draws {
                let mut rng = sample::stream(seed, PURPOSE_POOL, i as u64, pool_key(n, d));
                match n {
                    None => c.copy_from_slice(t.counts(i)),
                    Some(n) if n <= m => {
                        sample::expand(t.counts(i), &mut votes);
                        sample::partial_shuffle(&mut votes, n as usize, &mut rng);
                        c.iter_mut().for_each(|x| *x = 0);
                        for &v in &votes[..n as usize] {
                            c[v as usize] += 1;
                        }
                    }
                    Some(n) => {
                        let mut r = sample::stream(
                            seed,
                            PURPOSE_POOL_POSTERIOR,
                            i as u64,
                            pool_key(Some(n), d),
                        );
                        let theta = &truths[d as usize][i * k..(i + 1) * k];
                        extrapolate::multinomial_draw(theta, n, &mut r, &mut c);
                    }
                }
                let tot: u32 = c.iter().sum();
                for (x, &ci) in p.iter_mut().zip(&c) {
                    *x = ci as f64 / tot.max(1) as f64;
                }
                scores(&p, qa, qb, inp.scale, &slots, &mut row);
                diffs.extend(row.iter().map(|&x| x as f32));
                entropy.push(metrics::entropy(&p) as f32);
            }
        }
        Ok(Pool {
            n,
            draws,
            items: ni,
            slots,
            diffs,
            entropy,
            model_entropy,
            extrapolated,
        })
    }

    /// The mean of B − A over the pool, per slot (the difference an evaluation at this N expects).
    pub fn means(&self) -> Vec<f64> {
        let s = self.slots.len();
        let mut m = vec![0.0f64; s];
        for row in self.diffs.chunks_exact(s) {
            for (x, &d) in m.iter_mut().zip(row) {
                *x += d as f64;
            }
        }
        let rows = (self.diffs.len() / s).max(1) as f64;
        m.iter_mut().for_each(|x| *x /= rows);
        m
    }
}

fn pool_key(n: Option<u32>, d: u32) -> u64 {
    ((n.unwrap_or(0) as u64) << 32) | d as u64
}

/// B − A of each per-item metric against the N-vote distribution `p`.
fn scores(
    p: &[f64],
    qa: &[f64],
    qb: &[f64],
    scale: Option<&Scale>,
    slots: &Slots,
    out: &mut [f64],
) {
    let (ja, jb) = (metrics::js_distance(p, qa), metrics::js_distance(p, qb));
    for (o, m) in out.iter_mut().zip(slots.metrics()) {
        *o = match m {
            PowerMetric::Accuracy => majority_agreement(qb, p) - majority_agreement(qa, p),
            PowerMetric::Kl => metrics::kl(p, qb) - metrics::kl(p, qa),
            PowerMetric::Js => jb - ja,
            PowerMetric::Tv => tv(p, qb) - tv(p, qa),
            PowerMetric::Wins => {
                if jb < ja {
                    1.0
                } else if jb > ja {
                    -1.0
                } else {
                    0.0
                }
            }
            PowerMetric::Wasserstein => {
                let s = scale.expect("a scale");
                wasserstein(p, qb, s) - wasserstein(p, qa, s)
            }
            PowerMetric::Mae => {
                let s = scale.expect("a scale");
                let mp = mean(p, s);
                (mean(qb, s) - mp).abs() - (mean(qa, s) - mp).abs()
            }
            PowerMetric::EntropyCorr => unreachable!("not a per-item metric"),
        };
    }
}

/// Total variation: half the Manhattan distance.
pub fn tv(p: &[f64], q: &[f64]) -> f64 {
    0.5 * p.iter().zip(q).map(|(a, b)| (a - b).abs()).sum::<f64>()
}

fn mean(p: &[f64], s: &Scale) -> f64 {
    p.iter().zip(&s.values).map(|(a, v)| a * v).sum()
}

/// Wasserstein-1 on the scale: Σ |F_p − F_q| × the gap to the next value.
pub fn wasserstein(p: &[f64], q: &[f64], s: &Scale) -> f64 {
    let order = s.ascending();
    let (mut fp, mut fq, mut w) = (0.0, 0.0, 0.0);
    for pair in order.windows(2) {
        fp += p[pair[0]];
        fq += q[pair[0]];
        w += (fp - fq).abs() * (s.values[pair[1]] - s.values[pair[0]]);
    }
    w
}
