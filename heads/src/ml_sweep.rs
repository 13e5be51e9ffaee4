//! One multilabel sweep: its design (arms × N, k folds × model seeds) and the assembly of its
//! trained (fold, model seed) groups into an [`MlExport`]. Shared by `annosat sweep` and the tab's
//! model worker (whose pool trains the groups in several workers), so both score and export the
//! same way; the groups are added in the design's order, so the sums are the same bits.

use crate::multilabel::{heads, MlArm, MlFold};
use crate::HeadFeatures;
use annosat_core::models::verdict::{DEFAULT_RESAMPLES, VERDICT_X};
use annosat_core::models::HeadConfig;
use annosat_core::multilabel::export::{MlArmInfo, MlExport, PER_LABEL_ARMS};
use annosat_core::multilabel::model_labels::{label_curves, label_floor};
use annosat_core::multilabel::models::{evaluate, MlBlock, MlRun};
use annosat_core::multilabel::MultilabelTable;

/// Folds when none are asked for: every item is tested once, by a model that never saw it.
pub const DEFAULT_FOLDS: u64 = 5;

/// The baseline every arm is compared with: each label's mean N-vote share over the training items.
pub use annosat_core::multilabel::export::CONSTANT_ARM as CONSTANT;

/// What one multilabel sweep trains.
#[derive(Debug, Clone, PartialEq)]
pub struct MlDesign {
    pub arms: Vec<MlArm>,
    pub ns: Vec<u32>,
    pub folds: u64,
    pub seeds: u64,
}

impl MlDesign {
    /// The budgets of `asked` that every item has votes for, and always the largest one every item
    /// has (the reference's own vote count).
    pub fn ns_for(table: &MultilabelTable, asked: &[u32]) -> Vec<u32> {
        let max_n = table.min_votes();
        let mut ns: Vec<u32> = asked
            .iter()
            .copied()
            .filter(|&n| n >= 1 && n <= max_n)
            .collect();
        if !ns.contains(&max_n) {
            ns.push(max_n);
        }
        ns
    }

    /// The heads of every group, arms outermost.
    pub fn heads(&self) -> Vec<(MlArm, u32)> {
        heads(&self.arms, &self.ns)
    }

    /// Every (fold, model seed) group, in the order their results are added.
    pub fn groups(&self) -> Vec<(u64, u64)> {
        (0..self.folds)
            .flat_map(|f| (0..self.seeds).map(move |s| (f, s)))
            .collect()
    }
}

/// The groups' results as they arrive, placed by item.
pub struct MlCollect {
    design: MlDesign,
    labels: usize,
    /// `preds[seed][head]`: items × labels in table order; `constant[seed][n]` likewise.
    preds: Vec<Vec<Vec<f32>>>,
    constant: Vec<Vec<Vec<f32>>>,
    strata: Vec<u32>,
    epochs: Vec<f64>,
}

impl MlCollect {
    pub fn new(design: &MlDesign, table: &MultilabelTable) -> Self {
        let (n_items, nl) = (table.n_items(), table.n_labels());
        let (seeds, hs) = (design.seeds as usize, design.heads().len());
        MlCollect {
            design: design.clone(),
            labels: nl,
            preds: vec![vec![vec![0f32; n_items * nl]; hs]; seeds],
            constant: vec![vec![vec![0f32; n_items * nl]; design.ns.len()]; seeds],
            strata: vec![0u32; n_items],
            epochs: vec![0f64; hs],
        }
    }

    /// Group (`fold`, `seed`)'s results; call in [`MlDesign::groups`]' order.
    pub fn add(&mut self, fold: u64, seed: u64, f: &MlFold) {
        let nl = self.labels;
        let s = seed as usize;
        for (t, &item) in f.test_items.iter().enumerate() {
            self.strata[item] = fold as u32;
            for (j, p) in f.test_probs.iter().enumerate() {
                self.preds[s][j][item * nl..][..nl].copy_from_slice(&p[t * nl..][..nl]);
            }
            for (g, c) in f.constant.iter().enumerate() {
                self.constant[s][g][item * nl..][..nl].copy_from_slice(c);
            }
        }
        let groups = (self.design.folds * self.design.seeds) as f64;
        for (e, &b) in self.epochs.iter_mut().zip(&f.best_epochs) {
            *e += b as f64 / groups;
        }
    }

    /// Every group scored against each item's full-vote label shares (item intervals, verdicts,
    /// soft against every other arm, every arm against the constant) as an export.
    pub fn export(
        self,
        table: &MultilabelTable,
        name: &str,
        features: &HeadFeatures,
        head: &HeadConfig,
    ) -> MlExport {
        let MlCollect {
            design,
            labels,
            preds,
            constant,
            strata,
            epochs,
        } = self;
        let hs = design.heads();
        let mut runs = Vec::new();
        for (seed, (p, c)) in preds.into_iter().zip(constant).enumerate() {
            for ((arm, n), pred) in hs.iter().zip(p) {
                runs.push(MlRun {
                    arm: arm.name().into(),
                    seed: seed as u64,
                    n: *n,
                    pred,
                });
            }
            for (&n, pred) in design.ns.iter().zip(c) {
                runs.push(MlRun {
                    arm: CONSTANT.into(),
                    seed: seed as u64,
                    n,
                    pred,
                });
            }
        }
        let human: Vec<f64> = (0..table.n_items()).flat_map(|i| table.shares(i)).collect();
        let block = MlBlock {
            labels,
            human,
            strata,
            runs,
        };
        let arms = &design.arms;
        let mut pairs: Vec<(String, String)> = arms
            .iter()
            .filter(|&&a| a != MlArm::Soft)
            .map(|a| ("soft".to_string(), a.name().to_string()))
            .filter(|_| arms.contains(&MlArm::Soft))
            .collect();
        pairs.extend(
            arms.iter()
                .map(|a| (a.name().to_string(), CONSTANT.to_string())),
        );
        let evaluation = evaluate(&block, DEFAULT_RESAMPLES, 0, VERDICT_X, &pairs);
        let per_arms: Vec<String> = PER_LABEL_ARMS.iter().map(|a| a.to_string()).collect();
        let per_label = label_curves(&block, DEFAULT_RESAMPLES, 0, VERDICT_X, &per_arms);
        let label_floors = (0..labels).map(|l| label_floor(&block, l)).collect();
        let mut infos: Vec<MlArmInfo> = arms
            .iter()
            .map(|a| MlArmInfo {
                name: a.name().into(),
                description: a.description().into(),
            })
            .collect();
        infos.push(MlArmInfo {
            name: CONSTANT.into(),
            description: "each label's mean N-vote share over the training items, for every item"
                .into(),
        });
        MlExport {
            dataset: name.into(),
            encoder: features.encoder.clone(),
            layout: features.layout.clone(),
            features: features.hash(),
            items: table.n_items(),
            labels: table.labels().to_vec(),
            votes_per_item: table.max_votes(),
            folds: design.folds,
            model_seeds: design.seeds,
            head: head.clone(),
            arms: infos,
            best_epochs: epochs
                .chunks(design.ns.len())
                .map(<[f64]>::to_vec)
                .collect(),
            evaluation,
            per_label,
            label_floors,
        }
    }
}
