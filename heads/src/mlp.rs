//! Many small MLP heads trained at once on the same features, as one batched model.
//!
//! A sweep trains ~130 heads per (split, model seed) — every trained arm at every N — on the same
//! input rows. Stacking them makes the first layer one wide matmul, `X · [W1_1 … W1_M]`, and the second
//! a batched matmul over heads, so both cores stay busy on large GEMMs instead of 130 tiny ones.
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

use crate::adamw::{AdamW, Moments};
use crate::first_layer::{self, Activations, FirstLayer};
use crate::second_layer::{self, SecondLayer};
use annosat_core::sample;
use anyhow::Result;
use candle_core::{Device, Tensor, Var, D};
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

/// The output layer's link: one distribution over `k` classes, or `k` independent labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// Softmax over the classes; cross-entropy `−Σ_k t log softmax(z)`.
    Softmax,
    /// A sigmoid per label (multilabel); Bernoulli cross-entropy summed over the labels,
    /// `Σ_l −[t log σ(z) + (1 − t) log(1 − σ(z))]` — SoftBCE when `t` are vote shares.
    Sigmoid,
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

/// The heads' weights, as plain memory: both layers run outside candle's autograd
/// ([`FirstLayer`], [`SecondLayer`]); only the loss on the logits is candle's.
struct Params {
    first: FirstLayer,
    second: SecondLayer,
}

impl Params {
    /// One seeded initialisation (PyTorch's Linear default: U(±1/√fan_in)), copied to all `m` heads.
    fn init(d: usize, h: usize, k: usize, m: usize, split_seed: u64, model_seed: u64) -> Self {
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

    /// `(m, rows, k)` logits of the rows `x`, into `logits`.
    fn forward(&self, x: &[f32], rows: usize, act: &mut Activations, logits: &mut Vec<f32>) {
        self.first.forward(x, rows, act);
        self.second.forward(&act.hid, rows, logits);
    }
}

/// Per-head mean cross-entropy `−Σ_k t log softmax(z)` over rows: `(m,)`.
fn per_head_ce(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    let rows = logits.dim(1)? as f64;
    let logp = candle_nn::ops::log_softmax(logits, D::Minus1)?;
    Ok((targets.mul(&logp)?.sum((1, 2))?.neg()? / rows)?)
}

/// Per-head mean over rows of the Bernoulli cross-entropy summed over labels: `(m,)`. Written
/// stably from the logits: `max(z, 0) − t z + ln(1 + e^{−|z|})`.
fn per_head_bce(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    let rows = logits.dim(1)? as f64;
    let soft_plus = (logits.abs()?.neg()?.exp()? + 1.0)?.log()?;
    let per = ((logits.relu()? - targets.mul(logits)?)? + soft_plus)?;
    Ok((per.sum((1, 2))? / rows)?)
}

fn per_head_loss(logits: &Tensor, targets: &Tensor, loss: Loss) -> Result<Tensor> {
    match loss {
        Loss::Softmax => per_head_ce(logits, targets),
        Loss::Sigmoid => per_head_bce(logits, targets),
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
    mut on_epoch: impl FnMut(EpochReport),
) -> Result<Vec<HeadOut>> {
    let dev = inputs.dev.clone();
    let (d, k) = (inputs.width, inputs.k);
    let (n_tr, n_val, n_test) = (
        inputs.rows(&inputs.x_train),
        inputs.rows(&inputs.x_val),
        inputs.rows(&inputs.x_test),
    );
    let mut p = Params::init(d, cfg.hidden, k, m, split_seed, model_seed);
    let mut opt = AdamW::new(ParamsAdamW {
        lr: cfg.lr,
        weight_decay: cfg.weight_decay,
        ..Default::default()
    });
    let mut moments = [
        p.first.w1.len(),
        p.first.b1.len(),
        p.second.w2.len(),
        p.second.b2.len(),
    ]
    .map(Moments::new);
    let val_t = Tensor::from_slice(val_targets, (m, n_val, k), &dev)?;
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
    let mut act = Activations::default();
    let (mut g1, mut g2) = (
        first_layer::Gradients::default(),
        second_layer::Gradients::default(),
    );
    let (mut xb, mut tb, mut logits) = (Vec::new(), Vec::new(), Vec::new());
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
            // The minibatch's targets, (m, rows, k), gathered from the epoch's (m, n_train, k).
            tb.clear();
            for j in 0..m {
                for &i in idx {
                    let at = (j * n_tr + i as usize) * k;
                    tb.extend_from_slice(&buf[at..at + k]);
                }
            }
            let tb = Tensor::from_slice(&tb, (m, rows, k), &dev)?;
            p.forward(&xb, rows, &mut act, &mut logits);
            // The loss is candle's, from the logits as a leaf: its gradient there starts the
            // layers' own backward passes.
            let z = Var::from_slice(&logits, (m, rows, k), &dev)?;
            let per_head = per_head_loss(z.as_tensor(), &tb, inputs.loss)?;
            let store = per_head.sum_all()?.backward()?;
            let dlogits = store
                .get(z.as_tensor())
                .expect("the loss depends on the logits")
                .flatten_all()?
                .to_vec1::<f32>()?;
            p.second.backward(&act.hid, rows, &dlogits, &mut g2);
            p.first.backward(&xb, &act, &g2.hid, &mut g1);
            let step = opt.next_step();
            let [m1, mb1, m2, mb2] = &mut moments;
            step.apply(&mut p.first.w1, m1, &g1.w1);
            step.apply(&mut p.first.b1, mb1, &g1.b1);
            step.apply(&mut p.second.w2, m2, &g2.w2);
            step.apply(&mut p.second.b2, mb2, &g2.b2);
            for (s, l) in train_sum.iter_mut().zip(per_head.to_vec1::<f32>()?) {
                *s += l * rows as f32;
            }
        }
        p.forward(&inputs.x_val, n_val, &mut act, &mut logits);
        let val_logits = Tensor::from_slice(&logits, (m, n_val, k), &dev)?;
        let val_loss = per_head_loss(&val_logits, &val_t, inputs.loss)?.to_vec1::<f32>()?;
        let val_flat = std::mem::take(&mut logits);
        p.forward(&inputs.x_test, n_test, &mut act, &mut logits);
        let test_flat = &logits;
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
    fn the_sigmoid_loss_equals_candles_binary_cross_entropy() {
        let dev = Device::Cpu;
        let z: Vec<f32> = (0..24).map(|i| (i as f32 - 11.0) / 3.0).collect();
        let t: Vec<f32> = (0..24).map(|i| (i % 5) as f32 / 4.0).collect();
        let zt = Tensor::from_slice(&z, (1, 6, 4), &dev).unwrap();
        let tt = Tensor::from_slice(&t, (1, 6, 4), &dev).unwrap();
        let ours = per_head_bce(&zt, &tt).unwrap().to_vec1::<f32>().unwrap()[0];
        // candle-nn's mean over all 24 elements; ours sums the 4 labels and averages the 6 rows.
        let theirs = candle_nn::loss::binary_cross_entropy_with_logit(&zt, &tt)
            .unwrap()
            .to_scalar::<f32>()
            .unwrap();
        assert!((ours / 4.0 - theirs).abs() < 1e-5, "{ours} / 4 vs {theirs}");
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
