//! Seeded, portable subsampling without replacement, and held-out annotator splits.
//!
//! Portability: every random stream's seed is derived from `(seed, item index, repeat, purpose)` by
//! a SplitMix64 mix, and every bounded draw is on `u32` or `u16` (never `usize`, whose sampling
//! differs between 64-bit hosts and wasm32). So the same seed gives bit-identical draws natively and
//! in the browser, and an item's draws do not depend on which other items, repeats or N values were
//! computed. Held-out splits, the trainer and the synthetic generator use ChaCha8 streams; the
//! curves, which draw every vote of every item for every repeat, use [`CurveDraws`] (xoshiro256++).
//!
//! The curves draw an item's votes one at a time without replacement: the next vote's class is
//! chosen with probability (votes of that class not drawn yet) / (votes not drawn yet)
//! ([`class_at`]). Every prefix of that sequence is an exact without-replacement draw
//! (multivariate hypergeometric counts), so one sequence per repeat serves every N
//! ([`curve_draw`]). [`partial_shuffle`] (Fisher–Yates) does the same for lists of anything.

use crate::votes::VoteTable;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod curve_draws;
pub use curve_draws::{class_at, curve_draw, CurveDraws};

/// Purpose tags keep the streams for subsampling and for held-out splits apart.
const PURPOSE_SUBSAMPLE: u64 = 0x5u64;
const PURPOSE_SPLIT: u64 = 0x5_91u64;
/// The curves' streams ([`CurveDraws`]).
const PURPOSE_CURVES: u64 = 0xC_0u64;

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of the stream for one (item, repeat) of one purpose.
fn stream_hash(seed: u64, purpose: u64, item: u64, repeat: u64) -> u64 {
    let mut h = splitmix64(seed);
    for part in [purpose, item, repeat] {
        h = splitmix64(h ^ part);
    }
    h
}

/// A generator for one (item, repeat) of one purpose.
pub fn stream(seed: u64, purpose: u64, item: u64, repeat: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(stream_hash(seed, purpose, item, repeat))
}

/// The generator the curves use for item `item`, repeat `repeat`.
pub fn subsample_stream(seed: u64, item: usize, repeat: u32) -> ChaCha8Rng {
    stream(seed, PURPOSE_SUBSAMPLE, item as u64, repeat as u64)
}

/// Uniform in `0..bound` (bound ≥ 1), exactly: Lemire's multiply-shift with rejection, on one
/// `u32` per draw (so it is portable and costs one quarter of a ChaCha word-pair per vote).
#[inline]
pub fn below(rng: &mut ChaCha8Rng, bound: u32) -> u32 {
    debug_assert!(bound > 0);
    let mut m = rng.next_u32() as u64 * bound as u64;
    if (m as u32) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * bound as u64;
        }
    }
    (m >> 32) as u32
}

/// Writes each vote of `counts` as its class index into `out` (cleared first).
pub fn expand(counts: &[u32], out: &mut Vec<u16>) {
    out.clear();
    for (k, &c) in counts.iter().enumerate() {
        out.extend(std::iter::repeat_n(k as u16, c as usize));
    }
}

/// Moves a uniformly random `n`-subset of `votes` to its front (partial Fisher–Yates); with
/// `n = len` a full shuffle (the trainer shuffles items and minibatch orders with it too).
/// Panics if `n > votes.len()`.
pub fn partial_shuffle<T>(votes: &mut [T], n: usize, rng: &mut ChaCha8Rng) {
    let m = votes.len();
    assert!(n <= m, "cannot draw {n} of {m} votes");
    for i in 0..n {
        let j = i + below(rng, (m - i) as u32) as usize;
        votes.swap(i, j);
    }
}

/// Counts of `n` votes drawn without replacement from `counts` (multivariate hypergeometric).
/// Returns `None` if the item has fewer than `n` votes.
pub fn subsample_counts(counts: &[u32], n: u32, rng: &mut ChaCha8Rng) -> Option<Vec<u32>> {
    let mut votes = Vec::new();
    expand(counts, &mut votes);
    if (n as usize) > votes.len() {
        return None;
    }
    partial_shuffle(&mut votes, n as usize, rng);
    let mut out = vec![0u32; counts.len()];
    for &v in &votes[..n as usize] {
        out[v as usize] += 1;
    }
    Some(out)
}

