//! One group: every trained arm at every N for one (split seed, model seed), trained together.

use crate::arms::{self, Arm, RunTargets};
use crate::baselines;
use crate::dataset::static_targets;
pub use crate::dataset::{Dataset, HELDOUT_FRACTION};
use crate::eval::{self, Metrics};
use crate::matmul::{par_each_mut, par_map};
use crate::mlp::{self, EpochReport, HeadConfig, Inputs, TrainTargets};
use crate::split::group_split;
use anyhow::Result;
use candle_core::Device;
use serde::{Deserialize, Serialize};

/// A finished group, as stored in the work directory.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GroupResult {
    /// The split seed (field names as in the work files and exports).
    pub split: u64,
    /// The model seed.
    pub seed: u64,
    /// Row indices (into the dataset) of the test items, in prediction order.
    pub test_items: Vec<usize>,
    pub runs: Vec<RunResult>,
}

/// One arm at one N: what the app plots and the exports carry.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunResult {
    pub arm: String,
    pub n: u32,
    pub best_epoch: usize,
    /// Distinct votes per item the run's targets used up to its best epoch (`Arm::votes_used`).
    pub votes_used: u32,
    /// The fitted temperature (temp_hard only).
    pub temperature: Option<f64>,
    /// The number of neighbours chosen on validation (knn only).
    pub neighbours: Option<u32>,
    pub metrics: Metrics,
    /// The same metrics on the validation items against their p_N (the run's own N votes): what
    /// choices between arms (e.g. the best label smoothing) are made on, never the test metrics.
    pub validation: Metrics,
    pub train_loss: Vec<f32>,
    pub val_loss: Vec<f32>,
    /// Test predictions, row-major (items × K), each probability as round(p · 65535).
    pub probs: Vec<u16>,
}

struct Targets<'a> {
    statics: Vec<f32>,
    /// (head index, run) of the arms whose target changes per epoch.
    dynamic: Vec<(usize, RunTargets)>,
    /// Every run, by head index.
    runs: &'a [RunTargets],
    /// The training items (dataset rows), their shuffled_sls partners, and every item's vote order.
    train: &'a [usize],
    partners: Vec<usize>,
    orders: &'a [Vec<u16>],
    k: usize,
}

impl TrainTargets for Targets<'_> {
    fn fill(&mut self, epoch: usize, out: &mut [f32]) {
        out.copy_from_slice(&self.statics);
        let (n_tr, k) = (self.train.len(), self.k);
        // The per-epoch heads' blocks, filled on all cores (each block is one head's alone).
        let mut blocks: Vec<(&mut [f32], RunTargets)> = Vec::with_capacity(self.dynamic.len());
        let mut dynamic = self.dynamic.iter().peekable();
        for (h, block) in out.chunks_mut((n_tr * k).max(1)).enumerate() {
            if let Some(&(_, run)) = dynamic.next_if(|(d, _)| *d == h) {
                blocks.push((block, run));
            }
        }
        let (train, partners, orders) = (self.train, &self.partners, self.orders);
        par_each_mut(&mut blocks, |(block, run)| {
            for (i, &item) in train.iter().enumerate() {
                let from = if run.arm == Arm::ShuffledSls {
                    partners[i]
                } else {
                    item
                };
                let row = &mut block[i * k..(i + 1) * k];
                run.epoch_row(from, &orders[from], epoch, row);
            }
        });
    }

    fn first_eligible(&self, head: usize) -> usize {
        let r = self.runs[head];
        r.arm.first_eligible_epoch(r.n)
    }
}

