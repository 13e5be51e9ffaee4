//! Multilabel heads: a sigmoid output per label, trained on targets from N annotators' label sets.
//!
//! Every arm × N of one (fold, model seed) trains as one batched group through [`mlp::train`] with
//! [`mlp::Loss::Sigmoid`], so the heads share initialisation and minibatch order (paired runs) and
//! the batched layers, AdamW and early stopping are the single-label sweep's. The arms:
//!
//! - `soft`: the N annotators' per-label vote shares, by SoftBCE (Bernoulli cross-entropy on shares);
//! - `hard`: the shares thresholded at ½ (a label is on when at least half of the N ticked it), BCE;
//! - `smoothed`: the hard labels smoothed, `(1 − ε)·y + ε/2` with ε = [`SMOOTHING`];
//! - `multipass`: one annotator's whole label set per epoch, each of the N in turn (a seeded order
//!   per item and cycle), BCE — the per-label analogue of multipass.
//!
//! The N annotators of an item are the first N of a seeded order of its annotators (nested: the N
//! of a smaller budget are among those of a larger one), keyed by the model seed only, so the arms
//! and budgets of one model seed see the same votes. Validation targets are each arm's own targets
//! from the same N votes (nothing past N is ever seen in training or model selection).

use crate::mlp::{self, EpochReport, HeadConfig, Inputs, TrainTargets};
use crate::split::fold_split;
use annosat_core::multilabel::MultilabelTable;
use annosat_core::sample;
use anyhow::Result;
use candle_core::Device;

const PURPOSE_ML_VOTES: u64 = 0x7_30;
const PURPOSE_ML_PASS: u64 = 0x7_31;

/// The label smoothing of the `smoothed` arm.
pub const SMOOTHING: f32 = 0.1;

/// How an item's N label sets become a training target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MlArm {
    Soft,
    Hard,
    Smoothed,
    Multipass,
}

impl MlArm {
    pub const ALL: [MlArm; 4] = [MlArm::Soft, MlArm::Hard, MlArm::Smoothed, MlArm::Multipass];

    pub fn name(self) -> &'static str {
        match self {
            MlArm::Soft => "soft",
            MlArm::Hard => "hard",
            MlArm::Smoothed => "smoothed",
            MlArm::Multipass => "multipass",
        }
    }

    pub fn parse(s: &str) -> Option<MlArm> {
        MlArm::ALL.into_iter().find(|a| a.name() == s)
    }

    /// What the arm trains on, in words (the export's and `--help`'s).
    pub fn description(self) -> &'static str {
        match self {
            MlArm::Soft => "per-label shares of the N annotators, by SoftBCE",
            MlArm::Hard => "labels ticked by at least half of the N annotators, by BCE",
            MlArm::Smoothed => "the hard labels smoothed by 0.1 towards ½, by BCE",
            MlArm::Multipass => "one of the N annotators' label sets per epoch, in turn, by BCE",
        }
    }
}

/// The ratings (label bitsets) of the item's first `n` annotators in the model seed's order.
pub fn chosen(table: &MultilabelTable, item: usize, n: u32, model_seed: u64) -> Vec<u64> {
    let ratings = table.ratings(item);
    let m = ratings.len();
    let k = (n as usize).min(m);
    let mut order: Vec<u32> = (0..m as u32).collect();
    let mut rng = sample::stream(model_seed, PURPOSE_ML_VOTES, item as u64, 0);
    sample::partial_shuffle(&mut order, m, &mut rng);
    order[..k].iter().map(|&j| ratings[j as usize]).collect()
}

/// Per-label shares of some label sets.
pub fn shares(sets: &[u64], labels: usize, out: &mut [f32]) {
    for (l, o) in out.iter_mut().enumerate().take(labels) {
        let c = sets.iter().filter(|&&s| s >> l & 1 == 1).count();
        *o = c as f32 / sets.len().max(1) as f32;
    }
}

/// An arm's static target from the N label sets (multipass: the shares, its validation target).
fn static_target(arm: MlArm, sets: &[u64], labels: usize, out: &mut [f32]) {
    shares(sets, labels, out);
    match arm {
        MlArm::Soft | MlArm::Multipass => {}
        MlArm::Hard => out.iter_mut().for_each(|v| *v = (*v >= 0.5) as u8 as f32),
        MlArm::Smoothed => out
            .iter_mut()
            .for_each(|v| *v = (*v >= 0.5) as u8 as f32 * (1.0 - SMOOTHING) + SMOOTHING / 2.0),
    }
}

