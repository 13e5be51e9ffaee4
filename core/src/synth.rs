//! Synthetic data with known truth: the control for "metrics saturate at different N when a model
//! can represent ambiguity". Every item has a true label distribution; votes are drawn from it (with
//! optional spammers and biased annotators); features carry the true distribution plus settable
//! noise. With features that carry the truth a head *can* learn which items are ambiguous, and
//! with pure-noise features it cannot — so the pipeline's model-side curves can be checked against
//! a case where the answer is known.
//!
//! Generation, all from one seed (ChaCha8 streams per purpose, as in [`crate::sample`]):
//! - true distribution of item i: p_i ~ Dirichlet(α·1_K) (`concentration` α: small α gives
//!   mostly clear items, large α mostly ambiguous ones);
//! - `annotators` annotators; a share `spammers` of them vote uniformly at random, a share `biased`
//!   votes their own favourite class with probability `bias` and otherwise from p_i, the rest from p_i;
//! - with `confusion` > 0, each honest annotator also has their own confusion matrix, through
//!   which a share of their votes passes (see [`SynthConfig::confusion`]);
//! - each item gets `votes` votes from distinct annotators drawn at random;
//! - features x_i = A·clr(p_i) + σ·ε_i, with clr(p) = log p − mean(log p) (p floored at 1e-6),
//!   A a fixed `dim`×K Gaussian matrix scaled by 1/√K, ε_i standard normal, σ = `feature_noise`.
//!
//! With `twins` the items come in pairs (2j, 2j + 1) that share one true distribution, and the
//! features carry no function of it: x_i = c_j + σ·ε_i with c_j a standard normal `dim`-vector per
//! pair. A learner can then only know an item's distribution through its twin's votes (when the
//! twin is a training item), so its small-N errors are item-specific — the twin's N-vote noise —
//! rather than a shrinkage towards similar items that N=1 votes already average out (the linear
//! features above). That is the case where the metrics can saturate at different N on the model
//! side as they do on the target side; with σ large the twin is not identifiable and nothing is.
//!
//! Floating point comes from rand_distr (Gamma, normal draws): the same seed gives the same data on
//! every run of one build; across platforms the last bits of a draw may differ where the math
//! library does, which can flip a rare vote.

use crate::sample;
use crate::votes::{Annotation, VoteTable};
use rand::Rng;
use rand_distr::{Distribution, Gamma, StandardNormal};
use serde::{Deserialize, Serialize};

const PURPOSE_TRUTH: u64 = 0x5_71;
const PURPOSE_ANNOTATORS: u64 = 0x5_72;
const PURPOSE_VOTES: u64 = 0x5_73;
const PURPOSE_FEATURES: u64 = 0x5_74;
const PURPOSE_TWIN_CODE: u64 = 0x5_75;
const PURPOSE_CONFUSION: u64 = 0x5_76;

/// The generator's settings (the CLI's `annosat synth` flags and the app's controls).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthConfig {
    pub items: usize,
    pub classes: usize,
    /// Symmetric Dirichlet concentration α of the true distributions.
    pub concentration: f64,
    /// Votes per item.
    pub votes: u32,
    /// Size of the annotator pool.
    pub annotators: usize,
    /// Share of annotators who vote uniformly at random.
    pub spammers: f64,
    /// Share of annotators with a favourite class.
    pub biased: f64,
    /// Probability that a biased annotator votes their favourite class.
    pub bias: f64,
    /// Width of the features.
    pub dim: usize,
    /// Standard deviation σ of the noise added to the features.
    pub feature_noise: f64,
    pub seed: u64,
    /// Items in pairs sharing one true distribution, features a random code per pair (see the
    /// module doc). Absent in older settings: false.
    #[serde(default)]
    pub twins: bool,
    /// Mean share of an honest annotator's votes that pass through their own confusion: each
    /// honest annotator a draws a rate e_a uniform in [0, 2·confusion] and a confusion matrix
    /// (row t ~ Dirichlet(1, …, 1)); a vote draws t from the item's truth, then with probability
    /// e_a a label from row t, else t. Annotators then differ as people do, so which of them
    /// labelled moves the curves (the crossed bootstrap's check). Absent in older settings: 0.
    #[serde(default)]
    pub confusion: f64,
    /// Share of the annotators who are experts: honest and free of any confusion (the first
    /// honest ones), against whom the others' confusion shows. Absent in older settings: 0.
    #[serde(default)]
    pub experts: f64,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig {
            items: 1000,
            classes: 3,
            concentration: 1.0,
            votes: 100,
            annotators: 300,
            spammers: 0.0,
            biased: 0.0,
            bias: 0.5,
            dim: 16,
            feature_noise: 0.5,
            seed: 7,
            twins: false,
            confusion: 0.0,
            experts: 0.0,
        }
    }
}

