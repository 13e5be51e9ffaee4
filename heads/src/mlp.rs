//! Many small MLP heads trained at once on the same features, as one batched model.
//!
//! A sweep trains ~130 heads per (split, model seed) — every trained arm at every N — on the same
//! input rows. Stacking them makes the first layer one wide matmul, `X · [W1_1 … W1_M]`, and the second
//! a batched matmul over heads. Natively the heads are cut into one contiguous shard per core, each
//! stepped on its own thread ([`crate::shard`]), so the cores meet twice a step, not at every kernel.
//! Both layers run outside candle's autograd ([`crate::first_layer`], [`crate::second_layer`]:
//! candle would also compute the gradient of the input rows, a third GEMM as large as the forward);
//! the loss is candle's, and hands its gradient at the logits to the second layer.
//! The heads never interact: the loss is the sum of per-head losses, and AdamW is element-wise, so
//! each head follows exactly the trajectory it would alone (with the shared minibatch order).
//!
//! Every head of a group starts from the same seeded initialisation and sees the same minibatch
//! order, so arms compared at one (split, model seed) differ only in their targets (paired runs).
//! Model selection: train up to `epochs`, keep each head's epoch with the lowest validation loss
//! (against its own validation targets from the same N votes); stop when no head improved for
//! `patience` epochs. No dropout: it would need candle's unseeded RNG and break bit-identical reruns.

use crate::adamw::AdamW;
use crate::first_layer::FirstLayer;
use crate::loss::per_head_loss;
pub use crate::loss::Loss;
use crate::second_layer::SecondLayer;
use crate::shard::{self, Batch, Params, Shard};
use annosat_core::sample;
use anyhow::Result;
use candle_core::{Device, Tensor};
use candle_nn::ParamsAdamW;
use rand::RngCore;

pub const PURPOSE_INIT: u64 = 0x7_10;
pub const PURPOSE_ORDER: u64 = 0x7_11;

/// The head and its optimiser: the exports' type, defined once in the core that reads them.
pub use annosat_core::models::HeadConfig;

/// Inputs shared by a group of heads: row-major features of the train/val/test items.
pub struct Inputs {
    pub x_train: Vec<f32>,
    pub x_val: Vec<f32>,
    pub x_test: Vec<f32>,
    pub width: usize,
    pub k: usize,
    /// Where the second layers' candle tensors live (the first layer is plain memory).
    pub dev: Device,
    /// How the `k` logits become probabilities, hence the loss.
    pub loss: Loss,
}

impl Inputs {
    pub fn new(
        features: &[f32],
        width: usize,
        split: &[Vec<usize>; 3],
        k: usize,
        dev: &Device,
    ) -> Result<Self> {
        let take = |rows: &[usize]| -> Vec<f32> {
            let mut v = Vec::with_capacity(rows.len() * width);
            for &r in rows {
                v.extend_from_slice(&features[r * width..(r + 1) * width]);
            }
            v
        };
        Ok(Inputs {
            x_train: take(&split[0]),
            x_val: take(&split[1]),
            x_test: take(&split[2]),
            width,
            k,
            dev: dev.clone(),
            loss: Loss::Softmax,
        })
    }

    /// The same inputs with independent sigmoid outputs (multilabel heads).
    pub fn sigmoid(mut self) -> Self {
        self.loss = Loss::Sigmoid;
        self
    }

    fn rows(&self, x: &[f32]) -> usize {
        x.len() / self.width.max(1)
    }
}

/// What one head learned: its best epoch, loss curves, and logits at the best epoch.
#[derive(Debug, Clone)]
pub struct HeadOut {
    pub best_epoch: usize,
    pub train_loss: Vec<f32>,
    pub val_loss: Vec<f32>,
    pub val_logits: Vec<f32>,
    pub test_logits: Vec<f32>,
}

/// What [`train`] reports after each epoch (for progress displays; results are in [`HeadOut`]).
#[derive(Debug, Clone, Copy)]
pub struct EpochReport {
    pub epoch: usize,
    /// Mean over heads of the epoch's training and validation cross-entropy.
    pub train_loss: f32,
    pub val_loss: f32,
    /// Epochs since any head's validation loss improved (the group stops at `patience`).
    pub since_improved: usize,
}

