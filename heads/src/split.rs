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

/// Seed of the one shuffle every fold of a k-fold split cuts (so the folds partition the items).
pub const FOLD_SHUFFLE_SEED: u64 = 42;

/// Fold `fold` of a `folds`-fold cross-validation: that fold's items are the test items, every 8th
/// of the remaining items (in shuffled order) validates, the rest train — so over the folds every
/// item is tested exactly once and metrics can be computed over all items.
pub fn fold_split(n: usize, fold: u64, folds: u64) -> [Vec<usize>; 3] {
    assert!(fold < folds && folds >= 2, "fold {fold} of {folds}");
    let mut idx: Vec<usize> = (0..n).collect();
    sample::partial_shuffle(
        &mut idx,
        n,
        &mut sample::stream(FOLD_SHUFFLE_SEED, PURPOSE_ITEMS, 1, folds),
    );
    let (mut train, mut val, mut test) = (Vec::new(), Vec::new(), Vec::new());
    let mut rest = 0usize;
    for (pos, &i) in idx.iter().enumerate() {
        if (pos as u64) % folds == fold {
            test.push(i);
        } else {
            if rest % 8 == 7 {
                val.push(i);
            } else {
                train.push(i);
            }
            rest += 1;
        }
    }
    [train, val, test]
}

/// The split of a group: k-fold when `folds` is set (the split seed is then the fold index),
/// else the seeded 80/10/10 split.
pub fn group_split(n: usize, split_seed: u64, folds: Option<u64>) -> [Vec<usize>; 3] {
    match folds {
        Some(k) => fold_split(n, split_seed, k),
        None => item_split(n, split_seed),
    }
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
    fn folds_test_every_item_exactly_once() {
        let mut tested = vec![0; 3113];
        for f in 0..5 {
            let [tr, va, te] = fold_split(3113, f, 5);
            assert_eq!(tr.len() + va.len() + te.len(), 3113);
            assert!(va.len() * 7 <= tr.len() + 7 && va.len() * 7 + 7 >= tr.len());
            for i in te {
                tested[i] += 1;
            }
        }
        assert!(tested.iter().all(|&t| t == 1));
    }

    #[test]
    fn run_keys_separate_seeds_and_budgets() {
        assert_eq!(run_key(0, 10), 10);
        assert_eq!(run_key(3, 100), (3 << 16) | 100);
        assert_ne!(run_key(1, 0), run_key(0, 1));
    }
}
