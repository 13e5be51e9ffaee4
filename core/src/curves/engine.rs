//! The hot loop behind [`super::compute`].
//!
//! With integer counts every logarithm is of an integer, so a table `G[x] = x ln x` serves them all.
//! Write p = c/N (the subsample), q = f/M (the reference), S_c = Σ_k G[c_k], S_f = Σ_k G[f_k]:
//! - entropy of p:  H = ln N − S_c / N
//! - JS divergence, with x_k = c_k M + f_k N (so the mixture is m_k = x_k / 2NM):
//!   JS = ½ ln(4NM) + S_c / 2N + S_f / 2M − Σ_k G[x_k] / 2NM, and exactly 0 when c M = f N;
//! - KL(q ‖ p̃), p̃ = (c + α)/(N + Kα):  KL = −H(q) − Σ_k f_k ln(c_k + α) / M + ln(N + Kα).
//!
//! S_c and the KL sum change only in the class that just got a vote, so they are updated in O(1)
//! per drawn vote; Σ G[x_k] and the majority set are the O(K) steps per evaluated N. Votes are drawn
//! by `sample::class_at`'s rule from each class's votes left, so an item needs only its counts.
//!
//! Four repeats of one item run side by side (their chains of dependent operations interleave) and
//! their per-N arithmetic is one `f64x4`; groups of four repeats are the outer loop so a group's
//! accumulators (one row per N) stay in L1 cache; nothing allocates inside the loops. Each of
//! these choices (xoshiro256++ with 16-bit draws instead of ChaCha8, counts instead of shuffling
//! the expanded votes, indexing by the drawn class rather than masked updates over all classes,
//! four lanes) was kept because `examples/time_curves` measured it faster; `scripts/bench.sh`
//! prints where the whole stands.

use super::bootstrap::{BootSums, Units, STATS};
use crate::logtable::{ln, XLogX};
use crate::sample::CurveDraws;
use crate::votes::{VoteTable, MAX_CLASSES};
use wide::f64x4;

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
    /// Votes to draw from (the pool's).
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
    /// The item-bootstrap unit this item's values are added to (see `bootstrap`).
    unit: u32,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// What the loops need that does not depend on the repeats: the tables and each item's constants,
/// computed once and shared by every thread computing repeats (the CLI splits them over its
/// threads; these constants are most of the memory a big file needs beside its table).
pub(super) struct Prep {
    k: usize,
    nmax: usize,
    /// Whether the `x ln x` table covers every argument (else the computing fallback).
    covered: bool,
    g_tab: XLogX,
    dla: Vec<f64>,
    dg: Vec<f64>,
    ln_nka: Vec<f64>,
    ln_n: Vec<f64>,
    inv_n: Vec<f64>,
    inv_ties: Vec<f64>,
    grid_at: Vec<usize>,
    items_pre: Vec<Item>,
    /// Items used per grid N, and the sums over them of the (centred) reference entropies.
    pub(super) items: Vec<u32>,
    sy: Vec<f64>,
    syy: Vec<f64>,
    ymin: Vec<f64>,
    ymax: Vec<f64>,
    /// The item bootstrap's units, when asked for.
    units: Option<Units>,
}

/// What the item bootstrap needs to know before the first repeat: resamples, seed, and how many
/// repeats the whole computation has (it bounds the fixed-point sums).
pub(super) type BootArgs = (u32, u64, u32);

