//! The hot loop behind [`super::compute`].
//!
//! With integer counts every logarithm is of an integer, so a table `G[x] = x ln x` serves them all:
//! - entropy of p_N = c/N:        H = ln N − Σ_k G[c_k] / N
//! - JS divergence, p = c/N, q = f/M, D = 2NM, x_k = c_k M + f_k N (so m_k = x_k / D):
//!   JS = Σ_k (G[2 c_k M] + G[2 f_k N] − 2 G[x_k]) / (2D), exactly 0 when p = q;
//! - KL(q ‖ p̃), p̃ = (c + α)/(N + Kα):  KL = −H(q) − Σ_k f_k ln(c_k + α) / M + ln(N + Kα),
//!   where only the class that just got a vote changes the sum.
//!
//! Σ G[c], the KL sum and the majority set are updated in O(1) per drawn vote; the JS sum is the
//! only O(K) step per evaluated N. No allocation happens inside the item loop.

use crate::logtable::{ln, XLogX};
use crate::sample::{below, expand, subsample_stream};
use crate::votes::VoteTable;

/// Per (repeat, grid N) running sums over items.
#[derive(Clone, Copy)]
struct Acc {
    jsd: f64,
    kl: f64,
    maj: f64,
    sx: f64,
    sxx: f64,
    sxy: f64,
    xmin: f64,
    xmax: f64,
}

const ACC0: Acc = Acc {
    jsd: 0.0,
    kl: 0.0,
    maj: 0.0,
    sx: 0.0,
    sxx: 0.0,
    sxy: 0.0,
    xmin: f64::INFINITY,
    xmax: f64::NEG_INFINITY,
};

fn mask_of(counts: &[u32]) -> u64 {
    let best = counts.iter().copied().max().unwrap_or(0);
    counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == best)
        .fold(0, |m, (k, _)| m | 1 << k)
}