/// Limits the app and the CLI both enforce (the app generates in the page).
pub const MAX_ITEMS: usize = 20_000;
pub const MAX_VOTES: u32 = 1_000;

impl SynthConfig {
    /// Every setting checked, with a message naming the setting and its range.
    pub fn validate(&self) -> Result<(), String> {
        let share = |x: f64| (0.0..=1.0).contains(&x);
        if !(2..=20).contains(&self.classes) {
            return Err(format!("classes must be 2–20 (got {})", self.classes));
        }
        if !(10..=MAX_ITEMS).contains(&self.items) {
            return Err(format!("items must be 10–{MAX_ITEMS} (got {})", self.items));
        }
        if !(1..=MAX_VOTES).contains(&self.votes) {
            return Err(format!("votes must be 1–{MAX_VOTES} (got {})", self.votes));
        }
        if self.annotators < self.votes as usize {
            return Err(format!(
                "annotators ({}) must be at least votes per item ({}): each vote is from a different annotator",
                self.annotators, self.votes
            ));
        }
        if !(self.concentration > 0.0 && self.concentration <= 1000.0) {
            return Err(format!(
                "concentration must be in (0, 1000] (got {})",
                self.concentration
            ));
        }
        if !share(self.spammers) || !share(self.biased) || self.spammers + self.biased > 1.0 {
            return Err(
                "spammers and biased are shares of the annotators: each in 0–1, together at most 1"
                    .into(),
            );
        }
        if !share(self.experts) || self.spammers + self.biased + self.experts > 1.0 + 1e-12 {
            return Err(
                "experts is a share of the annotators: in 0–1, with spammers and biased at most 1"
                    .into(),
            );
        }
        if !(0.0..=0.5).contains(&self.confusion) {
            return Err(format!(
                "confusion must be in 0–0.5 (got {})",
                self.confusion
            ));
        }
        if !share(self.bias) {
            return Err(format!("bias must be in 0–1 (got {})", self.bias));
        }
        if !(1..=512).contains(&self.dim) {
            return Err(format!("dim must be 1–512 (got {})", self.dim));
        }
        if !(self.feature_noise >= 0.0 && self.feature_noise <= 100.0) {
            return Err(format!(
                "feature noise must be in 0–100 (got {})",
                self.feature_noise
            ));
        }
        Ok(())
    }

    /// A short label for the data, e.g. for the app's picker and manifests.
    pub fn describe(&self) -> String {
        format!(
            "synthetic: {} items{}, K={}, α={}, {} votes, {:.0}% spammers, {:.0}% biased, features {}-d with σ={}, seed {}",
            self.items,
            if self.twins {
                " in twin pairs (features: a random code per pair)"
            } else {
                ""
            },
            self.classes,
            self.concentration,
            self.votes,
            self.spammers * 100.0,
            self.biased * 100.0,
            self.dim,
            self.feature_noise,
            self.seed
        )
    }
}

/// What annotators are.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Honest,
    Spammer,
    Biased(usize),
}

/// A generated dataset.
#[derive(Debug, Clone)]
pub struct Synthetic {
    /// Votes, with one annotation row per vote (annotator ids `a0`, `a1`, …).
    pub table: VoteTable,
    /// True distributions, row-major items × K.
    pub truth: Vec<f64>,
    /// Features, row-major items × `dim`.
    pub features: Vec<f32>,
    pub dim: usize,
}

fn gaussian(rng: &mut impl Rng) -> f64 {
    StandardNormal.sample(rng)
}

