//! `--reference-votes inf`: p_N against the items' true distributions themselves.
//!
//! Where a finite M' compares N votes drawn *without* replacement from M' with p_M', this draws N
//! votes *with* replacement from each item's plausible true distribution θ_i (a posterior draw, as
//! for the finite tables) and compares p_N with θ_i: the question "how close do N annotators get to
//! what the whole population would say". The finite-population difference is large near M': at
//! N = M' the finite curves reach their end exactly, these do not. The metrics are the core's own
//! (`metrics::js_distance`, `kl` of the add-α smoothed p_N, `majority_agreement`), evaluated per
//! item and N — slower than the curve engine's integer tables, which need integer references; the
//! entropy correlation comes from running sums per N, as in the engine.

use super::{dirichlet_draw, pick, Prior, PURPOSE_POSTERIOR};
use crate::curves::Curves;
use crate::metrics::{self, calibration};
use crate::sample;
use crate::votes::VoteTable;

const PURPOSE_TRUTH_VOTES: u64 = 0xE_4;

/// The items' true distributions of posterior draw `draw` (items × K), from the same streams as
/// [`super::posterior_table`]'s.
pub fn posterior_truths(table: &VoteTable, fit: &Prior, seed: u64, draw: u32) -> Vec<f64> {
    let k = table.num_classes();
    let mut out = vec![0.0f64; table.num_items() * k];
    let mut shapes = vec![0.0f64; k];
    for (i, theta) in out.chunks_mut(k).enumerate() {
        let mut rng = sample::stream(seed, PURPOSE_POSTERIOR, i as u64, draw as u64);
        let comp = pick(&fit.responsibilities(table.counts(i)), &mut rng);
        for (s, (&a, &n)) in shapes
            .iter_mut()
            .zip(fit.components[comp].alpha.iter().zip(table.counts(i)))
        {
            *s = a + n as f64;
        }
        dirichlet_draw(&shapes, &mut rng, theta);
    }
    out
}