/// Two disjoint vote tables from one: A (to subsample from) and B (the held-out reference).
#[derive(Debug, Clone)]
pub struct HeldOutSplit {
    pub a: VoteTable,
    pub b: VoteTable,
    /// Items left out because they had fewer than 2 votes (both sides need at least one).
    pub excluded: Vec<String>,
}

impl HeldOutSplit {
    /// The two sides as tables over the kept items (row-major counts, same classes as `table`).
    fn new(
        table: &VoteTable,
        ids: Vec<String>,
        a: Vec<u32>,
        b: Vec<u32>,
        excluded: Vec<String>,
    ) -> Self {
        let classes = table.classes().to_vec();
        HeldOutSplit {
            a: VoteTable::new(classes.clone(), ids.clone(), a),
            b: VoteTable::new(classes, ids, b),
            excluded,
        }
    }
}

/// Splits votes into a held-out reference B and a pool A that never share an annotator.
///
/// With per-annotator rows (long input, or `annotations.csv` attached), whole *annotators* are split:
/// a seeded `round(fraction · annotators)` of them form B everywhere, so no person is on both sides
/// anywhere in the data; items left with no vote on one side are excluded. Without them, each item's
/// votes are split at random into B (`round(fraction · M)`, clamped to 1..=M−1) and A (the rest) —
/// disjoint annotators per item, as votes without ids allow. Items with fewer than 2 votes are
/// excluded. Excluded items are listed in the result.
pub fn split_heldout(table: &VoteTable, fraction: f64, seed: u64) -> HeldOutSplit {
    if !table.annotations().is_empty() {
        return split_by_annotator(table, fraction, seed);
    }
    let k = table.num_classes();
    let (mut ids, mut a, mut b, mut excluded) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut votes = Vec::new();
    for i in 0..table.num_items() {
        let m = table.total(i) as usize;
        if m < 2 {
            excluded.push(table.item_ids()[i].clone());
            continue;
        }
        let nb = ((fraction * m as f64).round() as usize).clamp(1, m - 1);
        expand(table.counts(i), &mut votes);
        let mut rng = stream(seed, PURPOSE_SPLIT, i as u64, 0);
        partial_shuffle(&mut votes, nb, &mut rng);
        let (mut ca, mut cb) = (vec![0u32; k], vec![0u32; k]);
        for (j, &v) in votes.iter().enumerate() {
            if j < nb {
                cb[v as usize] += 1
            } else {
                ca[v as usize] += 1
            }
        }
        ids.push(table.item_ids()[i].clone());
        a.extend(ca);
        b.extend(cb);
    }
    HeldOutSplit::new(table, ids, a, b, excluded)
}