pub fn train_group(
    prep: &Dataset,
    ns: &[u32],
    hc: &HeadConfig,
    arm_list: &[Arm],
    split_seed: u64,
    model_seed: u64,
    on_epoch: impl FnMut(EpochReport),
) -> Result<GroupResult> {
    let k = prep.classes.len();
    let n_items = prep.item_ids.len();
    let parts = group_split(n_items, split_seed, prep.folds);
    // Every item's votes in one seeded order: the N-vote subsample is its first N (nested in N).
    let orders = arms::vote_orders(&prep.pool, split_seed, model_seed);
    let run = |arm: Arm, n: u32| RunTargets {
        arm,
        n,
        split_seed,
        model_seed,
    };
    // One head per trained arm × N, in this order.
    let runs: Vec<RunTargets> = arm_list
        .iter()
        .filter(|a| a.trained())
        .flat_map(|&a| ns.iter().map(move |&n| run(a, n)))
        .collect();
    let m = runs.len();
    let head_of = |arm: Arm, n: u32| runs.iter().position(|r| r.arm == arm && r.n == n);
    let statics = static_targets(&runs, &parts[0], &orders, k);
    let val_targets = static_targets(&runs, &parts[1], &orders, k);
    let dynamic = runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.arm.per_epoch())
        .map(|(h, &r)| (h, r))
        .collect();
    let mut targets = Targets {
        statics,
        dynamic,
        runs: &runs,
        train: &parts[0],
        partners: arms::partners(&parts[0], split_seed, model_seed),
        orders: &orders,
        k,
    };
    // Only baselines asked for (`--arms constant,knn`): no head to train.
    let outs = if m == 0 {
        Vec::new()
    } else {
        let inputs = Inputs::new(&prep.head.values, prep.head.width, &parts, k, &Device::Cpu)?;
        mlp::train(
            hc,
            &inputs,
            m,
            &mut targets,
            &val_targets,
            split_seed,
            model_seed,
            on_epoch,
        )?
    };

    let test = &parts[2];
    let human: Vec<f64> = test
        .iter()
        .flat_map(|&i| prep.reference[i * k..(i + 1) * k].iter().copied())
        .collect();
    let n_val = parts[1].len();
    // The validation items' p_N at budget n: what validation metrics are scored against.
    let val_pn = |n: u32| -> Vec<f64> {
        static_targets(&[run(Arm::Soft, n)], &parts[1], &orders, k)
            .iter()
            .map(|&x| x as f64)
            .collect()
    };
    let near = arm_list
        .contains(&Arm::Knn)
        .then(|| baselines::Neighbours::new(prep, &parts));
    // Each (arm, N)'s metrics on its own, on all cores; in the arms × N order.
    let jobs: Vec<(Arm, u32)> = arm_list
        .iter()
        .flat_map(|&a| ns.iter().map(move |&n| (a, n)))
        .collect();
    let results = par_map(&jobs, |&(arm, n)| {
        if arm.baseline() {
            let near = near.as_ref();
            let b = baselines::predict(arm, n, prep, &parts, &orders, split_seed, model_seed, near);
            return RunResult {
                arm: arm.name(),
                n,
                best_epoch: 0,
                votes_used: n,
                temperature: None,
                neighbours: b.neighbours,
                metrics: eval::metrics(&b.probs, &human, k),
                validation: eval::metrics(&b.val_probs, &val_pn(n), k),
                train_loss: Vec::new(),
                val_loss: Vec::new(),
                probs: quantise(&b.probs),
            };
        }
        let (h, temperature) = if arm == Arm::TempHard {
            let h = head_of(Arm::Hard, n).expect("hard is trained");
            // Fit T against the validation items' p_N: the same N votes, never the full distribution.
            let pn = static_targets(&[run(Arm::Soft, n)], &parts[1], &orders, k);
            debug_assert_eq!(pn.len(), n_val * k);
            (h, Some(eval::fit_temperature(&outs[h].val_logits, &pn, k)))
        } else {
            (head_of(arm, n).expect("trained"), None)
        };
        let o = &outs[h];
        let probs = eval::softmax(&o.test_logits, k, temperature.unwrap_or(1.0));
        RunResult {
            arm: arm.name(),
            n,
            best_epoch: o.best_epoch,
            votes_used: arm.votes_used(n, o.best_epoch),
            temperature,
            neighbours: None,
            metrics: eval::metrics(&probs, &human, k),
            validation: eval::metrics(
                &eval::softmax(&o.val_logits, k, temperature.unwrap_or(1.0)),
                &val_pn(n),
                k,
            ),
            train_loss: o.train_loss.clone(),
            val_loss: o.val_loss.clone(),
            probs: quantise(&probs),
        }
    });
    Ok(GroupResult {
        split: split_seed,
        seed: model_seed,
        test_items: test.clone(),
        runs: results,
    })
}

/// Probabilities as the exports store them: round(p · 65535).
fn quantise(probs: &[f64]) -> Vec<u16> {
    probs
        .iter()
        .map(|&p| (p * 65535.0).round() as u16)
        .collect()
}
