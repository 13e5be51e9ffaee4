//! The two baselines drawn beside every arm: what a model must beat before it can be said to have
//! learned anything about items.
//!
//! - `constant`: every test item gets the training items' mean p_N — the best prediction that
//!   ignores the item (its KL is the floor of "knows the label prior only");
//! - `knn`: the mean p_N of the k training items nearest in head-feature space, shrunk towards the
//!   constant by one pseudo-item, `(Σ p_N + constant) / (k + 1)`, so that no class gets probability
//!   0 from a unanimous neighbourhood; k ∈ {1, 2, 3, 5, 10, 20, 50, 100} is chosen by the lowest
//!   cross-entropy to the validation items' p_N (the same N votes, never the full distribution).
//!   k = 1 lets it memorise: when an item's nearest training item shares its distribution (a
//!   near-duplicate), its prediction is that item's p_N, half-shrunk — and then its errors are the
//!   neighbour's own small-N noise, item by item, not a pooled average's.
//!
//! *Distance.* Cosine after standardising each feature block (centred on the training items, and
//! scaled so that every block has mean squared norm 1): each block weighs the same, whatever its
//! width or scale. On the raw concatenation of 256 pair-embedding components and 12 unit-variance
//! alignment statistics, the 12 carried most of the squared norm and the neighbours were found by
//! them alone.
//!
//! Both use the run's N votes (the vote order of its model seed), like every trained arm.

use crate::arms::{Arm, RunTargets};
use crate::dataset::{static_targets, Dataset};
use crate::matmul::par_map;

/// The candidate neighbourhood sizes.
pub const KS: [usize; 8] = [1, 2, 3, 5, 10, 20, 50, 100];

/// A baseline's test and validation predictions (row-major, items × K) and its chosen k (knn).
pub struct Baseline {
    pub probs: Vec<f64>,
    pub val_probs: Vec<f64>,
    pub neighbours: Option<u32>,
}

/// The validation and test items' nearest training items (positions in the training list, nearest
/// first, at most the largest k): computed once per group, used at every N.
pub struct Neighbours {
    val: Vec<Vec<usize>>,
    test: Vec<Vec<usize>>,
}

impl Neighbours {
    pub fn new(prep: &Dataset, parts: &[Vec<usize>; 3]) -> Self {
        let w = prep.head.width;
        let row = |i: usize| &prep.head.values[i * w..(i + 1) * w];
        // Per column: the training items' mean; per block: the scale that gives it mean squared
        // norm 1 (its columns' variances summed), floored so a constant block stays finite.
        let n_tr = parts[0].len().max(1) as f64;
        let mut mean = vec![0.0f64; w];
        for &i in &parts[0] {
            for (m, &x) in mean.iter_mut().zip(row(i)) {
                *m += x as f64 / n_tr;
            }
        }
        let mut var = vec![0.0f64; w];
        for &i in &parts[0] {
            for ((v, &x), m) in var.iter_mut().zip(row(i)).zip(&mean) {
                *v += (x as f64 - m).powi(2) / n_tr;
            }
        }
        let mut scale = vec![0.0f64; w];
        let mut start = 0;
        for &b in &prep.head.blocks {
            let total: f64 = var[start..start + b].iter().sum();
            let s = 1.0 / total.sqrt().max(1e-12);
            scale[start..start + b].iter_mut().for_each(|x| *x = s);
            start += b;
        }
        let unit = |i: usize| -> Vec<f64> {
            let v: Vec<f64> = row(i)
                .iter()
                .zip(&mean)
                .zip(&scale)
                .map(|((&x, m), s)| (x as f64 - m) * s)
                .collect();
            let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-12);
            v.into_iter().map(|x| x / norm).collect()
        };
        let train: Vec<Vec<f64>> = parts[0].iter().map(|&i| unit(i)).collect();
        let keep = KS[KS.len() - 1].min(train.len());
        // Training items by decreasing cosine similarity (ties by position: deterministic).
        let ranked = |item: &usize| -> Vec<usize> {
            let q = unit(*item);
            let sim: Vec<f64> = train
                .iter()
                .map(|t| t.iter().zip(&q).map(|(a, b)| a * b).sum())
                .collect();
            let mut idx: Vec<usize> = (0..train.len()).collect();
            idx.sort_by(|&a, &b| sim[b].total_cmp(&sim[a]).then(a.cmp(&b)));
            idx.truncate(keep);
            idx
        };
        Neighbours {
            val: par_map(&parts[1], ranked),
            test: par_map(&parts[2], ranked),
        }
    }
}

