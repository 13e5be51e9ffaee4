//! The hot loop behind [`super::compute`].
//!
//! With integer counts every logarithm is of an integer, so a table `G[x] = x ln x` serves them all.
//! Write p = c/N (the subsample), q = f/M (the reference), S_c = Σ_k G[c_k], S_f = Σ_k G[f_k]:
//! - entropy of p:  H = ln N − S_c / N
//! - JS divergence, with x_k = c_k M + f_k N (so the mixture is m_k = x_k / 2NM):
//!   JS = ½ ln(4NM) + S_c / 2N + S_f / 2M − Σ_k G[x_k] / 2NM, and exactly 0 when c M = f N;
//! - KL(q ‖ p̃), p̃ = (c + α)/(N + Kα):  KL = −H(q) − Σ_k f_k ln(c_k + α) / M + ln(N + Kα).
//!
//! S_c, the KL sum and the majority set change only in the class that just got a vote, so they are
//! updated in O(1) per drawn vote; Σ G[x_k] is the one O(K) step per evaluated N. Repeats are the
//! outer loop so one repeat's accumulators (one row per N) stay in L1 cache; nothing allocates
//! inside the loops.

use crate::logtable::{ln, XLogX};
use crate::sample::{below, expand, subsample_stream};
use crate::votes::{VoteTable, MAX_CLASSES};

/// Per (repeat, grid N) running sums over items.
#[derive(Clone, Copy)]
struct Acc {
    jsd: f64,
    kl: f64,
    maj: f64,
    sx: f64,
    sxx: f64,
    sxy: f64,
}

const ACC0: Acc = Acc {
    jsd: 0.0,
    kl: 0.0,
    maj: 0.0,
    sx: 0.0,
    sxx: 0.0,
    sxy: 0.0,
};

fn mask_of(counts: &[u32]) -> u64 {
    let best = counts.iter().copied().max().unwrap_or(0);
    counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == best)
        .fold(0, |m, (k, _)| m | 1 << k)
}