impl Prep {
    pub(super) fn new(
        pool: &VoteTable,
        reference: &VoteTable,
        grid: &[u32],
        alpha: f64,
        boot: Option<BootArgs>,
    ) -> Prep {
        let k = pool.num_classes();
        let ng = grid.len();
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

        // Per-item constants (the draws need only the counts, so nothing grows with the votes).
        let mut items_pre: Vec<Item> = Vec::with_capacity(pool.num_items());
        for i in 0..pool.num_items() {
            let f = reference.counts(i);
            let m: u64 = f.iter().map(|&c| c as u64).sum();
            if m == 0 {
                continue;
            }
            let s_f: f64 = f.iter().map(|&c| g_tab.get(c as u64)).sum();
            items_pre.push(Item {
                len: pool.total(i) as usize,
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
                unit: 0,
            });
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
        let units = boot.map(|(resamples, seed, repeats)| {
            let rows: Vec<usize> = items_pre.iter().map(|it| it.row).collect();
            let lens: Vec<usize> = items_pre.iter().map(|it| it.len).collect();
            let y: Vec<f64> = items_pre.iter().map(|it| it.y).collect();
            // Every statistic's size: jsd, maj ≤ 1; |x|, |y| ≤ ln K; KL ≤ ln((N + Kα)/α).
            let lnk = ln(k as f64);
            let vmax = 2.0
                * (1.0f64)
                    .max(lnk * lnk)
                    .max(ln((nmax as f64 + k as f64 * alpha) / alpha));
            let u = Units::new(&rows, &lens, &y, grid, (resamples, seed, repeats, vmax));
            for (it, &unit) in items_pre.iter_mut().zip(&u.unit_of) {
                it.unit = unit;
            }
            u
        });
        let dla: Vec<f64> = la.windows(2).map(|w| w[1] - w[0]).collect();
        let inv_ties: Vec<f64> = (0..=MAX_CLASSES).map(|t| 1.0 / t as f64).collect();
        let dg: Vec<f64> = (0..nmax as u64)
            .map(|c| g_tab.get(c + 1) - g_tab.get(c))
            .collect();
        Prep {
            k,
            nmax,
            covered: g_tab.covers(2 * nmax as u64 * ref_max),
            g_tab,
            dla,
            dg,
            ln_nka,
            ln_n,
            inv_n,
            inv_ties,
            grid_at,
            items_pre,
            items,
            sy,
            syy,
            ymin,
            ymax,
            units,
        }
    }

    /// The item bootstrap's resampled sums of one run's cells (`None` without a bootstrap);
    /// `progress(done, total)` after each resample.
    pub(super) fn resample(
        &self,
        cells: &[i64],
        progress: &mut impl FnMut(usize, usize),
    ) -> Option<BootSums> {
        self.units
            .as_ref()
            .map(|u| u.resample(cells, self.items.len(), progress))
    }

    /// `values[metric][g * nr + r]` for the repeats in `repeats` (NaN = undefined), on the tables
    /// `pool` and `reference` that [`Prep::new`] was given, and the item bootstrap's cells (empty
    /// without one; [`Prep::resample`] turns them into its sums). Repeat r always uses stream r,
    /// so any split of the repeats gives the same values.
    pub(super) fn run(
        &self,
        pool: &VoteTable,
        reference: &VoteTable,
        repeats: std::ops::Range<u32>,
        seed: u64,
        progress: &mut impl FnMut(usize, usize),
    ) -> ([Vec<f64>; 4], Vec<i64>) {
        let (k, nmax, ng, nr) = (self.k, self.nmax, self.items.len(), repeats.len());
        let mut cells = match &self.units {
            Some(u) => vec![0i64; u.count * ng * STATS],
            None => Vec::new(),
        };
        let scale = self.units.as_ref().map_or(0.0, |u| u.scale);
        let boot = (cells.as_mut_slice(), scale);
        let (items, sy, syy, ymin, ymax) =
            (&self.items, &self.sy, &self.syy, &self.ymin, &self.ymax);
        let tables = Tables {
            dla: &self.dla,
            dg: &self.dg,
            ln_nka: &self.ln_nka,
            ln_n: &self.ln_n,
            inv_n: &self.inv_n,
            inv_ties: &self.inv_ties,
            grid_at: &self.grid_at,
        };
        let args = (
            pool,
            reference,
            self.items_pre.as_slice(),
            &tables,
            k,
            ng,
            nr,
            nmax,
            seed,
            repeats.start,
        );
        // A compile-time class count lets the compiler unroll the per-class loops for common K.
        let gc = Covered(self.g_tab.as_slice());
        let acc = match (k, self.covered) {
            (2, true) => accumulate::<2, 2, _>(gc, args, boot, progress),
            (3, true) => accumulate::<3, 3, _>(gc, args, boot, progress),
            (4, true) => accumulate::<4, 4, _>(gc, args, boot, progress),
            (5, true) => accumulate::<5, 5, _>(gc, args, boot, progress),
            (_, true) => accumulate::<0, MAX_CLASSES, _>(gc, args, boot, progress),
            (_, false) => accumulate::<0, MAX_CLASSES, _>(&self.g_tab, args, boot, progress),
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
        (values, cells)
    }
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
    /// G[c + 1] − G[c]: the change of S_c when a class gets its (c+1)-th vote.
    dg: &'a [f64],
    ln_nka: &'a [f64],
    ln_n: &'a [f64],
    inv_n: &'a [f64],
    inv_ties: &'a [f64],
    grid_at: &'a [usize],
}

type Args<'a> = (
    &'a VoteTable,
    &'a VoteTable,
    &'a [Item],
    &'a Tables<'a>,
    usize,
    usize,
    usize,
    usize,
    u64,
    u32,
);

/// Repeats computed side by side for one item: four lanes of one `f64x4`.
const LANES: usize = 4;

/// Items per call of [`one_group`].
const ITEM_CHUNK: usize = 2048;

/// The loop over repeats, `LANES` at a time (the last group may be partial), and within a group
/// over chunks of items. Each chunk is its own (never inlined) call: browsers compile wasm with a
/// quick baseline tier first and switch to optimised code only at a function's *next* call, so one
/// long call would run unoptimised to its end (measured: about 6× slower in Chromium; with one call
/// per group of repeats a 2.4 M-item upload spent seconds in the baseline tier).
fn accumulate<const K: usize, const A: usize, G: XLnX>(
    gx: G,
    args: Args,
    (cells, scale): (&mut [i64], f64),
    progress: &mut impl FnMut(usize, usize),
) -> Vec<Acc> {
    let (items_pre, ng, nr, first) = (args.2, args.5, args.6, args.9 as usize);
    let mut acc = vec![ACC0; nr * ng];
    // One group's sums per grid N: jsd, kl, maj, Σx, Σx², Σxy, four lanes each.
    let mut sums = vec![[f64x4::ZERO; 6]; ng];
    let mut done = 0;
    for rows in acc.chunks_mut(LANES * ng) {
        let active = rows.len() / ng;
        sums.fill([f64x4::ZERO; 6]);
        for chunk in items_pre.chunks(ITEM_CHUNK) {
            one_group::<K, A, G>(
                gx,
                &args,
                first + done,
                active,
                chunk,
                &mut sums,
                (&mut *cells, scale),
            );
        }
        for (g, a) in sums.iter().enumerate() {
            let [jsd, kl, maj, sx, sxx, sxy] = a.map(|v| v.to_array());
            for (l, row) in rows.chunks_exact_mut(ng).enumerate() {
                row[g] = Acc {
                    jsd: jsd[l],
                    kl: kl[l],
                    maj: maj[l],
                    sx: sx[l],
                    sxx: sxx[l],
                    sxy: sxy[l],
                };
            }
        }
        done += active;
        progress(done, nr);
    }
    acc
}

/// One repeat's state for the item being drawn.
struct Lane<const A: usize> {
    draws: CurveDraws,
    /// Votes of each class not drawn yet, and drawn so far.
    left: [u32; A],
    c: [u32; A],
    /// c_k·M: the JS table's index is c_k·M + f_k·N.
    cm: [u64; A],
    s_c: f64,
    t_kl: f64,
}

/// `active` (up to four) repeats, streams `r0..r0 + active`, over every drawn vote of `items`,
/// added to `acc` (per grid N: jsd, kl, maj, Σx, Σx², Σxy, four lanes each; lanes past `active` hold
/// nothing of use). With the item bootstrap on (`cells` not empty), each active lane's values are
/// also added, in fixed point, to the item's unit cell (`bootstrap`).
/// `K` is the class count when known at compile time (0 = use `k_dyn`), so the per-class loops
/// unroll, and `A` the size of the per-class arrays.
#[inline(never)]
fn one_group<const K: usize, const A: usize, G: XLnX>(
    gx: G,
    args: &Args,
    r0: usize,
    active: usize,
    items: &[Item],
    acc: &mut [[f64x4; 6]],
    (cells, scale): (&mut [i64], f64),
) {
    let &(pool, reference, _, t, k_dyn, ng, _, nmax, seed, _) = args;
    let k = if K == 0 { k_dyn } else { K };
    let mut f = [0u32; A];
    let mut ff = [0f64; A];
    let mut ref_bit = [0u32; A];
    const L: usize = LANES;
    for it in items {
        f[..k].copy_from_slice(reference.counts(it.row));
        for kk in 0..k {
            ff[kk] = f[kk] as f64;
            ref_bit[kk] = ((it.ref_mask >> kk) & 1) as u32;
        }
        let m = it.m;
        let mut left = [0u32; A];
        left[..k].copy_from_slice(pool.counts(it.row));
        let mut lanes: [Lane<A>; L] = std::array::from_fn(|l| Lane {
            draws: CurveDraws::new(seed, it.row, (r0 + l) as u32),
            left,
            c: [0; A],
            cm: [0; A],
            s_c: 0.0,
            t_kl: it.la0,
        });
        let (mp, top) = (it.len, nmax.min(it.len));
        let mut until_n0 = it.n0;
        for n in 1..=top {
            let bound = (mp - n + 1) as u32;
            for ln in lanes[..active].iter_mut() {
                // The next vote's class: the first whose running sum of `left` passes u
                // (`sample::class_at`), then that class's count moves from `left` to `c`.
                let u = ln.draws.below(bound);
                let (mut cum, mut v) = (0u32, 0usize);
                for kk in 0..k - 1 {
                    cum += ln.left[kk];
                    v += (u >= cum) as usize;
                }
                let cv = ln.c[v];
                ln.c[v] += 1;
                ln.cm[v] += m;
                ln.left[v] -= 1;
                ln.s_c += t.dg[cv as usize];
                ln.t_kl += ff[v] * t.dla[cv as usize];
            }
            until_n0 -= 1;
            let at_n0 = until_n0 == 0;
            if at_n0 {
                until_n0 = it.n0;
            }
            let g = t.grid_at[n];
            if g == usize::MAX {
                continue;
            }
            let nn = n as u64;
            let (inv_n, ln_n) = (t.inv_n[n], t.ln_n[n]);
            let inv_nm = inv_n * it.inv_m;
            let mut fnn = [0u64; A];
            for kk in 0..k {
                fnn[kk] = f[kk] as u64 * nn;
            }
            // Per lane, what needs look-ups and compares; then the arithmetic lane by lane.
            let (mut sg, mut maj, mut zero) = ([0.0f64; L], [0.0f64; L], [false; L]);
            for (l, ln) in lanes[..active].iter().enumerate() {
                let c = &ln.c;
                let mut best = 0;
                for kk in 0..k {
                    sg[l] += gx.at(ln.cm[kk] + fnn[kk]);
                    best = best.max(c[kk]);
                }
                // The majority set of the draw: its size, and how many of it are in the reference
                // majority (the tie credit is hits / ties).
                let (mut ties, mut hits) = (0u32, 0u32);
                for kk in 0..k {
                    let top = (c[kk] == best) as u32;
                    ties += top;
                    hits += top & ref_bit[kk];
                }
                maj[l] = hits as f64 * t.inv_ties[ties as usize];
                // p_N = p_ref (JS exactly 0) needs n·f_k/M integral for every k, i.e. n a multiple
                // of `it.n0`; only then are the counts compared.
                if at_n0 {
                    zero[l] = (0..k).all(|kk| c[kk] as u64 * m == fnn[kk]);
                }
            }
            // The arithmetic for the four lanes at once (IEEE operations lane by lane, no fused
            // multiply-add: the same bits as one lane at a time, on every target).
            let s_c = f64x4::from(std::array::from_fn::<f64, L, _>(|l| lanes[l].s_c));
            let t_kl = f64x4::from(std::array::from_fn::<f64, L, _>(|l| lanes[l].t_kl));
            let sg = f64x4::from(sg);
            let (inv_n, ln_n, half) = (f64x4::splat(inv_n), f64x4::splat(ln_n), f64x4::HALF);
            let x = ln_n - s_c * inv_n;
            let kl =
                f64x4::splat(-it.h_ref) - t_kl * f64x4::splat(it.inv_m) + f64x4::splat(t.ln_nka[n]);
            let js = f64x4::splat(it.half_ln_4m)
                + half * (ln_n + s_c * inv_n)
                + f64x4::splat(it.half_sf_over_m)
                - half * sg * f64x4::splat(inv_nm);
            let keep = f64x4::from(zero.map(|z| if z { 0.0 } else { 1.0 }));
            let jsd = (js.max(f64x4::ZERO) * keep).sqrt();
            let a = &mut acc[g];
            a[0] += jsd;
            a[1] += kl;
            a[2] += f64x4::from(maj);
            a[3] += x;
            a[4] += x * x;
            a[5] += x * f64x4::splat(it.y);
            if !cells.is_empty() {
                let cell = &mut cells[(it.unit as usize * ng + g) * STATS..][..STATS];
                // Scaled lane by lane (the same IEEE products as one lane at a time), then each
                // active lane truncated toward zero: deterministic, off by less than 1/scale.
                let sc = f64x4::splat(scale);
                let v = [
                    (jsd * sc).to_array(),
                    (kl * sc).to_array(),
                    (f64x4::from(maj) * sc).to_array(),
                    (x * sc).to_array(),
                    (x * x * sc).to_array(),
                    (x * f64x4::splat(it.y) * sc).to_array(),
                ];
                for (c, lanes) in cell.iter_mut().zip(&v) {
                    for &w in &lanes[..active] {
                        *c += w as i64;
                    }
                }
            }
        }
    }
}
