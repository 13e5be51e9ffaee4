//! The curves' draws: an item's votes one at a time without replacement, from its counts, with
//! random numbers cheap enough for millions of draws (see [`CurveDraws`]). The curve engine
//! (`curves/engine.rs`) writes the same rule out inline; a test there holds it to [`curve_draw`].

use super::{stream_hash, PURPOSE_CURVES};
use rand::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The curves' random numbers: bounded draws from 16-bit quarters of a xoshiro256++ `u64`.
///
/// The curves draw every vote of every item for every repeat (millions of draws for one dataset),
/// so the generator's cost is a large part of theirs: xoshiro256++ (`rand_xoshiro`, a fixed
/// algorithm, passes BigCrush; seeded by SplitMix64 of the same (seed, purpose, item, repeat) hash as
/// every other stream) gives 64 bits in a few instructions, and a draw needs 16 of them: a uniform
/// in `0..R`, R the item's votes not drawn yet, almost always well under 2^16 (Lemire's
/// multiply-shift on 16 bits, exact by rejection: a retry has chance `(2^16 mod R) / 2^16`). Bounds
/// past 2^16 use a whole `u64` (Lemire on 32 bits, the same rule as [`super::below`]).
pub struct CurveDraws {
    rng: Xoshiro256PlusPlus,
    buf: u64,
    quarters: u32,
}

impl CurveDraws {
    /// The draws for item `item`, repeat `repeat` of the curves with seed `seed`.
    pub fn new(seed: u64, item: usize, repeat: u32) -> Self {
        CurveDraws {
            rng: Xoshiro256PlusPlus::seed_from_u64(stream_hash(
                seed,
                PURPOSE_CURVES,
                item as u64,
                repeat as u64,
            )),
            buf: 0,
            quarters: 0,
        }
    }

    #[inline(always)]
    fn bits16(&mut self) -> u32 {
        if self.quarters == 0 {
            self.buf = self.rng.next_u64();
            self.quarters = 4;
        }
        let b = self.buf as u32 & 0xffff;
        self.buf >>= 16;
        self.quarters -= 1;
        b
    }

    /// Uniform in `0..bound` (bound ≥ 1).
    #[inline(always)]
    pub fn below(&mut self, bound: u32) -> u32 {
        debug_assert!(bound > 0);
        if bound > 1 << 16 {
            return self.below_wide(bound);
        }
        let mut m = self.bits16() * bound;
        if m & 0xffff < bound {
            let threshold = (1u32 << 16).wrapping_sub(bound) % bound;
            while m & 0xffff < threshold {
                m = self.bits16() * bound;
            }
        }
        m >> 16
    }

    #[cold]
    fn below_wide(&mut self, bound: u32) -> u32 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let m = (self.rng.next_u64() as u32) as u64 * bound as u64;
            if (m as u32) >= threshold {
                return (m >> 32) as u32;
            }
        }
    }
}

/// The class of the next vote drawn without replacement, given the votes of each class not yet
/// drawn (`left`, at least one) and a uniform `u` in `0..Σ left`: the first class whose running sum
/// of `left` exceeds `u`. This is the rule [`crate::curves`] draws by (written out again, branch-free,
/// in its engine; a test holds the two equal).
#[inline(always)]
pub fn class_at(left: &[u32], u: u32) -> usize {
    let mut cum = 0u32;
    let mut v = 0;
    for &x in &left[..left.len() - 1] {
        cum += x;
        v += (u >= cum) as usize;
    }
    v
}

/// Counts of the first `n` votes the curves draw for one item and repeat (every N is a prefix of
/// one sequence of draws, so these are nested in `n`). `None` if the item has fewer than `n` votes.
pub fn curve_draw(counts: &[u32], n: u32, mut draws: CurveDraws) -> Option<Vec<u32>> {
    let total: u64 = counts.iter().map(|&c| c as u64).sum();
    if n as u64 > total {
        return None;
    }
    let mut left = counts.to_vec();
    let mut c = vec![0u32; counts.len()];
    for i in 0..n {
        let v = class_at(&left, draws.below((total - i as u64) as u32));
        left[v] -= 1;
        c[v] += 1;
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED_CURVES: [u32; 6] = [65, 70, 19, 12, 53, 8];
    const PINNED_WIDE: u32 = 738_234;

    #[test]
    fn curve_draws_are_uniform_below_and_past_two_to_the_16() {
        for bound in [10u32, 100, 40_000, 65_536, 100_003, 3_000_000_000] {
            let mut d = CurveDraws::new(3, 0, bound);
            let mut hist = [0u32; 5];
            for _ in 0..50_000 {
                let u = d.below(bound);
                assert!(u < bound);
                hist[(u as u64 * 5 / bound as u64) as usize] += 1;
            }
            // Bins of (nearly) equal width: 10,000 each, sd ≈ 89.
            for h in hist {
                assert!((h as i64 - 10_000).abs() < 450, "bound {bound}: {hist:?}");
            }
        }
        assert_eq!(CurveDraws::new(0, 0, 0).below(1), 0);
    }

    /// The curves' draws must be the same on every target (wasm32 included; the browser tests
    /// compare the app's curves with the CLI's); a change of generator or rule shows up here.
    #[test]
    fn pinned_curve_draws() {
        let mut d = CurveDraws::new(42, 7, 3);
        let v: Vec<u32> = (0..6).map(|_| d.below(100)).collect();
        assert_eq!(v, PINNED_CURVES);
        let mut d = CurveDraws::new(42, 7, 3);
        assert_eq!(d.below(1 << 20), PINNED_WIDE);
    }

    #[test]
    fn class_at_picks_by_running_sums() {
        let left = [2, 0, 3];
        let classes: Vec<usize> = (0..5).map(|u| class_at(&left, u)).collect();
        assert_eq!(classes, [0, 0, 2, 2, 2]);
        assert_eq!(class_at(&[4], 3), 0);
    }

    #[test]
    fn curve_draws_are_nested_and_hypergeometric() {
        let c = [20u32, 50, 30];
        let reps = 20_000;
        let (mut sum, mut sq) = ([0f64; 3], [0f64; 3]);
        for r in 0..reps {
            let d10 = curve_draw(&c, 10, CurveDraws::new(1, 0, r)).unwrap();
            let d4 = curve_draw(&c, 4, CurveDraws::new(1, 0, r)).unwrap();
            assert!(
                d4.iter().zip(&d10).all(|(a, b)| a <= b),
                "prefixes are nested"
            );
            for k in 0..3 {
                sum[k] += d10[k] as f64;
                sq[k] += (d10[k] * d10[k]) as f64;
            }
        }
        for k in 0..3 {
            // Hypergeometric: mean n·p, variance n·p(1−p)·(M−n)/(M−1) (p = c_k/M, n = 10, M = 100).
            let p = c[k] as f64 / 100.0;
            let (mean, expect) = (sum[k] / reps as f64, 10.0 * p);
            assert!(
                (mean - expect).abs() < 0.05,
                "class {k}: {mean} vs {expect}"
            );
            let var = sq[k] / reps as f64 - mean * mean;
            let expect = 10.0 * p * (1.0 - p) * 90.0 / 99.0;
            // The sample variance's standard error is about 1% of it here.
            assert!(
                (var - expect).abs() < 0.05 * expect,
                "class {k}: {var} vs {expect}"
            );
        }
        assert_eq!(curve_draw(&c, 100, CurveDraws::new(1, 0, 0)).unwrap(), c);
        assert!(curve_draw(&c, 101, CurveDraws::new(1, 0, 0)).is_none());
    }
}
