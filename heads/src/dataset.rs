//! The data a group trains on ([`Dataset`]) and the static targets read from it: a leaf that the
//! group ([`crate::group`]), the baselines and the budget planner all use, so none of them imports
//! another for it.

use crate::arms::RunTargets;
use crate::features::HeadFeatures;
use annosat_core::{sample, VoteTable};
use anyhow::{bail, Result};

/// One dataset prepared for training: head features, pool of votes to subsample, reference
/// distributions.
pub struct Dataset {
    pub name: String,
    pub classes: Vec<String>,
    pub item_ids: Vec<String>,
    /// The exact inputs of the heads (f16-rounded), written beside the exports.
    pub head: HeadFeatures,
    /// Per item: the votes training targets are drawn from (all, or the 80% side).
    pub pool: VoteTable,
    /// Per item: the distribution evaluated against (all votes, or the held-out 20%), row-major.
    pub reference: Vec<f64>,
    /// k-fold cross-validation instead of seeded 80/10/10 splits (split seeds are fold indices).
    pub folds: Option<u64>,
}

pub use annosat_core::models::HELDOUT_FRACTION;

impl Dataset {
    /// Pairs a vote table with the head features of its items and builds the pool training draws
    /// from and the reference it is scored against: all votes for both, or with `heldout` the
    /// 80% / 20% split of [`sample::split_heldout`] (split seed 0, by annotator when ids are known).
    /// The native sweep and the app's model worker both build their data here, so they train on
    /// the same pools.
    pub fn new(name: String, table: &VoteTable, head: HeadFeatures, heldout: bool) -> Result<Self> {
        if table.item_ids() != head.item_ids.as_slice() {
            bail!(
                "{name}: the head features' items do not match the votes' ({} vs {} items)",
                head.item_ids.len(),
                table.num_items()
            );
        }
        let k = table.num_classes();
        let (pool, reference) = if heldout {
            let split = sample::split_heldout(table, HELDOUT_FRACTION, 0);
            if !split.excluded.is_empty() {
                bail!(
                    "held-out reference: {} items have fewer than 2 votes; drop them first",
                    split.excluded.len()
                );
            }
            let r: Vec<f64> = (0..split.b.num_items())
                .flat_map(|i| split.b.distribution(i))
                .collect();
            (split.a, r)
        } else {
            let r: Vec<f64> = (0..table.num_items())
                .flat_map(|i| table.distribution(i))
                .collect();
            (table.clone(), r)
        };
        debug_assert_eq!(reference.len(), table.num_items() * k);
        Ok(Dataset {
            name,
            classes: table.classes().to_vec(),
            item_ids: table.item_ids().to_vec(),
            head,
            pool,
            reference,
            folds: None,
        })
    }
}

/// Static targets of `runs` for the items `rows`: `(runs, rows, K)`.
pub(crate) fn static_targets(
    runs: &[RunTargets],
    rows: &[usize],
    orders: &[Vec<u16>],
    k: usize,
) -> Vec<f32> {
    let mut out = vec![0f32; runs.len() * rows.len() * k];
    for (h, run) in runs.iter().enumerate() {
        for (j, &item) in rows.iter().enumerate() {
            let at = (h * rows.len() + j) * k;
            run.static_row(item, &orders[item], k, &mut out[at..at + k]);
        }
    }
    out
}