/// The curves against the truths, for `grid` (sorted, every N ≥ 1), repeats `range` of posterior
/// draw `draw` of `seed`; `alpha` smooths p_N for KL.
pub(super) fn curves_against_truth(
    table: &VoteTable,
    fit: &Prior,
    (grid, alpha): (&[u32], f64),
    (seed, draw): (u64, u32),
    range: std::ops::Range<u32>,
    progress: &mut impl FnMut(usize),
) -> Curves {
    let (k, ni, ng, nr) = (
        table.num_classes(),
        table.num_items(),
        grid.len(),
        range.len(),
    );
    let truths = posterior_truths(table, fit, seed, draw);
    // Entropies of the truths, centred (the y side of the correlation, fixed for the draw).
    let h_truth: Vec<f64> = truths.chunks(k).map(metrics::entropy).collect();
    let ybar = h_truth.iter().sum::<f64>() / ni.max(1) as f64;
    let y: Vec<f64> = h_truth.iter().map(|h| h - ybar).collect();
    let (syy, ymin, ymax) = (
        y.iter().map(|v| v * v).sum::<f64>(),
        y.iter().copied().fold(f64::INFINITY, f64::min),
        y.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    let sy: f64 = y.iter().sum();
    let nmax = *grid.last().expect("a grid") as usize;
    let mut values: [Vec<f64>; 4] = std::array::from_fn(|_| vec![0.0; ng * nr]);
    // Per grid N, running sums of x = H(p_N) over items (Σx, Σx², Σxy): memory per N, not per
    // item and N (3 M items × 100 N would not fit a browser tab), as the curve engine does.
    let mut sums = vec![[0.0f64; 3]; ng];
    let (mut c, mut p, mut q) = (vec![0u32; k], vec![0.0f64; k], vec![0.0f64; k]);
    for (ri, r) in range.clone().enumerate() {
        sums.fill([0.0; 3]);
        for (i, theta) in truths.chunks(k).enumerate() {
            let mut rng = sample::stream(seed, PURPOSE_TRUTH_VOTES, i as u64, r as u64);
            c.fill(0);
            let mut g = 0;
            for n in 1..=nmax {
                c[pick(theta, &mut rng)] += 1;
                if grid[g] as usize != n {
                    continue;
                }
                for kk in 0..k {
                    p[kk] = c[kk] as f64 / n as f64;
                    q[kk] = (c[kk] as f64 + alpha) / (n as f64 + k as f64 * alpha);
                }
                let at = g * nr + ri;
                values[0][at] += metrics::js_distance(&p, theta) / ni as f64;
                values[2][at] += metrics::kl(theta, &q) / ni as f64;
                values[3][at] += calibration::majority_agreement(&p, theta) / ni as f64;
                let x = metrics::entropy(&p);
                sums[g][0] += x;
                sums[g][1] += x * x;
                sums[g][2] += x * y[i];
                g += 1;
            }
        }
        // Pearson r of H(p_N) and H(θ) over items; undefined when either side is constant (x's
        // variance nothing but rounding: at N = 1 every H(p_N) is 0).
        let nf = ni as f64;
        for (g, &[sx, sxx, sxy]) in sums.iter().enumerate() {
            let (vx, vy) = (sxx - sx * sx / nf, syy - sy * sy / nf);
            let cov = sxy - sx * sy / nf;
            values[1][g * nr + ri] = if ni >= 2 && ymin < ymax && vx > 1e-12 * sxx && vy > 0.0 {
                (cov / libm::sqrt(vx * vy)).clamp(-1.0, 1.0)
            } else {
                f64::NAN
            };
        }
        progress(ri + 1);
    }
    Curves::from_parts(grid.to_vec(), range, vec![ni as u32; ng], alpha, values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves::Metric;
    use crate::extrapolate::{fit, Components};
    use crate::metrics::corr;

    /// The entropy correlation from running sums equals `corr::pearson` on the same draws,
    /// redrawn here from the same streams.
    #[test]
    fn running_sums_give_pearsons_r() {
        let counts: Vec<u32> = (0..60u32)
            .flat_map(|i| [i % 7 + 1, (i * 3) % 5, (i * 5) % 4 + 1])
            .collect();
        let ids = (0..60).map(|i| format!("i{i}")).collect();
        let t = VoteTable::new(vec!["a".into(), "b".into(), "c".into()], ids, counts);
        let prior = fit(&t, Components::Fixed(1), 3).unwrap();
        let grid = [1u32, 3, 8];
        let c = curves_against_truth(&t, &prior, (&grid, 1.0 / 3.0), (9, 0), 0..2, &mut |_| {});
        let truths = posterior_truths(&t, &prior, 9, 0);
        let h: Vec<f64> = truths.chunks(3).map(metrics::entropy).collect();
        for r in 0..2u32 {
            let mut x = vec![vec![0.0; 60]; grid.len()];
            for (i, theta) in truths.chunks(3).enumerate() {
                let mut rng = sample::stream(9, PURPOSE_TRUTH_VOTES, i as u64, r as u64);
                let mut cnt = [0u32; 3];
                for n in 1..=8u32 {
                    cnt[pick(theta, &mut rng)] += 1;
                    if let Some(g) = grid.iter().position(|&v| v == n) {
                        let p: Vec<f64> = cnt.iter().map(|&v| v as f64 / n as f64).collect();
                        x[g][i] = metrics::entropy(&p);
                    }
                }
            }
            for g in 0..grid.len() {
                let ours = c.value(Metric::EntropyCorr, g, r as usize);
                let theirs = corr::pearson(&x[g], &h);
                match (ours, theirs) {
                    (Some(a), Some(b)) => {
                        assert!((a - b).abs() < 1e-12, "N={}: {a} vs {b}", grid[g])
                    }
                    (a, b) => assert_eq!(a.is_some(), b.is_some(), "N={}", grid[g]),
                }
            }
        }
    }
}