/// The heads of one group: `heads[j] = (arm, N)`, arms outermost.
pub fn heads(arms: &[MlArm], ns: &[u32]) -> Vec<(MlArm, u32)> {
    arms.iter()
        .flat_map(|&a| ns.iter().map(move |&n| (a, n)))
        .collect()
}

struct Targets<'a> {
    heads: &'a [(MlArm, u32)],
    /// `sets[j][i]`: head j's N label sets of training item i.
    sets: Vec<Vec<Vec<u64>>>,
    fixed: Vec<f32>,
    labels: usize,
    model_seed: u64,
    train_items: &'a [usize],
}

impl TrainTargets for Targets<'_> {
    fn fill(&mut self, epoch: usize, out: &mut [f32]) {
        out.copy_from_slice(&self.fixed);
        let (nl, n_tr) = (self.labels, self.train_items.len());
        for (j, &(arm, n)) in self.heads.iter().enumerate() {
            if arm != MlArm::Multipass {
                continue;
            }
            for (i, sets) in self.sets[j].iter().enumerate() {
                let k = sets.len();
                let (cycle, pos) = (epoch / k, epoch % k);
                let mut order: Vec<u32> = (0..k as u32).collect();
                let key = (n as u64) << 32 | cycle as u64;
                let mut rng = sample::stream(
                    self.model_seed,
                    PURPOSE_ML_PASS,
                    self.train_items[i] as u64,
                    key,
                );
                sample::partial_shuffle(&mut order, k, &mut rng);
                let s = sets[order[pos] as usize];
                let row = &mut out[(j * n_tr + i) * nl..][..nl];
                for (l, v) in row.iter_mut().enumerate() {
                    *v = (s >> l & 1) as f32;
                }
            }
        }
    }

    /// Multipass keeps a model only once every one of the N label sets has been delivered.
    fn first_eligible(&self, head: usize) -> usize {
        match self.heads[head] {
            (MlArm::Multipass, _) => self.sets[head]
                .iter()
                .map(Vec::len)
                .max()
                .unwrap_or(1)
                .saturating_sub(1),
            _ => 0,
        }
    }
}

/// One (fold, model seed) group's results.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MlFold {
    /// The fold's test items (table rows).
    pub test_items: Vec<usize>,
    /// Per head, `(n_test, labels)` probabilities at its best epoch.
    pub test_probs: Vec<Vec<f32>>,
    pub best_epochs: Vec<usize>,
    /// Per N: the constant baseline, each label's mean N-vote share over the training items.
    pub constant: Vec<Vec<f32>>,
}

