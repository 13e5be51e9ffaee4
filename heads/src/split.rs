//! Seeds and the item split.
//!
//! Two seeds, two meanings, used the same way everywhere:
//! - the **split seed** partitions the items into train/validation/test ([`item_split`]) and also
//!   keys the per-item vote orders, so every model trained on one split sees the same N-vote subsets
//!   for a given model seed;
//! - the **model seed** selects one model among several on the same split: its initialisation,
//!   minibatch order and vote subsample.
//!
//! A run of one arm at one N draws from streams keyed by [`run_key`] (model seed and N together).

use annosat_core::sample;

const PURPOSE_ITEMS: u64 = 0x7_20;

/// Item-level split for a split seed: a seeded permutation cut 80/10/10 into train/val/test.
pub fn item_split(n: usize, split_seed: u64) -> [Vec<usize>; 3] {
    let mut idx: Vec<usize> = (0..n).collect();
    sample::partial_shuffle(
        &mut idx,
        n,
        &mut sample::stream(split_seed, PURPOSE_ITEMS, 0, 0),
    );
    let n_train = n * 8 / 10;
    let n_val = (n - n_train) / 2;
    let test = idx.split_off(n_train + n_val);
    let val = idx.split_off(n_train);
    [idx, val, test]
}

/// The stream key of one (model seed, N) run: the model seed in the high bits, N (< 2^16) below.
pub fn run_key(model_seed: u64, n: u32) -> u64 {
    debug_assert!(n < 1 << 16);
    (model_seed << 16) | n as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_splits_partition_the_items_and_depend_on_the_seed() {
        let [tr, va, te] = item_split(1514, 42);
        assert_eq!((tr.len(), va.len(), te.len()), (1211, 151, 152));
        let mut all: Vec<usize> = tr.iter().chain(&va).chain(&te).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..1514).collect::<Vec<_>>());
        assert_ne!(item_split(1514, 43)[2], te);
        assert_eq!(item_split(1514, 42)[2], te);
    }

    #[test]
    fn run_keys_separate_seeds_and_budgets() {
        assert_eq!(run_key(0, 10), 10);
        assert_eq!(run_key(3, 100), (3 << 16) | 100);
        assert_ne!(run_key(1, 0), run_key(0, 1));
    }
}
