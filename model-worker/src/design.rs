//! How the tab trains on a whole dataset (own data, the page's synthetic data): 10-fold
//! cross-validation up to [`KFOLD_MAX_ITEMS`] items, so every item is tested once and the verdicts
//! cover all items (one seeded 80/10/10 split above that, which the summary says), each fold a
//! group of every arm × N; the result is an export's manifest with verdicts, built by the sweep's
//! own code (`annosat_heads::manifest`).

use annosat_core::models::Manifest;
use annosat_heads::arms::Arm;
use annosat_heads::mlp::{EpochReport, HeadConfig};
use annosat_heads::{train_group, Dataset, GroupResult};
use anyhow::Result;

/// Largest dataset trained with k-fold in the tab; above it one split (the work grows tenfold).
pub const KFOLD_MAX_ITEMS: usize = 5_000;
/// Folds of the tab's cross-validation, as the committed exports.
pub const FOLDS: u64 = 10;

/// What a design trained.
pub struct Trained {
    pub manifest: Manifest,
    /// Epochs the last group ran, and heads per group.
    pub epochs_run: usize,
    pub heads: usize,
}

/// What one epoch of [`train`] says on a job's progress bar: the share of the job done (each group's
/// share ends at its last epoch, as a group may stop early) and the words, `what` naming the data
/// ("fold g of G: " in front where there are several groups, or always with `always_fold`).
pub fn epoch_progress(
    g: usize,
    groups: usize,
    e: &EpochReport,
    max_epochs: usize,
    what: &str,
    always_fold: bool,
) -> (f64, String) {
    let f = (g as f64 + (e.epoch + 1) as f64 / max_epochs as f64) / groups as f64;
    let part = if groups > 1 || always_fold {
        format!("fold {} of {groups}: ", g + 1)
    } else {
        String::new()
    };
    let words = format!(
        "{part}training heads{what}: epoch {} of at most {max_epochs} · mean train loss {:.4}",
        e.epoch + 1,
        e.train_loss
    );
    (f, words)
}

/// Trains `arms` over `ns` on `data` (k-fold when small enough, else `split_seed`'s split) and
/// builds the manifest of the runs the user asked for (`names`). `on_epoch(group, groups, report)`
/// reports every epoch of every group.
#[allow(clippy::too_many_arguments)]
pub fn train(
    data: &mut Dataset,
    ns: &[u32],
    head: &HeadConfig,
    arms: &[Arm],
    names: &[String],
    split_seed: u64,
    model_seed: u64,
    mut on_epoch: impl FnMut(usize, usize, &EpochReport),
) -> Result<Trained> {
    let kfold = data.item_ids.len() <= KFOLD_MAX_ITEMS;
    data.folds = kfold.then_some(FOLDS);
    let splits: Vec<u64> = if kfold {
        (0..FOLDS).collect()
    } else {
        vec![split_seed]
    };
    let heads = arms.iter().filter(|a| a.trained()).count() * ns.len();
    let mut groups: Vec<GroupResult> = Vec::new();
    let mut epochs_run = 0;
    for (g, &split) in splits.iter().enumerate() {
        let mut r = train_group(data, ns, head, arms, split, model_seed, |e| {
            epochs_run = e.epoch + 1;
            on_epoch(g, splits.len(), &e);
        })?;
        r.runs.retain(|run| names.contains(&run.arm));
        groups.push(r);
    }
    let (manifest, _) =
        annosat_heads::manifest::build(data, &groups, "all votes", None, String::new())?;
    Ok(Trained {
        manifest,
        epochs_run,
        heads,
    })
}
