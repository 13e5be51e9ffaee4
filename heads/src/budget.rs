//! The budget planner's model side (`annosat plan`): with a fixed number of votes B, is a model
//! better trained on more items with fewer votes each, or fewer items with more? Each point
//! trains the sweep's head (same features, MLP, optimiser, early stopping on the validation
//! items' p_N) on I = ⌊B / N⌋ training items with soft targets from N votes each, and scores its
//! test-set predictions against all of the test items' votes, like every model-side number.
//!
//! Subsets are nested (the first I items of one seeded order of the training split), so a larger
//! I only adds items; an item's N votes are the first N of its seeded vote order (nested in N), as
//! in the sweep. Heads with the same I share one training call (stacked). Validation and test
//! items are the split's, whatever I is.

use crate::arms;
use crate::dataset::Dataset;
use crate::eval::{self, Metrics};
use crate::mlp::{self, HeadConfig, Inputs, TrainTargets};
use crate::split::group_split;
pub use annosat_core::models::budget::{grid, BudgetConfig, BudgetPoint, BudgetReport, TargetSide};
use annosat_core::sample;
use anyhow::{bail, Result};
use candle_core::Device;

const PURPOSE_SUBSET: u64 = 0x0B01;

/// Targets that do not change between epochs.
struct Static(Vec<f32>);

impl TrainTargets for Static {
    fn fill(&mut self, _epoch: usize, out: &mut [f32]) {
        out.copy_from_slice(&self.0);
    }
}

/// p_N of each row (the soft arm's target: the class shares of the item's first N votes, as the
/// sweep's), for each N: `(ns, rows, K)`.
fn soft(ns: &[u32], rows: &[usize], orders: &[Vec<u16>], k: usize, seeds: (u64, u64)) -> Vec<f32> {
    let runs: Vec<arms::RunTargets> = ns
        .iter()
        .map(|&n| arms::RunTargets {
            arm: arms::Arm::Soft,
            n,
            split_seed: seeds.0,
            model_seed: seeds.1,
        })
        .collect();
    crate::dataset::static_targets(&runs, rows, orders, k)
}