/// Fills the `(heads, n_train, K)` training targets for an epoch (static arms write the same each time).
pub trait TrainTargets {
    fn fill(&mut self, epoch: usize, out: &mut [f32]);
    /// The first epoch whose model head `head` may keep (sls and multipass wait until every vote
    /// has been delivered; see `arms::Arm::first_eligible_epoch`).
    fn first_eligible(&self, _head: usize) -> usize {
        0
    }
}

/// One seeded initialisation (PyTorch's Linear default: U(±1/√fan_in)), copied to all `m` heads.
fn init(d: usize, h: usize, k: usize, m: usize, split_seed: u64, model_seed: u64) -> Params {
    let mut rng = sample::stream(split_seed, PURPOSE_INIT, model_seed, 0);
    let mut uni = |bound: f32, n: usize| uniform(&mut rng, bound, n);
    let (s1, s2) = (1.0 / (d as f32).sqrt(), 1.0 / (h as f32).sqrt());
    let w1 = uni(s1, d * h); // (d, h)
    let b1 = uni(s1, h);
    let w2 = uni(s2, h * k);
    let b2 = uni(s2, k);
    let mut w1m = Vec::with_capacity(d * h * m);
    for r in 0..d {
        for _ in 0..m {
            w1m.extend_from_slice(&w1[r * h..(r + 1) * h]);
        }
    }
    let rep = |v: &[f32]| -> Vec<f32> { (0..m).flat_map(|_| v.iter().copied()).collect() };
    Params {
        first: FirstLayer {
            w1: w1m,
            b1: rep(&b1),
            d,
            heads: m,
            hidden: h,
        },
        second: SecondLayer {
            w2: rep(&w2),
            b2: rep(&b2),
            heads: m,
            hidden: h,
            k,
        },
    }
}

/// A seeded permutation of `0..n` for one epoch (the same for every head of the group).
pub fn epoch_order(n: usize, split_seed: u64, model_seed: u64, epoch: usize) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..n as u32).collect();
    let mut rng = sample::stream(split_seed, PURPOSE_ORDER, model_seed, epoch as u64);
    sample::partial_shuffle(&mut idx, n, &mut rng);
    idx
}

/// `n` draws from U(−bound, bound) with 24-bit resolution: PyTorch's Linear initialisation, seeded.
pub fn uniform(rng: &mut rand_chacha::ChaCha8Rng, bound: f32, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| ((rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * bound)
        .collect()
}

/// Trains `m` heads; `val_targets` is `(m, n_val, K)`. Returns one [`HeadOut`] per head.
#[allow(clippy::too_many_arguments)] // the group's inputs, seeds and a progress callback, all distinct
pub fn train(
    cfg: &HeadConfig,
    inputs: &Inputs,
    m: usize,
    targets: &mut dyn TrainTargets,
    val_targets: &[f32],
    split_seed: u64,
    model_seed: u64,
    on_epoch: impl FnMut(EpochReport),
) -> Result<Vec<HeadOut>> {
    let shards = crate::matmul::threads();
    let run = Run {
        cfg,
        inputs,
        m,
        val_targets,
        split_seed,
        model_seed,
    };
    train_in(shards, run, targets, on_epoch)
}

/// [`train`]'s arguments other than the targets and the callback.
struct Run<'a> {
    cfg: &'a HeadConfig,
    inputs: &'a Inputs,
    m: usize,
    val_targets: &'a [f32],
    split_seed: u64,
    model_seed: u64,
}