/// What the loops need about one item, computed once.
struct Item {
    /// Range of this item's expanded votes in the flat `votes` array.
    start: usize,
    len: usize,
    /// Row index in the tables (for its reference counts and its random stream).
    row: usize,
    m: u64,
    inv_m: f64,
    half_sf_over_m: f64,
    /// ½ ln(4M): with ½ ln N it makes the ½ ln(4NM) of the JS identity without a call to ln.
    half_ln_4m: f64,
    h_ref: f64,
    y: f64,
    ref_mask: u64,
    /// M·ln(α): the KL sum before any vote is drawn.
    la0: f64,
    /// Smallest n at which n·f/M can be integral: M / gcd(M, f_1, …, f_K).
    n0: usize,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Returns items used per grid N and `values[metric][g * nr + r]` for the repeats in `repeats`
/// (NaN = undefined). Repeat r always uses stream r, so any split of the repeats gives the same values.
pub(super) fn run(
    pool: &VoteTable,
    reference: &VoteTable,
    grid: &[u32],
    repeats: std::ops::Range<u32>,
    seed: u64,
    alpha: f64,
    progress: &mut dyn FnMut(usize, usize),
) -> (Vec<u32>, [Vec<f64>; 4]) {
    let k = pool.num_classes();
    let (ng, nr, first) = (grid.len(), repeats.len(), repeats.start);
    let nmax = (*grid.last().unwrap()).min(pool.max_total()) as usize;
    let ref_max = reference.max_total() as u64;
    let g_tab = XLogX::new(2 * nmax as u64 * ref_max.max(1));
    let la: Vec<f64> = (0..=nmax).map(|c| ln(c as f64 + alpha)).collect();
    let ln_nka: Vec<f64> = (0..=nmax)
        .map(|n| ln(n as f64 + k as f64 * alpha))
        .collect();
    let ln_n: Vec<f64> = (0..=nmax).map(|n| ln(n as f64)).collect();
    let inv_n: Vec<f64> = (0..=nmax).map(|n| 1.0 / n as f64).collect();
    let mut grid_at = vec![usize::MAX; nmax + 1];
    for (g, &n) in grid.iter().enumerate() {
        if (n as usize) <= nmax {
            grid_at[n as usize] = g;
        }
    }

    // Per-item constants and the flat array of every item's votes.
    let mut items_pre: Vec<Item> = Vec::with_capacity(pool.num_items());
    let mut votes: Vec<u16> = Vec::new();
    let mut one: Vec<u16> = Vec::new();
    for i in 0..pool.num_items() {
        let f = reference.counts(i);
        let m: u64 = f.iter().map(|&c| c as u64).sum();
        if m == 0 {
            continue;
        }
        let s_f: f64 = f.iter().map(|&c| g_tab.get(c as u64)).sum();
        expand(pool.counts(i), &mut one);
        items_pre.push(Item {
            start: votes.len(),
            len: one.len(),
            row: i,
            m,
            inv_m: 1.0 / m as f64,
            half_sf_over_m: 0.5 * s_f / m as f64,
            half_ln_4m: 0.5 * ln(4.0 * m as f64),
            h_ref: ln(m as f64) - s_f / m as f64,
            y: 0.0,
            ref_mask: mask_of(f),
            la0: m as f64 * la[0],
            n0: (m / f.iter().fold(m, |g, &x| gcd(g, x as u64))) as usize,
        });
        votes.extend_from_slice(&one);
    }
    // Reference entropies are the y side of entropy_corr; centre them for stable sums.
    let ybar = items_pre.iter().map(|it| it.h_ref).sum::<f64>() / items_pre.len().max(1) as f64;
    let mut items = vec![0u32; ng];
    let (mut sy, mut syy) = (vec![0.0; ng], vec![0.0; ng]);
    let (mut ymin, mut ymax) = (vec![f64::INFINITY; ng], vec![f64::NEG_INFINITY; ng]);
    for it in items_pre.iter_mut() {
        it.y = it.h_ref - ybar;
        for (g, &n) in grid.iter().enumerate() {
            if n as usize <= it.len {
                items[g] += 1;
                sy[g] += it.y;
                syy[g] += it.y * it.y;
                ymin[g] = ymin[g].min(it.y);
                ymax[g] = ymax[g].max(it.y);
            }
        }
    }

    let dla: Vec<f64> = la.windows(2).map(|w| w[1] - w[0]).collect();
    let inv_ties: Vec<f64> = (0..=MAX_CLASSES).map(|t| 1.0 / t as f64).collect();
    let tables = Tables {
        dla: &dla,
        ln_nka: &ln_nka,
        ln_n: &ln_n,
        inv_n: &inv_n,
        inv_ties: &inv_ties,
        grid_at: &grid_at,
    };
    let covered = g_tab.covers(2 * nmax as u64 * ref_max);
    let args = (
        reference,
        items_pre.as_slice(),
        votes.as_slice(),
        &tables,
        k,
        ng,
        nr,
        nmax,
        seed,
        first,
    );
    // A compile-time class count lets the compiler unroll the per-class loops for common K.
    let acc = match (k, covered) {
        (2, true) => accumulate::<2, _>(Covered(g_tab.as_slice()), args, progress),
        (3, true) => accumulate::<3, _>(Covered(g_tab.as_slice()), args, progress),
        (4, true) => accumulate::<4, _>(Covered(g_tab.as_slice()), args, progress),
        (_, true) => accumulate::<0, _>(Covered(g_tab.as_slice()), args, progress),
        (_, false) => accumulate::<0, _>(&g_tab, args, progress),
    };
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
            // Undefined when either side is constant: exactly (all y equal), or x's variance is
            // nothing but rounding (at N = 1 every x is exactly 0, so sxx = vx = 0).
            let constant = ymin[g] == ymax[g] || items[g] < 2;
            if !constant {
                let cov = a.sxy - a.sx * sy[g] / ni;
                let vx = a.sxx - a.sx * a.sx / ni;
                let vy = syy[g] - sy[g] * sy[g] / ni;
                if vx > 1e-12 * a.sxx && vy > 0.0 {
                    values[1][idx] = (cov / libm::sqrt(vx * vy)).clamp(-1.0, 1.0);
                }
            }
        }
    }
    (items, values)
}

/// `x ln x` for integers: a plain slice when the table covers every argument (checked once),
/// else the table with its computing fallback.
trait XLnX: Copy {
    fn at(self, x: u64) -> f64;
}

#[derive(Clone, Copy)]
struct Covered<'a>(&'a [f64]);

impl XLnX for Covered<'_> {
    #[inline(always)]
    fn at(self, x: u64) -> f64 {
        self.0[x as usize]
    }
}

impl XLnX for &XLogX {
    #[inline(always)]
    fn at(self, x: u64) -> f64 {
        self.get(x)
    }
}

/// Tables shared by every item.
struct Tables<'a> {
    /// ln(c + 1 + α) − ln(c + α): the change of the KL sum when a class gets its (c+1)-th vote.
    dla: &'a [f64],
    ln_nka: &'a [f64],
    ln_n: &'a [f64],
    inv_n: &'a [f64],
    inv_ties: &'a [f64],
    grid_at: &'a [usize],
}