/// Trains every point of `points` for one (split seed, model seed); `progress(done, total)` after
/// each training call.
pub fn train_points(
    prep: &Dataset,
    hc: &HeadConfig,
    points: &[(u64, usize, u32)],
    split_seed: u64,
    model_seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<BudgetPoint>> {
    let k = prep.classes.len();
    let n_items = prep.item_ids.len();
    let parts = group_split(n_items, split_seed, prep.folds);
    let orders = arms::vote_orders(&prep.pool, split_seed, model_seed);
    // One seeded order of the training items: subsets are its prefixes.
    let mut train = parts[0].clone();
    let len = train.len();
    let mut rng = sample::stream(split_seed, PURPOSE_SUBSET, model_seed, 0);
    sample::partial_shuffle(&mut train, len, &mut rng);
    let human: Vec<f64> = parts[2]
        .iter()
        .flat_map(|&i| prep.reference[i * k..(i + 1) * k].iter().copied())
        .collect();
    let mut sizes: Vec<usize> = points.iter().map(|p| p.1).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut out = Vec::new();
    for (done, &items) in sizes.iter().enumerate() {
        let here: Vec<&(u64, usize, u32)> = points.iter().filter(|p| p.1 == items).collect();
        let ns: Vec<u32> = here.iter().map(|p| p.2).collect();
        let subset = train[..items].to_vec();
        let split = [subset.clone(), parts[1].clone(), parts[2].clone()];
        let inputs = Inputs::new(&prep.head.values, prep.head.width, &split, k, &Device::Cpu)?;
        let mut targets = Static(soft(&ns, &subset, &orders, k, (split_seed, model_seed)));
        let val = soft(&ns, &parts[1], &orders, k, (split_seed, model_seed));
        let outs = mlp::train(
            hc,
            &inputs,
            ns.len(),
            &mut targets,
            &val,
            split_seed,
            model_seed,
            |_| {},
        )?;
        for (p, o) in here.iter().zip(&outs) {
            let probs = eval::softmax(&o.test_logits, k, 1.0);
            out.push(BudgetPoint {
                budget: p.0,
                items: p.1,
                n: p.2,
                split_seed,
                model_seed,
                best_epoch: o.best_epoch,
                metrics: eval::metrics(&probs, &human, k),
            });
        }
        progress(done + 1, sizes.len());
    }
    Ok(out)
}

/// Trains every point for every seed; `progress(done, total)` over all training calls.
pub fn plan(
    prep: &Dataset,
    cfg: &BudgetConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BudgetReport> {
    if cfg.seeds == 0 {
        bail!("seeds must be at least 1");
    }
    // N up to the fewest votes an item has, as the sweep: every item then has its N votes.
    let max_votes = (0..prep.pool.num_items())
        .map(|i| prep.pool.total(i))
        .min()
        .unwrap_or(0);
    let train_items = group_split(prep.item_ids.len(), cfg.split_seed, prep.folds)[0].len();
    let mut config = cfg.clone();
    if config.budgets.is_empty() {
        config.budgets = [1, 3, 10].iter().map(|f| f * train_items as u64).collect();
    }
    config.budgets.sort_unstable();
    config.budgets.dedup();
    let points = grid(
        &config.budgets,
        &config.ns,
        train_items,
        max_votes,
        config.min_items,
    );
    if points.is_empty() {
        bail!(
            "no (items, N) fits: each budget / N must be between {} and the {train_items} training items, N at most {max_votes} votes",
            config.min_items
        );
    }
    let calls = {
        let mut s: Vec<usize> = points.iter().map(|p| p.1).collect();
        s.sort_unstable();
        s.dedup();
        s.len()
    };
    let total = calls * config.seeds as usize;
    let mut runs = Vec::new();
    for seed in 0..config.seeds {
        let before = seed as usize * calls;
        runs.extend(train_points(
            prep,
            &HeadConfig::default(),
            &points,
            config.split_seed,
            seed,
            &mut |d, _| progress(before + d, total),
        )?);
    }
    let constant = constant_baseline(prep, config.split_seed);
    let target = target_side(prep, &config.ns, config.split_seed);
    let mut report = BudgetReport {
        config,
        train_items,
        points,
        runs,
        constant,
        frontier: Vec::new(),
        target,
    };
    report.frontier = report.best_points();
    Ok(report)
}

/// The target side at every N asked for (`annosat curves`, 50 repeats): on the votes when every N
/// is within the most votes an item has; past it, extrapolated to the largest N
/// (`annosat extrapolate --reference-votes` that N, the prior the BIC chooses), so a user with a
/// few votes per item still sees what more annotators would give the labels.
fn target_side(prep: &Dataset, ns: &[u32], seed: u64) -> Vec<TargetSide> {
    use annosat_core::curves::{compute, CurveConfig, Curves, Metric};
    use annosat_core::extrapolate::{extrapolate, Components, ExtrapolateConfig, ReferenceVotes};
    let mut ns: Vec<u32> = ns.iter().copied().filter(|&n| n >= 1).collect();
    ns.sort_unstable();
    ns.dedup();
    let (Some(&top), most) = (ns.last(), prep.pool.max_total()) else {
        return Vec::new();
    };
    let cfg = CurveConfig {
        grid: ns,
        seed,
        ..Default::default()
    };
    let (curves, to): (Option<Curves>, Option<u32>) = if top <= most {
        (compute(&prep.pool, &cfg).ok(), None)
    } else {
        let x = ExtrapolateConfig {
            reference_votes: ReferenceVotes::Votes(top.max(2)),
            curves: cfg,
            draws: 10,
            components: Components::Auto { max: 4 },
        };
        let e = extrapolate(&prep.pool, &x, &mut |_, _| {}).ok();
        (e.map(|e| e.curves), Some(top))
    };
    let Some(c) = curves else {
        return Vec::new();
    };
    c.grid
        .iter()
        .enumerate()
        .map(|(g, &n)| TargetSide {
            n,
            kl: c.point_at(Metric::Kl, g).mean,
            entropy_corr: c.point_at(Metric::EntropyCorr, g).mean,
            extrapolated_to: to,
        })
        .collect()
}

/// The constant predictor: every test item gets the mean of all training items' full-vote
/// distributions (what a model that learned nothing from the features could do at best).
pub fn constant_baseline(prep: &Dataset, split_seed: u64) -> Metrics {
    let k = prep.classes.len();
    let parts = group_split(prep.item_ids.len(), split_seed, prep.folds);
    let mut mean = vec![0f64; k];
    for &i in &parts[0] {
        for (m, x) in mean.iter_mut().zip(prep.pool.distribution(i)) {
            *m += x / parts[0].len() as f64;
        }
    }
    let pred: Vec<f64> = parts[2].iter().flat_map(|_| mean.clone()).collect();
    let human: Vec<f64> = parts[2]
        .iter()
        .flat_map(|&i| prep.reference[i * k..(i + 1) * k].iter().copied())
        .collect();
    eval::metrics(&pred, &human, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_keeps_what_fits() {
        let g = grid(&[1000, 100, 1000], &[0, 1, 5, 10, 200, 5], 500, 100, 10);
        // Sorted and once each; N = 0 and N = 200 (above the votes) never; 1000/1 = 1000 items
        // > 500; 100/10 = 10 items is the least.
        assert_eq!(
            g,
            vec![
                (100, 100, 1),
                (100, 20, 5),
                (100, 10, 10),
                (1000, 200, 5),
                (1000, 100, 10),
            ]
        );
    }

    #[test]
    fn soft_targets_are_vote_shares_of_the_first_n() {
        let orders = vec![vec![0u16, 1, 1, 2], vec![2u16, 2, 0, 0]];
        let t = soft(&[2, 4], &[0, 1], &orders, 3, (42, 0));
        assert_eq!(
            t,
            vec![0.5, 0.5, 0.0, 0.0, 0.0, 1.0, 0.25, 0.5, 0.25, 0.5, 0.0, 0.5]
        );
    }
}