/// Trains every head of `heads` on fold `fold` of `folds` for one model seed. `features` are the
/// table's items' rows (`width` wide, table order).
#[allow(clippy::too_many_arguments)] // the group's data, design, seeds and a progress callback
pub fn train_fold(
    table: &MultilabelTable,
    features: &[f32],
    width: usize,
    heads: &[(MlArm, u32)],
    fold: u64,
    folds: u64,
    model_seed: u64,
    cfg: &HeadConfig,
    on_epoch: impl FnMut(EpochReport),
) -> Result<MlFold> {
    let nl = table.n_labels();
    let split = fold_split(table.n_items(), fold, folds);
    let inputs = Inputs::new(features, width, &split, nl, &Device::Cpu)?.sigmoid();
    let [train, val, test] = &split;
    let m = heads.len();
    let sets_of = |items: &[usize], n: u32| -> Vec<Vec<u64>> {
        items
            .iter()
            .map(|&i| chosen(table, i, n, model_seed))
            .collect()
    };
    let mut fixed = vec![0f32; m * train.len() * nl];
    let mut val_t = vec![0f32; m * val.len() * nl];
    let mut sets = Vec::with_capacity(m);
    for (j, &(arm, n)) in heads.iter().enumerate() {
        let s = sets_of(train, n);
        for (i, set) in s.iter().enumerate() {
            static_target(arm, set, nl, &mut fixed[(j * train.len() + i) * nl..][..nl]);
        }
        for (i, set) in sets_of(val, n).iter().enumerate() {
            static_target(arm, set, nl, &mut val_t[(j * val.len() + i) * nl..][..nl]);
        }
        sets.push(s);
    }
    let mut constant = Vec::new();
    let mut ns: Vec<u32> = heads.iter().map(|h| h.1).collect();
    ns.sort_unstable();
    ns.dedup();
    for &n in &ns {
        let mut mean = vec![0f64; nl];
        let mut row = vec![0f32; nl];
        for set in sets_of(train, n) {
            shares(&set, nl, &mut row);
            mean.iter_mut().zip(&row).for_each(|(a, &v)| *a += v as f64);
        }
        constant.push(
            mean.iter()
                .map(|&v| (v / train.len().max(1) as f64) as f32)
                .collect(),
        );
    }
    let mut targets = Targets {
        heads,
        sets,
        fixed,
        labels: nl,
        model_seed,
        train_items: train,
    };
    let outs = mlp::train(
        cfg,
        &inputs,
        m,
        &mut targets,
        &val_t,
        fold,
        model_seed,
        on_epoch,
    )?;
    let sigmoid = |z: &f32| 1.0 / (1.0 + (-*z).exp());
    Ok(MlFold {
        test_items: test.clone(),
        test_probs: outs
            .iter()
            .map(|o| o.test_logits.iter().map(sigmoid).collect())
            .collect(),
        best_epochs: outs.iter().map(|o| o.best_epoch).collect(),
        constant,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use annosat_core::import::multilabel::parse_multilabel;

    /// Two labels: label 0 is ticked by every annotator when x > 0, label 1 by a third of them.
    fn toy() -> (MultilabelTable, Vec<f32>) {
        let mut csv = String::from("item_id,annotator_id,a,b\n");
        let mut feats = Vec::new();
        for i in 0..120 {
            let x = (i as f32 - 59.5) / 30.0;
            feats.extend([x, 1.0]);
            for w in 0..6 {
                let a = (x > 0.0) as u8;
                let b = (w % 3 == 0) as u8;
                csv.push_str(&format!("i{i:03},w{w},{a},{b}\n"));
            }
        }
        (parse_multilabel(csv.as_bytes()).unwrap().0, feats)
    }

    #[test]
    fn sigmoid_heads_learn_shares_or_majorities_by_arm() {
        let (table, feats) = toy();
        let cfg = HeadConfig {
            hidden: 8,
            lr: 0.05,
            weight_decay: 0.0,
            batch: 16,
            epochs: 80,
            patience: 80,
        };
        let hs = heads(&[MlArm::Soft, MlArm::Hard, MlArm::Multipass], &[6]);
        let run = || train_fold(&table, &feats, 2, &hs, 0, 4, 1, &cfg, |_| {}).unwrap();
        let f = run();
        let nt = f.test_items.len();
        let col = |h: usize, l: usize| -> f32 {
            (0..nt).map(|i| f.test_probs[h][i * 2 + l]).sum::<f32>() / nt as f32
        };
        // Label 1's share is 1/3 everywhere: soft and multipass learn ~1/3, hard learns ~0.
        assert!((col(0, 1) - 1.0 / 3.0).abs() < 0.06, "soft {}", col(0, 1));
        assert!(col(1, 1) < 0.1, "hard {}", col(1, 1));
        assert!(
            (col(2, 1) - 1.0 / 3.0).abs() < 0.1,
            "multipass {}",
            col(2, 1)
        );
        // Label 0 follows x for every arm.
        for h in 0..3 {
            for (i, &item) in f.test_items.iter().enumerate() {
                let x = feats[item * 2];
                if x.abs() > 0.3 {
                    assert_eq!(
                        f.test_probs[h][i * 2] > 0.5,
                        x > 0.0,
                        "head {h} item {item}"
                    );
                }
            }
        }
        assert!((f.constant[0][1] - 1.0 / 3.0).abs() < 1e-6);
        assert!(
            f.best_epochs[2] >= 5,
            "multipass waits for all 6 label sets"
        );
        assert_eq!(run().test_probs, f.test_probs);
    }
}