#[allow(clippy::too_many_arguments)] // one run's data, split, votes, seeds and neighbours
pub fn predict(
    arm: Arm,
    n: u32,
    prep: &Dataset,
    parts: &[Vec<usize>; 3],
    orders: &[Vec<u16>],
    split_seed: u64,
    model_seed: u64,
    near: Option<&Neighbours>,
) -> Baseline {
    let k = prep.classes.len();
    let run = RunTargets {
        arm: Arm::Soft,
        n,
        split_seed,
        model_seed,
    };
    let pn: Vec<f64> = static_targets(&[run], &parts[0], orders, k)
        .iter()
        .map(|&x| x as f64)
        .collect();
    let n_tr = parts[0].len();
    let mut constant = vec![0.0; k];
    for row in pn.chunks_exact(k) {
        for (c, &p) in constant.iter_mut().zip(row) {
            *c += p / n_tr as f64;
        }
    }
    let (n_val, n_test) = (parts[1].len(), parts[2].len());
    if arm == Arm::Constant {
        return Baseline {
            probs: (0..n_test).flat_map(|_| constant.iter().copied()).collect(),
            val_probs: (0..n_val).flat_map(|_| constant.iter().copied()).collect(),
            neighbours: None,
        };
    }
    assert_eq!(arm, Arm::Knn, "only constant and knn are baselines");
    let near = near.expect("knn needs the neighbours");
    let predict_k = |nearest: &[usize], kk: usize| -> Vec<f64> {
        let mut out = constant.clone();
        for &j in &nearest[..kk] {
            for (o, &p) in out.iter_mut().zip(&pn[j * k..(j + 1) * k]) {
                *o += p;
            }
        }
        out.iter().map(|x| x / (kk + 1) as f64).collect()
    };
    let ks: Vec<usize> = KS.iter().copied().filter(|&kk| kk <= n_tr).collect();
    let ks = if ks.is_empty() { vec![n_tr] } else { ks };
    let val_pn = static_targets(&[run], &parts[1], orders, k);
    let ce = |kk: usize| -> f64 {
        near.val
            .iter()
            .zip(val_pn.chunks_exact(k))
            .map(|(r, y)| {
                let q = predict_k(r, kk);
                -y.iter()
                    .zip(&q)
                    .map(|(&t, &p)| t as f64 * libm::log(p.max(1e-15)))
                    .sum::<f64>()
            })
            .sum()
    };
    let best = ks
        .iter()
        .copied()
        .map(|kk| (kk, ce(kk)))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(kk, _)| kk)
        .expect("at least one k");
    Baseline {
        probs: near.test.iter().flat_map(|r| predict_k(r, best)).collect(),
        val_probs: near.val.iter().flat_map(|r| predict_k(r, best)).collect(),
        neighbours: Some(best as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arms::vote_order;
    use crate::features::HeadFeatures;
    use crate::split::item_split;
    use annosat_core::VoteTable;

    #[test]
    fn knn_finds_the_cluster_and_the_constant_is_the_training_mean() {
        // Two clusters of items: [1, 0] items vote 9:1, [0, 1] items 1:9.
        let n = 200;
        let ids: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
        let counts: Vec<u32> = (0..n)
            .flat_map(|i| if i % 2 == 0 { [9, 1] } else { [1, 9] })
            .collect();
        let feats: Vec<f32> = (0..n)
            .flat_map(|i| if i % 2 == 0 { [1.0, 0.0] } else { [0.0, 1.0] })
            .collect();
        let table = VoteTable::new(vec!["a".into(), "b".into()], ids.clone(), counts);
        let head = HeadFeatures::new(ids, 2, &feats, "test".into(), "two clusters".into());
        let prep = Dataset::new("toy".into(), &table, head, false).unwrap();
        let parts = item_split(n, 1);
        let orders: Vec<Vec<u16>> = (0..n)
            .map(|i| vote_order(table.counts(i), 1, i, 0))
            .collect();
        let near = Neighbours::new(&prep, &parts);
        let c = predict(Arm::Constant, 10, &prep, &parts, &orders, 1, 0, None);
        let knn = predict(Arm::Knn, 10, &prep, &parts, &orders, 1, 0, Some(&near));
        let k = knn.neighbours.unwrap() as f64;
        assert!(k <= 50.0, "k = {k}: a cluster has about 80 training items");
        for (row, &item) in knn.probs.chunks(2).zip(&parts[2]) {
            let share = if item % 2 == 0 { 0.9 } else { 0.1 };
            // The k nearest are the item's cluster; one pseudo-item of the constant pulls a little.
            let want = (k * share + c.probs[0]) / (k + 1.0);
            assert!((row[0] - want).abs() < 1e-6, "{item} {row:?} vs {want}");
        }
        let evens = parts[0].iter().filter(|&&i| i % 2 == 0).count() as f64;
        let mean_a = (evens * 0.9 + (parts[0].len() as f64 - evens) * 0.1) / parts[0].len() as f64;
        assert!((c.probs[0] - mean_a).abs() < 1e-6 && c.neighbours.is_none());
        assert!(c.probs.chunks(2).all(|r| r == &c.probs[..2]));
    }

    /// Pairs of items sharing a vote distribution, features a code per pair (4 columns) joined to
    /// a second block (3 columns, another code per pair, at `scale`).
    fn twins(scale: f32, blocks: bool) -> (VoteTable, Dataset) {
        let n = 400;
        let ids: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
        let counts: Vec<u32> = (0..n)
            .flat_map(|i| {
                let a = ((i / 2) * 7 % 21) as u32;
                [a, 20 - a]
            })
            .collect();
        let code = |pair: usize, c: usize| ((pair * 31 + c * 17) as f32 * 0.7).sin();
        let feats: Vec<f32> = (0..n)
            .flat_map(|i| (0..7).map(move |c| code(i / 2, c) * if c < 4 { 1.0 } else { scale }))
            .collect();
        let table = VoteTable::new(vec!["a".into(), "b".into()], ids.clone(), counts);
        let mut head = HeadFeatures::new(ids, 7, &feats, "test".into(), "twins".into());
        if blocks {
            head = head.with_blocks(vec![4, 3]);
        }
        let prep = Dataset::new("twins".into(), &table, head, false).unwrap();
        (table, prep)
    }

    #[test]
    fn a_blocks_scale_does_not_move_the_neighbours_but_it_does_without_blocks() {
        let parts = item_split(400, 3);
        // 1024 is a power of two: the f16 rounding of the scaled block is the same.
        let near = |scale, blocks| Neighbours::new(&twins(scale, blocks).1, &parts).test;
        assert_eq!(near(1.0, true), near(1024.0, true));
        assert_ne!(near(1.0, false), near(1024.0, false));
    }

    #[test]
    fn knn_memorises_a_twin_with_one_neighbour() {
        let (table, prep) = twins(1.0, true);
        let parts = item_split(400, 5);
        let orders: Vec<Vec<u16>> = (0..400)
            .map(|i| vote_order(table.counts(i), 5, i, 0))
            .collect();
        let near = Neighbours::new(&prep, &parts);
        let c = predict(Arm::Constant, 20, &prep, &parts, &orders, 5, 0, None);
        let knn = predict(Arm::Knn, 20, &prep, &parts, &orders, 5, 0, Some(&near));
        // Validation items whose twin is not a training item pull k up a little (their nearest
        // is a stranger), but the neighbourhood stays a memoriser's.
        let k = knn.neighbours.unwrap() as usize;
        assert!(k <= 2, "all 20 votes: k = {k}, not a memoriser's");
        let (mut err_knn, mut err_const, mut checked) = (0.0, 0.0, 0);
        for ((row, &item), nearest) in knn.probs.chunks(2).zip(&parts[2]).zip(&near.test) {
            let twin = parts[0][nearest[0]];
            let share = |i: usize| table.counts(i)[0] as f64 / 20.0;
            let want = (nearest[..k]
                .iter()
                .map(|&j| share(parts[0][j]))
                .sum::<f64>()
                + c.probs[0])
                / (k + 1) as f64;
            assert!((row[0] - want).abs() < 1e-6, "{item}: {} vs {want}", row[0]);
            if twin / 2 == item / 2 {
                err_knn += (row[0] - share(item)).abs();
                err_const += (c.probs[0] - share(item)).abs();
                checked += 1;
            }
        }
        assert!(
            err_knn < 0.6 * err_const,
            "{err_knn} vs the constant's {err_const}"
        );
        assert!(checked > 10);
    }
}