pub fn generate(cfg: &SynthConfig) -> Result<Synthetic, String> {
    cfg.validate()?;
    let k = cfg.classes;
    let gamma = Gamma::new(cfg.concentration, 1.0).map_err(|e| e.to_string())?;
    let mut truth = Vec::with_capacity(cfg.items * k);
    for i in 0..cfg.items {
        // Twins: the pair's first item's draw serves both.
        let from = if cfg.twins { i & !1 } else { i };
        let mut rng = sample::stream(cfg.seed, PURPOSE_TRUTH, from as u64, 0);
        let g: Vec<f64> = (0..k).map(|_| gamma.sample(&mut rng).max(1e-300)).collect();
        let s: f64 = g.iter().sum();
        truth.extend(g.iter().map(|x| x / s));
    }
    let mut rng = sample::stream(cfg.seed, PURPOSE_ANNOTATORS, 0, 0);
    let n_spam = (cfg.spammers * cfg.annotators as f64).round() as usize;
    let n_biased =
        ((cfg.biased * cfg.annotators as f64).round() as usize).min(cfg.annotators - n_spam);
    let kinds: Vec<Kind> = (0..cfg.annotators)
        .map(|a| {
            if a < n_spam {
                Kind::Spammer
            } else if a < n_spam + n_biased {
                Kind::Biased(sample::below(&mut rng, k as u32) as usize)
            } else {
                Kind::Honest
            }
        })
        .collect();
    // Each honest annotator's confusion: a rate and a row-stochastic matrix (none when 0, and no
    // draws, so settings without it give the same data as before it existed).
    let n_experts = (cfg.experts * cfg.annotators as f64).round() as usize;
    let expert = |a: usize| a >= n_spam + n_biased && a < n_spam + n_biased + n_experts;
    let confusions: Vec<Option<(f64, Vec<f64>)>> = (0..cfg.annotators)
        .map(|a| {
            (cfg.confusion > 0.0 && !expert(a)).then(|| {
                let mut rng = sample::stream(cfg.seed, PURPOSE_CONFUSION, a as u64, 0);
                let rate = rng.random::<f64>() * 2.0 * cfg.confusion;
                let one = Gamma::new(1.0f64, 1.0).expect("shape 1");
                let mut rows = Vec::with_capacity(k * k);
                for _ in 0..k {
                    let g: Vec<f64> = (0..k).map(|_| one.sample(&mut rng).max(1e-300)).collect();
                    let s: f64 = g.iter().sum();
                    rows.extend(g.iter().map(|x| x / s));
                }
                (rate, rows)
            })
        })
        .collect();
    let mut counts = vec![0u32; cfg.items * k];
    let mut annotations = Vec::with_capacity(cfg.items * cfg.votes as usize);
    let mut pool: Vec<u32> = (0..cfg.annotators as u32).collect();
    for i in 0..cfg.items {
        let mut rng = sample::stream(cfg.seed, PURPOSE_VOTES, i as u64, 0);
        sample::partial_shuffle(&mut pool, cfg.votes as usize, &mut rng);
        let p = &truth[i * k..(i + 1) * k];
        for &a in &pool[..cfg.votes as usize] {
            let from_truth = |rng: &mut rand_chacha::ChaCha8Rng| {
                let u: f64 = rng.random();
                let mut acc = 0.0;
                for (j, &pj) in p.iter().enumerate() {
                    acc += pj;
                    if u < acc {
                        return j;
                    }
                }
                k - 1
            };
            let label = match kinds[a as usize] {
                Kind::Honest => {
                    let t = from_truth(&mut rng);
                    match &confusions[a as usize] {
                        Some((rate, rows)) if rng.random::<f64>() < *rate => {
                            let u: f64 = rng.random();
                            let row = &rows[t * k..(t + 1) * k];
                            let mut acc = 0.0;
                            row.iter()
                                .position(|&r| {
                                    acc += r;
                                    u < acc
                                })
                                .unwrap_or(k - 1)
                        }
                        _ => t,
                    }
                }
                Kind::Spammer => sample::below(&mut rng, k as u32) as usize,
                Kind::Biased(fav) => {
                    if rng.random::<f64>() < cfg.bias {
                        fav
                    } else {
                        from_truth(&mut rng)
                    }
                }
            };
            counts[i * k + label] += 1;
            annotations.push(Annotation {
                item: i as u32,
                annotator: a,
                label: label as u16,
            });
        }
    }
    let mut rng = sample::stream(cfg.seed, PURPOSE_FEATURES, 0, 0);
    let scale = 1.0 / (k as f64).sqrt();
    let a: Vec<f64> = (0..cfg.dim * k)
        .map(|_| gaussian(&mut rng) * scale)
        .collect();
    let mut features = Vec::with_capacity(cfg.items * cfg.dim);
    for i in 0..cfg.items {
        let mut rng = sample::stream(cfg.seed, PURPOSE_FEATURES, 1 + i as u64, 0);
        if cfg.twins {
            let mut code = sample::stream(cfg.seed, PURPOSE_TWIN_CODE, (i / 2) as u64, 0);
            for _ in 0..cfg.dim {
                let c = gaussian(&mut code);
                features.push((c + cfg.feature_noise * gaussian(&mut rng)) as f32);
            }
            continue;
        }
        let logs: Vec<f64> = truth[i * k..(i + 1) * k]
            .iter()
            .map(|&x| libm::log(x.max(1e-6)))
            .collect();
        let mean = logs.iter().sum::<f64>() / k as f64;
        for d in 0..cfg.dim {
            let signal: f64 = (0..k).map(|j| a[d * k + j] * (logs[j] - mean)).sum();
            features.push((signal + cfg.feature_noise * gaussian(&mut rng)) as f32);
        }
    }
    let classes = (0..k).map(|j| format!("c{j}")).collect();
    let ids = (0..cfg.items).map(|i| format!("s{i:05}")).collect();
    let annotators = (0..cfg.annotators).map(|a| format!("a{a}")).collect();
    let table = VoteTable::new(classes, ids, counts).with_annotations(annotators, annotations);
    Ok(Synthetic {
        table,
        truth,
        features,
        dim: cfg.dim,
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn annotators_with_their_own_confusion_differ_and_none_changes_nothing() {
        let base = SynthConfig {
            items: 400,
            votes: 10,
            annotators: 12,
            concentration: 0.3,
            dim: 1,
            ..Default::default()
        };
        let plain = generate(&base).unwrap();
        // Without confusion nothing extra is drawn: the data of settings that predate it.
        let zero = generate(&SynthConfig {
            confusion: 0.0,
            ..base.clone()
        })
        .unwrap();
        assert_eq!(zero.table.all_counts(), plain.table.all_counts());
        // Each annotator's share of votes for the item's most likely class.
        let shares = |s: &Synthetic| -> Vec<f64> {
            let k = s.table.num_classes();
            let mut hit = [(0u32, 0u32); 12];
            for a in s.table.annotations() {
                let p = &s.truth[a.item as usize * k..(a.item as usize + 1) * k];
                let top = (0..k).max_by(|&x, &y| p[x].total_cmp(&p[y])).unwrap();
                let h = &mut hit[a.annotator as usize];
                h.0 += (a.label as usize == top) as u32;
                h.1 += 1;
            }
            hit.iter().map(|&(h, n)| h as f64 / n as f64).collect()
        };
        let spread = |v: Vec<f64>| {
            v.iter().copied().fold(f64::MIN, f64::max) - v.iter().copied().fold(f64::MAX, f64::min)
        };
        let confused = generate(&SynthConfig {
            confusion: 0.5,
            ..base.clone()
        })
        .unwrap();
        let (a, b) = (spread(shares(&plain)), spread(shares(&confused)));
        assert!(b > a + 0.1, "spread {a:.3} without confusion, {b:.3} with");
        assert!(generate(&SynthConfig {
            confusion: 0.6,
            ..base
        })
        .unwrap_err()
        .contains("confusion"));
    }

    use super::*;

    #[test]
    fn votes_follow_the_truth_and_reruns_are_identical() {
        let cfg = SynthConfig {
            items: 400,
            votes: 200,
            ..Default::default()
        };
        let s = generate(&cfg).unwrap();
        assert_eq!(s.table.num_items(), 400);
        assert!((0..400).all(|i| s.table.total(i) == 200));
        assert_eq!(s.table.annotations().len(), 400 * 200);
        // Vote shares are within sampling error of the true distributions.
        let mut worst: f64 = 0.0;
        for i in 0..400 {
            let d = s.table.distribution(i);
            for (&share, &p) in d.iter().zip(&s.truth[i * 3..i * 3 + 3]) {
                let se = (p * (1.0 - p) / 200.0).sqrt().max(1e-3);
                worst = worst.max((share - p).abs() / se);
            }
        }
        assert!(worst < 5.5, "largest deviation {worst} standard errors");
        let again = generate(&cfg).unwrap();
        assert_eq!(again.table, s.table);
        assert_eq!(again.features, s.features);
    }

    #[test]
    fn the_concentration_sets_how_ambiguous_items_are() {
        let entropy = |alpha: f64| {
            let s = generate(&SynthConfig {
                concentration: alpha,
                votes: 1,
                annotators: 10,
                ..Default::default()
            })
            .unwrap();
            s.truth.chunks(3).map(crate::metrics::entropy).sum::<f64>() / 1000.0
        };
        // E[H] of Dirichlet(α·1_3) = ψ(3α+1) − ψ(α+1) (scipy.special.digamma: 0.4151 nats at
        // α=0.2, 1.0660 at α=10; numpy's Dirichlet sampler gives the same to 1e-3). 1,000 items.
        let (lo, hi) = (entropy(0.2), entropy(10.0));
        assert!((lo - 0.4151).abs() < 0.03, "{lo}");
        assert!((hi - 1.0660).abs() < 0.01, "{hi}");
    }

    #[test]
    fn spammers_vote_uniformly_and_features_carry_the_truth_when_noise_is_zero() {
        let s = generate(&SynthConfig {
            spammers: 1.0,
            concentration: 0.05,
            ..Default::default()
        })
        .unwrap();
        let mean: Vec<f64> = (0..3)
            .map(|j| (0..1000).map(|i| s.table.distribution(i)[j]).sum::<f64>() / 1000.0)
            .collect();
        assert!(
            mean.iter().all(|m| (m - 1.0 / 3.0).abs() < 0.01),
            "{mean:?}"
        );
        let clean = generate(&SynthConfig {
            feature_noise: 0.0,
            ..Default::default()
        })
        .unwrap();
        // Same truth ⇒ same features; different truth ⇒ different features.
        assert_eq!(
            clean.features[..16],
            generate(&SynthConfig {
                feature_noise: 0.0,
                ..Default::default()
            })
            .unwrap()
            .features[..16]
        );
        assert_ne!(clean.features[..16], clean.features[16..32]);
    }

    #[test]
    fn bad_settings_are_named() {
        let bad = SynthConfig {
            annotators: 5,
            ..Default::default()
        };
        assert!(generate(&bad).unwrap_err().contains("annotators"));
        let bad = SynthConfig {
            spammers: 0.7,
            biased: 0.5,
            ..Default::default()
        };
        assert!(generate(&bad).unwrap_err().contains("spammers"));
    }

    #[test]
    fn twins_share_their_truth_and_their_code_only() {
        let cfg = SynthConfig {
            items: 200,
            twins: true,
            dim: 32,
            feature_noise: 0.1,
            ..Default::default()
        };
        let s = generate(&cfg).unwrap();
        let row = |v: &[f32], i: usize| v[i * 32..(i + 1) * 32].to_vec();
        let dist = |a: &[f32], b: &[f32]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| ((x - y) * (x - y)) as f64)
                .sum::<f64>()
        };
        for j in 0..100 {
            assert_eq!(s.truth[6 * j..6 * j + 3], s.truth[6 * j + 3..6 * j + 6]);
            let (a, b, c) = (
                row(&s.features, 2 * j),
                row(&s.features, 2 * j + 1),
                row(&s.features, (2 * j + 2) % 200),
            );
            // The twin is the nearest: ‖ε − ε'‖² ≈ 2σ²·dim = 0.64 against ≈ 2·dim = 64.
            assert!(dist(&a, &b) < 3.0 && dist(&a, &c) > 20.0, "pair {j}");
        }
        // Another pair's truth is another draw.
        assert_ne!(s.truth[0..3], s.truth[6..9]);
    }
}