fn split_by_annotator(table: &VoteTable, fraction: f64, seed: u64) -> HeldOutSplit {
    let (k, na) = (table.num_classes(), table.annotator_ids().len());
    let mut order: Vec<u32> = (0..na as u32).collect();
    let mut rng = stream(seed, PURPOSE_SPLIT, u64::MAX, 0);
    for i in 0..na {
        let j = i + below(&mut rng, (na - i) as u32) as usize;
        order.swap(i, j);
    }
    let nb = ((fraction * na as f64).round() as usize).clamp(1, na.saturating_sub(1).max(1));
    let mut in_b = vec![false; na];
    for &a in &order[..nb] {
        in_b[a as usize] = true;
    }
    let mut ca = vec![0u32; table.num_items() * k];
    let mut cb = vec![0u32; table.num_items() * k];
    for v in table.annotations() {
        let side = if in_b[v.annotator as usize] {
            &mut cb
        } else {
            &mut ca
        };
        side[v.item as usize * k + v.label as usize] += 1;
    }
    let (mut ids, mut a, mut b, mut excluded) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for i in 0..table.num_items() {
        let (ra, rb) = (&ca[i * k..(i + 1) * k], &cb[i * k..(i + 1) * k]);
        if ra.iter().sum::<u32>() == 0 || rb.iter().sum::<u32>() == 0 {
            excluded.push(table.item_ids()[i].clone());
            continue;
        }
        ids.push(table.item_ids()[i].clone());
        a.extend_from_slice(ra);
        b.extend_from_slice(rb);
    }
    HeldOutSplit::new(table, ids, a, b, excluded)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED: [u32; 6] = [89, 72, 14, 93, 47, 81];

    #[test]
    fn annotator_split_keeps_people_on_one_side() {
        use crate::{parse_votes, ImportOptions};
        let mut src = String::from("item_id,annotator_id,label\n");
        for i in 0..30 {
            for w in 0..10 {
                src += &format!("i{i},w{w},{}\n", if (i + w) % 3 == 0 { "x" } else { "y" });
            }
        }
        let (t, _) = parse_votes(src.as_bytes(), &ImportOptions::default()).unwrap();
        let s = split_heldout(&t, 0.2, 4);
        assert!(s.excluded.is_empty());
        // Two of ten annotators held out: every item has exactly 2 reference votes and 8 to draw from.
        for i in 0..s.a.num_items() {
            assert_eq!((s.a.total(i), s.b.total(i)), (8, 2));
        }
    }

    #[test]
    fn same_seed_same_draws_and_streams_differ() {
        let c = [30, 70, 0];
        let x = subsample_counts(&c, 10, &mut subsample_stream(42, 0, 0)).unwrap();
        let y = subsample_counts(&c, 10, &mut subsample_stream(42, 0, 0)).unwrap();
        assert_eq!(x, y);
        let draws: Vec<u32> = (0..8)
            .map(|r| below(&mut subsample_stream(42, 0, r), 1 << 30))
            .collect();
        let mut d = draws.clone();
        d.dedup();
        assert_eq!(d.len(), draws.len(), "repeats must use different streams");
    }

    /// Pinned values: if these change, every published number changes (docs, exports). The
    /// browser tests check that wasm32 draws the same as native.
    #[test]
    fn pinned_stream() {
        let mut rng = subsample_stream(42, 7, 3);
        let v: Vec<u32> = (0..6).map(|_| below(&mut rng, 100)).collect();
        assert_eq!(v, PINNED);
    }

    #[test]
    fn hypergeometric_mean_matches() {
        // E[count_k] = n * c_k / M for a without-replacement draw.
        let c = [20u32, 50, 30];
        let reps = 20_000;
        let mut sum = [0f64; 3];
        for r in 0..reps {
            let s = subsample_counts(&c, 10, &mut subsample_stream(1, 0, r)).unwrap();
            for k in 0..3 {
                sum[k] += s[k] as f64;
            }
        }
        for k in 0..3 {
            let mean = sum[k] / reps as f64;
            let expect = 10.0 * c[k] as f64 / 100.0;
            assert!(
                (mean - expect).abs() < 0.05,
                "class {k}: {mean} vs {expect}"
            );
        }
    }

    #[test]
    fn below_is_uniform() {
        let mut rng = subsample_stream(3, 0, 0);
        let mut hist = [0u32; 7];
        for _ in 0..70_000 {
            hist[below(&mut rng, 7) as usize] += 1;
        }
        for h in hist {
            assert!((h as i64 - 10_000).abs() < 500, "{hist:?}");
        }
        assert_eq!(below(&mut rng, 1), 0);
    }

    #[test]
    fn too_few_votes_is_none() {
        assert!(subsample_counts(&[1, 1], 3, &mut subsample_stream(0, 0, 0)).is_none());
    }

    #[test]
    fn heldout_split_is_disjoint_and_complete() {
        let t = VoteTable::new(
            vec!["a".into(), "b".into()],
            vec!["x".into(), "y".into(), "z".into()],
            vec![60, 40, 1, 0, 3, 7],
        );
        let s = split_heldout(&t, 0.2, 9);
        assert_eq!(s.excluded, vec!["y".to_string()]);
        assert_eq!(s.a.num_items(), 2);
        assert_eq!(s.b.total(0), 20);
        assert_eq!(s.b.total(1), 2);
        for (i, orig) in [0usize, 2].iter().enumerate() {
            for k in 0..2 {
                assert_eq!(s.a.counts(i)[k] + s.b.counts(i)[k], t.counts(*orig)[k]);
            }
        }
    }
}