type Args<'a> = (
    &'a VoteTable,
    &'a [Item],
    &'a [u16],
    &'a Tables<'a>,
    usize,
    usize,
    usize,
    usize,
    u64,
    u32,
);

/// The loop over repeats. Each repeat is its own (never inlined) call: browsers compile wasm with a
/// quick baseline tier first and switch to optimised code only at a function's *next* call, so one
/// long call would run unoptimised to the end (measured: about 6× slower in Chromium).
fn accumulate<const K: usize, G: XLnX>(
    gx: G,
    args: Args,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Acc> {
    let (ng, nr, first) = (args.5, args.6, args.9 as usize);
    let mut acc = vec![ACC0; nr * ng];
    let mut scratch: Vec<u16> = Vec::with_capacity(args.2.len());
    for (r, row) in acc.chunks_exact_mut(ng).enumerate() {
        one_repeat::<K, G>(gx, &args, first + r, row, &mut scratch);
        progress(r + 1, nr);
    }
    acc
}

/// One repeat over every item and drawn vote. `K` is the class count when known at compile time
/// (0 = use `k_dyn`), so the per-class loops unroll and lose their bounds checks.
#[inline(never)]
fn one_repeat<const K: usize, G: XLnX>(
    gx: G,
    args: &Args,
    r: usize,
    row: &mut [Acc],
    scratch: &mut Vec<u16>,
) {
    let &(reference, items_pre, votes, t, k_dyn, _, _, nmax, seed, _) = args;
    let k = if K == 0 { k_dyn } else { K };
    let mut f = [0u32; MAX_CLASSES];
    let mut c = [0u32; MAX_CLASSES];
    for it in items_pre {
        f[..k].copy_from_slice(reference.counts(it.row));
        let m = it.m;
        let mut rng = subsample_stream(seed, it.row, r as u32);
        scratch.clear();
        scratch.extend_from_slice(&votes[it.start..it.start + it.len]);
        let (mp, top) = (it.len, nmax.min(it.len));
        c[..k].iter_mut().for_each(|x| *x = 0);
        let (mut s_c, mut t_kl) = (0.0, it.la0);
        // Majority of the draw so far: its count, how many classes tie at it, and how many of
        // those are in the reference majority (so the tie credit is hits / ties).
        let (mut best, mut ties, mut hits) = (0u32, 0u32, 0u32);
        for n in 1..=top {
            let j = n - 1 + below(&mut rng, (mp - n + 1) as u32) as usize;
            scratch.swap(n - 1, j);
            let l = scratch[n - 1] as usize % MAX_CLASSES;
            let cl = c[l] as usize;
            s_c += gx.at(cl as u64 + 1) - gx.at(cl as u64);
            t_kl += f[l] as f64 * t.dla[cl];
            c[l] += 1;
            let in_ref = ((it.ref_mask >> l) & 1) as u32;
            if c[l] > best {
                (best, ties, hits) = (c[l], 1, in_ref);
            } else if c[l] == best {
                ties += 1;
                hits += in_ref;
            }
            let g = t.grid_at[n];
            if g == usize::MAX {
                continue;
            }
            let nn = n as u64;
            let x = t.ln_n[n] - s_c * t.inv_n[n];
            let kl = -it.h_ref - t_kl * it.inv_m + t.ln_nka[n];
            let mut sg = 0.0;
            for kk in 0..k {
                sg += gx.at(c[kk] as u64 * m + f[kk] as u64 * nn);
            }
            // p_N = p_ref (JS exactly 0) needs n·f_k/M integral for every k, i.e. n a multiple
            // of `it.n0`; only then are the counts compared.
            let equal = n % it.n0 == 0 && (0..k).all(|kk| c[kk] as u64 * m == f[kk] as u64 * nn);
            let jsd = if equal {
                0.0
            } else {
                let inv_nm = t.inv_n[n] * it.inv_m;
                let js = it.half_ln_4m + 0.5 * (t.ln_n[n] + s_c * t.inv_n[n]) + it.half_sf_over_m
                    - 0.5 * sg * inv_nm;
                libm::sqrt(js.max(0.0))
            };
            let a = &mut row[g];
            a.jsd += jsd;
            a.kl += kl;
            a.maj += hits as f64 * t.inv_ties[ties as usize];
            a.sx += x;
            a.sxx += x * x;
            a.sxy += x * it.y;
        }
    }
}