/// Returns items used per grid N and `values[metric][g * repeats + r]` (NaN = undefined).
pub(super) fn run(
    pool: &VoteTable,
    reference: &VoteTable,
    grid: &[u32],
    repeats: u32,
    seed: u64,
    alpha: f64,
) -> (Vec<u32>, [Vec<f64>; 4]) {
    let k = pool.num_classes();
    let (ng, nr) = (grid.len(), repeats as usize);
    let nmax = (*grid.last().unwrap()).min(pool.max_total()) as usize;
    let ref_max = reference.max_total() as u64;
    let g_tab = XLogX::new(2 * nmax as u64 * ref_max.max(1));
    let la: Vec<f64> = (0..=nmax).map(|c| ln(c as f64 + alpha)).collect();
    let ln_nka: Vec<f64> = (0..=nmax)
        .map(|n| ln(n as f64 + k as f64 * alpha))
        .collect();
    let ln_n: Vec<f64> = (0..=nmax).map(|n| ln(n as f64)).collect();
    let mut grid_at = vec![usize::MAX; nmax + 1];
    for (g, &n) in grid.iter().enumerate() {
        if (n as usize) <= nmax {
            grid_at[n as usize] = g;
        }
    }

    // Reference entropies (y side of entropy_corr), centred for numerically stable sums.
    let ref_h: Vec<Option<f64>> = (0..reference.num_items())
        .map(|i| {
            let f = reference.counts(i);
            let m: u64 = f.iter().map(|&c| c as u64).sum();
            (m > 0).then(|| {
                ln(m as f64) - f.iter().map(|&c| g_tab.get(c as u64)).sum::<f64>() / m as f64
            })
        })
        .collect();
    let defined: Vec<f64> = ref_h.iter().flatten().copied().collect();
    let ybar = defined.iter().sum::<f64>() / defined.len().max(1) as f64;

    let mut acc = vec![ACC0; nr * ng];
    let mut items = vec![0u32; ng];
    let (mut sy, mut syy) = (vec![0.0; ng], vec![0.0; ng]);
    let (mut ymin, mut ymax) = (vec![f64::INFINITY; ng], vec![f64::NEG_INFINITY; ng]);
    let mut votes: Vec<u16> = Vec::new();
    let mut scratch: Vec<u16> = Vec::new();
    let mut c = vec![0u32; k];

    for i in 0..pool.num_items() {
        let Some(h_ref) = ref_h[i] else { continue };
        let f = reference.counts(i);
        let m = f.iter().map(|&x| x as u64).sum::<u64>();
        let inv_m = 1.0 / m as f64;
        let ref_mask = mask_of(f);
        expand(pool.counts(i), &mut votes);
        let mp = votes.len();
        let top = nmax.min(mp);
        let y = h_ref - ybar;
        for (g, &n) in grid.iter().enumerate() {
            if n as usize <= top {
                items[g] += 1;
                sy[g] += y;
                syy[g] += y * y;
                ymin[g] = ymin[g].min(y);
                ymax[g] = ymax[g].max(y);
            }
        }
        for r in 0..nr {
            let mut rng = subsample_stream(seed, i, r as u32);
            scratch.clear();
            scratch.extend_from_slice(&votes);
            c.iter_mut().for_each(|x| *x = 0);
            let (mut s_c, mut t_kl) = (0.0, m as f64 * la[0]);
            let (mut best, mut mask) = (0u32, 0u64);
            let row = &mut acc[r * ng..(r + 1) * ng];
            for n in 1..=top {
                let j = n - 1 + below(&mut rng, (mp - n + 1) as u32) as usize;
                scratch.swap(n - 1, j);
                let l = scratch[n - 1] as usize;
                let cl = c[l] as usize;
                s_c += g_tab.get(cl as u64 + 1) - g_tab.get(cl as u64);
                t_kl += f[l] as f64 * (la[cl + 1] - la[cl]);
                c[l] += 1;
                if c[l] > best {
                    best = c[l];
                    mask = 1 << l;
                } else if c[l] == best {
                    mask |= 1 << l;
                }
                let g = grid_at[n];
                if g == usize::MAX {
                    continue;
                }
                let nn = n as u64;
                let x = ln_n[n] - s_c / n as f64;
                let kl = -h_ref - t_kl * inv_m + ln_nka[n];
                let mut s = 0.0;
                for (&ck, &fk) in c.iter().zip(f) {
                    let (a, b) = (ck as u64 * m, fk as u64 * nn);
                    s += g_tab.get(2 * a) + g_tab.get(2 * b) - 2.0 * g_tab.get(a + b);
                }
                let js = s / (4.0 * (nn * m) as f64);
                let a = &mut row[g];
                a.jsd += libm::sqrt(js.max(0.0));
                a.kl += kl;
                a.maj += (mask & ref_mask).count_ones() as f64 / mask.count_ones() as f64;
                a.sx += x;
                a.sxx += x * x;
                a.sxy += x * y;
                a.xmin = a.xmin.min(x);
                a.xmax = a.xmax.max(x);
            }
        }
    }

    let mut values: [Vec<f64>; 4] = std::array::from_fn(|_| vec![f64::NAN; ng * nr]);
    for g in 0..ng {
        let ni = items[g] as f64;
        if items[g] == 0 {
            continue;
        }
        for r in 0..nr {
            let a = acc[r * ng + g];
            let idx = g * nr + r;
            values[0][idx] = a.jsd / ni;
            values[2][idx] = a.kl / ni;
            values[3][idx] = a.maj / ni;
            let constant = a.xmin == a.xmax || ymin[g] == ymax[g] || items[g] < 2;
            if !constant {
                let cov = a.sxy - a.sx * sy[g] / ni;
                let vx = a.sxx - a.sx * a.sx / ni;
                let vy = syy[g] - sy[g] * sy[g] / ni;
                if vx > 0.0 && vy > 0.0 {
                    values[1][idx] = (cov / libm::sqrt(vx * vy)).clamp(-1.0, 1.0);
                }
            }
        }
    }
    (items, values)
}
