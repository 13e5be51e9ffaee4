//! `--reference-votes inf`: p_N against the items' true distributions themselves.
//!
//! Where a finite M' compares N votes drawn *without* replacement from M' with p_M', this draws N
//! votes *with* replacement from each item's plausible true distribution θ_i (a posterior draw, as
//! for the finite tables) and compares p_N with θ_i: the question "how close do N annotators get to
//! what the whole population would say". The finite-population difference is large near M': at
//! N = M' the finite curves reach their end exactly, these do not. The metrics are the core's own
//! (`metrics::js_distance`, `kl` of the add-α smoothed p_N, `majority_agreement`, Pearson of the
//! entropies), evaluated per item and N — slower than the curve engine's integer tables, which need
//! integer references.

use super::{dirichlet_draw, pick, Prior, PURPOSE_POSTERIOR};
use crate::curves::Curves;
use crate::metrics::{self, calibration, corr};
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
    let h_truth: Vec<f64> = truths.chunks(k).map(metrics::entropy).collect();
    let nmax = *grid.last().expect("a grid") as usize;
    let mut values: [Vec<f64>; 4] = std::array::from_fn(|_| vec![0.0; ng * nr]);
    let mut h_pn = vec![0.0f64; ng * ni];
    let (mut c, mut p, mut q) = (vec![0u32; k], vec![0.0f64; k], vec![0.0f64; k]);
    for (ri, r) in range.clone().enumerate() {
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
                h_pn[g * ni + i] = metrics::entropy(&p);
                g += 1;
            }
        }
        for g in 0..ng {
            values[1][g * nr + ri] =
                corr::pearson(&h_pn[g * ni..(g + 1) * ni], &h_truth).unwrap_or(f64::NAN);
        }
        progress(ri + 1);
    }
    Curves::from_parts(grid.to_vec(), range, vec![ni as u32; ng], alpha, values)
}