/// [`train`] with the heads cut into `shards` shards (the tests vary it; the results never do).
fn train_in(
    shards: usize,
    run: Run,
    targets: &mut dyn TrainTargets,
    mut on_epoch: impl FnMut(EpochReport),
) -> Result<Vec<HeadOut>> {
    let Run {
        cfg,
        inputs,
        m,
        val_targets,
        split_seed,
        model_seed,
    } = run;
    let dev = inputs.dev.clone();
    let (d, k) = (inputs.width, inputs.k);
    let (n_tr, n_val, n_test) = (
        inputs.rows(&inputs.x_train),
        inputs.rows(&inputs.x_val),
        inputs.rows(&inputs.x_test),
    );
    let mut shards = Shard::split(m, shards, |heads| {
        init(d, cfg.hidden, k, heads, split_seed, model_seed)
    });
    let mut opt = AdamW::new(ParamsAdamW {
        lr: cfg.lr,
        weight_decay: cfg.weight_decay,
        ..Default::default()
    });
    let mut buf = vec![0f32; m * n_tr * k];
    let mut outs: Vec<HeadOut> = (0..m)
        .map(|_| HeadOut {
            best_epoch: 0,
            train_loss: Vec::new(),
            val_loss: Vec::new(),
            val_logits: vec![0.0; n_val * k],
            test_logits: vec![0.0; n_test * k],
        })
        .collect();
    let mut best = vec![f32::INFINITY; m];
    let first_epoch: Vec<usize> = (0..m)
        .map(|j| targets.first_eligible(j).min(cfg.epochs.saturating_sub(1)))
        .collect();
    let mut since_improved = 0;
    let mut xb = Vec::new();
    // Each head's logits of `x` (`rows` rows) and, with `targets`, its mean loss against them.
    let evaluate = |shards: &mut [Shard], x: &[f32], rows: usize, t: Option<&[f32]>| {
        shard::each(shards, |sh| -> Result<(Vec<f32>, Vec<f32>)> {
            sh.forward(x, rows);
            let loss = match t {
                Some(t) => {
                    let at = |j: usize| j * rows * k;
                    let t = &t[at(sh.first)..at(sh.first + sh.heads)];
                    let t = Tensor::from_slice(t, (sh.heads, rows, k), &dev)?;
                    let z = Tensor::from_slice(&sh.logits, (sh.heads, rows, k), &dev)?;
                    per_head_loss(&z, &t, inputs.loss)?.to_vec1::<f32>()?
                }
                None => Vec::new(),
            };
            Ok((std::mem::take(&mut sh.logits), loss))
        })
        .into_iter()
        .collect::<Result<Vec<_>>>()
        .map(|parts| {
            let (logits, loss): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
            (logits.concat(), loss.concat())
        })
    };
    for epoch in 0..cfg.epochs {
        targets.fill(epoch, &mut buf);
        let order = epoch_order(n_tr, split_seed, model_seed, epoch);
        let mut train_sum = vec![0f32; m];
        for idx in order.chunks(cfg.batch) {
            let rows = idx.len();
            xb.clear();
            for &i in idx {
                xb.extend_from_slice(&inputs.x_train[i as usize * d..(i as usize + 1) * d]);
            }
            let batch = Batch {
                x: &xb,
                idx,
                targets: &buf,
                n_train: n_tr,
                k,
                loss: inputs.loss,
                step: opt.next_step(),
            };
            // Per-head losses, in head order (the shards are contiguous and in order).
            let losses = shard::each(&mut shards, |sh| sh.step(&batch, &dev));
            let losses = losses.into_iter().collect::<Result<Vec<_>>>()?.concat();
            for (s, l) in train_sum.iter_mut().zip(losses) {
                *s += l * rows as f32;
            }
        }
        let (val_flat, val_loss) = evaluate(&mut shards, &inputs.x_val, n_val, Some(val_targets))?;
        let (test_flat, _) = evaluate(&mut shards, &inputs.x_test, n_test, None)?;
        let test_flat = &test_flat;
        let mut improved = false;
        for (j, o) in outs.iter_mut().enumerate() {
            o.train_loss.push(train_sum[j] / n_tr as f32);
            o.val_loss.push(val_loss[j]);
            if epoch >= first_epoch[j] && val_loss[j] < best[j] {
                best[j] = val_loss[j];
                improved = true;
                o.best_epoch = epoch;
                o.val_logits
                    .copy_from_slice(&val_flat[j * n_val * k..(j + 1) * n_val * k]);
                o.test_logits
                    .copy_from_slice(&test_flat[j * n_test * k..(j + 1) * n_test * k]);
            }
        }
        since_improved = if improved { 0 } else { since_improved + 1 };
        let mean = |v: &[f32]| v.iter().sum::<f32>() / m.max(1) as f32;
        on_epoch(EpochReport {
            epoch,
            train_loss: mean(&train_sum) / n_tr as f32,
            val_loss: mean(&val_loss),
            since_improved,
        });
        if since_improved >= cfg.patience {
            break;
        }
    }
    Ok(outs)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Vec<f32>);
    impl TrainTargets for Fixed {
        fn fill(&mut self, _: usize, out: &mut [f32]) {
            out.copy_from_slice(&self.0);
        }
    }

    fn toy() -> (Inputs, Vec<f32>, Vec<f32>) {
        // Two features; class 0 when x0 > 0. Head 0 learns it hard, head 1 learns a 0.5/0.5 target.
        let dev = Device::Cpu;
        let n = 64;
        let feats: Vec<f32> = (0..n)
            .flat_map(|i| [(i as f32 - 31.5) / 16.0, 1.0])
            .collect();
        let rows: Vec<usize> = (0..n).collect();
        let inputs = Inputs::new(&feats, 2, &[rows.clone(), rows.clone(), rows], 2, &dev).unwrap();
        let mut t = Vec::new();
        for head in 0..2 {
            for i in 0..n {
                let x = (i as f32 - 31.5) / 16.0;
                let y = if head == 0 {
                    if x > 0.0 {
                        [1.0, 0.0]
                    } else {
                        [0.0, 1.0]
                    }
                } else {
                    [0.5, 0.5]
                };
                t.extend_from_slice(&y);
            }
        }
        (inputs, t.clone(), t)
    }

    #[test]
    fn heads_learn_their_own_targets_and_reruns_are_bit_identical() {
        let cfg = HeadConfig {
            hidden: 8,
            lr: 0.05,
            weight_decay: 0.0,
            batch: 16,
            epochs: 60,
            patience: 60,
        };
        let (inputs, t, v) = toy();
        let run = || train(&cfg, &inputs, 2, &mut Fixed(t.clone()), &v, 1, 0, |_| {}).unwrap();
        let a = run();
        let sm = |z: &[f32]| (z[0] as f64).exp() / ((z[0] as f64).exp() + (z[1] as f64).exp());
        // Head 0 separates the classes; head 1 stays near 0.5 everywhere.
        assert!(sm(&a[0].test_logits[0..2]) < 0.1 && sm(&a[0].test_logits[126..128]) > 0.9);
        assert!((sm(&a[1].test_logits[0..2]) - 0.5).abs() < 0.05);
        assert!(a[0].val_loss.last().unwrap() < &0.2);
        let b = run();
        assert_eq!(a[0].test_logits, b[0].test_logits);
        assert_eq!(a[1].val_loss, b[1].val_loss);
    }

    #[test]
    fn the_shard_count_never_changes_a_bit() {
        let cfg = HeadConfig {
            hidden: 8,
            lr: 0.05,
            weight_decay: 0.01,
            batch: 16,
            epochs: 6,
            patience: 6,
        };
        let (inputs, t, _) = toy();
        // Five heads: the toy's two targets and three mixtures of them.
        let half = t.len() / 2;
        let mix = |w: f32| -> Vec<f32> {
            (0..half)
                .map(|i| w * t[i] + (1.0 - w) * t[half + i])
                .collect()
        };
        let t5: Vec<f32> = [t.clone(), mix(0.2), mix(0.5), mix(0.9)].concat();
        let v5 = t5.clone();
        let run = |shards: usize| {
            let r = Run {
                cfg: &cfg,
                inputs: &inputs,
                m: 5,
                val_targets: &v5,
                split_seed: 2,
                model_seed: 7,
            };
            train_in(shards, r, &mut Fixed(t5.clone()), |_| {}).unwrap()
        };
        let bits = |o: &[HeadOut]| -> Vec<Vec<u32>> {
            o.iter()
                .map(|h| {
                    let all = [&h.train_loss, &h.val_loss, &h.val_logits, &h.test_logits];
                    all.iter()
                        .flat_map(|v| v.iter().map(|f| f.to_bits()))
                        .collect()
                })
                .collect()
        };
        let one = bits(&run(1));
        for shards in [2, 3, 5] {
            assert_eq!(bits(&run(shards)), one, "{shards} shards");
        }
    }

    #[test]
    fn a_head_alone_matches_the_same_head_in_a_batch() {
        let cfg = HeadConfig {
            hidden: 4,
            lr: 0.01,
            weight_decay: 0.01,
            batch: 16,
            epochs: 5,
            patience: 5,
        };
        let (inputs, t, v) = toy();
        let both = train(&cfg, &inputs, 2, &mut Fixed(t.clone()), &v, 3, 1, |_| {}).unwrap();
        let half = t.len() / 2;
        let one = train(
            &cfg,
            &inputs,
            1,
            &mut Fixed(t[half..].to_vec()),
            &v[half..],
            3,
            1,
            |_| {},
        )
        .unwrap();
        for (a, b) in both[1].test_logits.iter().zip(&one[0].test_logits) {
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
    }
}
