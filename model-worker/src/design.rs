//! How the tab trains on a whole dataset (own data, the page's synthetic data): 10-fold
//! cross-validation up to [`KFOLD_MAX_ITEMS`] items, so every item is tested once and the verdicts
//! cover all items (one seeded 80/10/10 split above that, which the summary says), each fold a
//! group of every arm × N trained by the pool's workers (`pool/`: whole groups per worker); the
//! result is an export's manifest with verdicts, built by the sweep's own code
//! (`annosat_heads::manifest`).

use crate::pool::Pool;
use annosat_core::bundle::{self, Bundle};
use annosat_core::models::Manifest;
use annosat_heads::mlp::HeadConfig;
use annosat_heads::{Dataset, GroupResult};
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

/// Where the groups stand, for a job's progress bar: each group's last epoch, and which are
/// finished (early or not).
pub struct GroupsProgress {
    groups: usize,
    workers: usize,
    max_epochs: usize,
    /// Per group: (epoch, train loss) last reported.
    last: Vec<Option<(usize, f32)>>,
    finished: Vec<bool>,
}

impl GroupsProgress {
    pub fn new(groups: usize, workers: usize, max_epochs: usize) -> Self {
        GroupsProgress {
            groups,
            workers: workers.clamp(1, groups.max(1)),
            max_epochs,
            last: vec![None; groups],
            finished: vec![false; groups],
        }
    }

    /// Group `g` finished epoch `epoch`.
    pub fn epoch(&mut self, g: usize, epoch: usize, train_loss: f32) {
        self.last[g] = Some((epoch, train_loss));
    }

    /// Group `g` is trained.
    pub fn finish(&mut self, g: usize) {
        self.finished[g] = true;
    }

    /// The share of the job done and the words, `what` naming the data; the fold is named where
    /// there are several groups, or always with `always_fold`. With one worker: "fold 3 of 10:
    /// training heads: epoch 12 of at most 60 · mean train loss 0.8123"; with several, the folds
    /// in training and their epochs.
    pub fn words(&self, what: &str, always_fold: bool) -> (f64, String) {
        let share: f64 = (0..self.groups)
            .map(|g| match (self.finished[g], self.last[g]) {
                (true, _) => 1.0,
                (false, Some((e, _))) => (e + 1) as f64 / self.max_epochs as f64,
                (false, None) => 0.0,
            })
            .sum::<f64>()
            / self.groups.max(1) as f64;
        let active: Vec<(usize, usize, f32)> = (0..self.groups)
            .filter(|&g| !self.finished[g])
            .filter_map(|g| self.last[g].map(|(e, l)| (g, e, l)))
            .collect();
        let and = |v: Vec<String>| match v.len() {
            0 | 1 => v.concat(),
            n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
        };
        let folds = and(active.iter().map(|a| (a.0 + 1).to_string()).collect());
        let epochs = and(active.iter().map(|a| (a.1 + 1).to_string()).collect());
        let loss = active.iter().map(|a| a.2).sum::<f32>() / active.len().max(1) as f32;
        let many = active.len() > 1;
        let part = if self.groups > 1 || always_fold {
            format!(
                "fold{} {folds} of {}: ",
                if many { "s" } else { "" },
                self.groups
            )
        } else {
            String::new()
        };
        let pool = if self.workers > 1 {
            format!(" in {} workers", self.workers)
        } else {
            String::new()
        };
        let words = format!(
            "{part}training heads{what}{pool}: epoch{} {epochs} of at most {} · mean train loss {loss:.4}",
            if many { "s" } else { "" },
            self.max_epochs,
        );
        (share, words)
    }
}

/// Trains the arms `names` over `ns` on `data` (k-fold when small enough, else `split_seed`'s
/// split) in the pool, and builds the manifest. `on_progress` gets the groups' progress after
/// every epoch any worker reports.
#[allow(clippy::too_many_arguments)]
pub async fn train(
    pool: &mut Pool,
    data: &mut Dataset,
    ns: &[u32],
    head: &HeadConfig,
    names: &[String],
    split_seed: u64,
    model_seed: u64,
    mut on_progress: impl FnMut(&GroupsProgress) + 'static,
) -> Result<Trained> {
    let kfold = data.item_ids.len() <= KFOLD_MAX_ITEMS;
    data.folds = kfold.then_some(FOLDS);
    let splits: Vec<u64> = if kfold {
        (0..FOLDS).collect()
    } else {
        vec![split_seed]
    };
    let arms = crate::reply::arms_for(names)?;
    let heads = arms.iter().filter(|a| a.trained()).count() * ns.len();
    // Design datasets train on all votes, so the pool is the table itself.
    let bundle = bundle::encode(&Bundle {
        name: data.name.clone(),
        table: data.pool.clone(),
    });
    let features = data.head.to_bytes()?;
    let mut state = GroupsProgress::new(splits.len(), pool.size(), head.epochs);
    let trained = pool
        .train(
            &data.name,
            (&bundle, &features),
            data.folds,
            &splits,
            ns,
            head,
            names,
            model_seed,
            move |g, epoch| {
                match epoch {
                    Some((e, loss)) => state.epoch(g, e, loss),
                    None => state.finish(g),
                }
                on_progress(&state);
            },
        )
        .await?;
    let epochs_run = trained.last().map_or(0, |t| t.0);
    let groups: Vec<GroupResult> = trained.into_iter().map(|t| t.1).collect();
    let (manifest, _) =
        annosat_heads::manifest::build(data, &groups, "all votes", None, String::new())?;
    Ok(Trained {
        manifest,
        epochs_run,
        heads,
    })
}

#[cfg(test)]
mod tests {
    use super::GroupsProgress;

    #[test]
    fn one_worker_names_its_fold_and_several_name_theirs() {
        let mut p = GroupsProgress::new(10, 1, 60);
        p.epoch(0, 59, 0.5);
        p.finish(0);
        p.epoch(1, 11, 0.25);
        let (f, w) = p.words("", false);
        assert_eq!(
            w,
            "fold 2 of 10: training heads: epoch 12 of at most 60 · mean train loss 0.2500"
        );
        assert!((f - (1.0 + 12.0 / 60.0) / 10.0).abs() < 1e-12);
        let mut p = GroupsProgress::new(10, 2, 60);
        p.epoch(4, 9, 0.5);
        p.epoch(5, 11, 0.25);
        let (_, w) = p.words(" on synthetic data", true);
        assert_eq!(
            w,
            "folds 5 and 6 of 10: training heads on synthetic data in 2 workers: epochs 10 and 12 of at most 60 · mean train loss 0.3750"
        );
        let mut p = GroupsProgress::new(1, 2, 60);
        p.epoch(0, 2, 1.0);
        assert_eq!(
            p.words("", false).1,
            "training heads: epoch 3 of at most 60 · mean train loss 1.0000"
        );
    }
}
