//! Many small MLP heads trained at once on the same features, as one batched candle model.
//!
//! A sweep trains ~110 heads per (split, model seed) — every trained arm at every N — on the same
//! input rows. Stacking them makes the first layer one wide matmul, `X · [W1_1 … W1_M]`, and the second
//! a batched matmul over heads, so both cores stay busy on large GEMMs instead of 110 tiny ones.
//! The heads never interact: the loss is the sum of per-head losses, and AdamW is element-wise, so
//! each head follows exactly the trajectory it would alone (with the shared minibatch order).
//!
//! Every head of a group starts from the same seeded initialisation and sees the same minibatch
//! order, so arms compared at one (split, model seed) differ only in their targets (paired runs).
//! Model selection: train up to `epochs`, keep each head's epoch with the lowest validation loss
//! (against its own validation targets from the same N votes); stop when no head improved for
//! `patience` epochs. No dropout: it would need candle's unseeded RNG and break bit-identical reruns.

use annosat_core::sample;
use anyhow::Result;
use candle_core::backprop::GradStore;
use candle_core::{DType, Device, Tensor, Var, D};
use candle_nn::ParamsAdamW;
use rand::RngCore;

pub const PURPOSE_INIT: u64 = 0x7_10;
pub const PURPOSE_ORDER: u64 = 0x7_11;

/// The head and its optimiser: the exports' type, defined once in the core that reads them.
pub use annosat_core::models::HeadConfig;

/// Inputs shared by a group of heads: row-major features of the train/val/test items.
pub struct Inputs {
    pub x_train: Tensor,
    pub x_val: Tensor,
    pub x_test: Tensor,
    pub k: usize,
}

impl Inputs {
    pub fn new(
        features: &[f32],
        width: usize,
        split: &[Vec<usize>; 3],
        k: usize,
        dev: &Device,
    ) -> Result<Self> {
        let take = |rows: &[usize]| -> Result<Tensor> {
            let mut v = Vec::with_capacity(rows.len() * width);
            for &r in rows {
                v.extend_from_slice(&features[r * width..(r + 1) * width]);
            }
            Ok(Tensor::from_vec(v, (rows.len(), width), dev)?)
        };
        Ok(Inputs {
            x_train: take(&split[0])?,
            x_val: take(&split[1])?,
            x_test: take(&split[2])?,
            k,
        })
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

struct Params {
    w1: Var,
    b1: Var,
    w2: Var,
    b2: Var,
    m: usize,
    h: usize,
}

impl Params {
    /// One seeded initialisation (PyTorch's Linear default: U(±1/√fan_in)), copied to all `m` heads.
    fn init(
        d: usize,
        h: usize,
        k: usize,
        m: usize,
        split_seed: u64,
        model_seed: u64,
        dev: &Device,
    ) -> Result<Self> {
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
        Ok(Params {
            w1: Var::from_tensor(&Tensor::from_vec(w1m, (d, m * h), dev)?)?,
            b1: Var::from_tensor(&Tensor::from_vec(rep(&b1), m * h, dev)?)?,
            w2: Var::from_tensor(&Tensor::from_vec(rep(&w2), (m, h, k), dev)?)?,
            b2: Var::from_tensor(&Tensor::from_vec(rep(&b2), (m, 1, k), dev)?)?,
            m,
            h,
        })
    }

    /// `(m, rows, k)` logits.
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let b = x.dim(0)?;
        let hid = x
            .matmul(self.w1.as_tensor())?
            .broadcast_add(self.b1.as_tensor())?
            .relu()?;
        let hid = hid
            .reshape((b, self.m, self.h))?
            .transpose(0, 1)?
            .contiguous()?;
        Ok(hid
            .matmul(self.w2.as_tensor())?
            .broadcast_add(self.b2.as_tensor())?)
    }
}

/// AdamW as candle-nn's `AdamW::step` computes it, bit for bit, but fused: one threaded pass per
/// variable instead of about fifteen tensor operations that each allocate a fresh buffer (the sweep's
/// 1.8M first-layer weights made those passes the bulk of its time). Every element follows exactly
/// candle's sequence of f32 operations — `t * s` is `t * s + 0`, `t + s` is `t * 1 + s`, scalars
/// are rounded from f64 once — so the results are identical (the committed exports check it).
struct FusedAdamW {
    vars: Vec<(Var, Vec<f32>, Vec<f32>)>,
    p: ParamsAdamW,
    step_t: i32,
}

impl FusedAdamW {
    fn new(vars: Vec<Var>, p: ParamsAdamW) -> Self {
        let vars = vars
            .into_iter()
            .map(|v| {
                let n = v.elem_count();
                (v, vec![0f32; n], vec![0f32; n])
            })
            .collect();
        FusedAdamW { vars, p, step_t: 0 }
    }

    fn step(&mut self, grads: &GradStore) -> Result<()> {
        self.step_t += 1;
        let p = &self.p;
        let f = |x: f64| x as f32;
        let (b1, b2) = (f(p.beta1), f(p.beta2));
        let (one_b1, one_b2) = (f(1.0 - p.beta1), f(1.0 - p.beta2));
        let scale_m = f(1.0 / (1.0 - p.beta1.powi(self.step_t)));
        let scale_v = f(1.0 / (1.0 - p.beta2.powi(self.step_t)));
        let decay = f(1.0 - p.lr * p.weight_decay);
        let (eps, lr) = (f(p.eps), f(p.lr));
        for (var, m, v) in self.vars.iter_mut() {
            let Some(g) = grads.get(var.as_tensor()) else {
                continue;
            };
            let g = g.flatten_all()?.to_vec1::<f32>()?;
            let mut theta = var.as_tensor().flatten_all()?.to_vec1::<f32>()?;
            let update = move |t: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]| {
                for i in 0..t.len() {
                    let gi = g[i];
                    let nm = (m[i] * b1 + 0.0) + (gi * one_b1 + 0.0);
                    let nv = (v[i] * b2 + 0.0) + ((gi * gi) * one_b2 + 0.0);
                    let m_hat = nm * scale_m + 0.0;
                    let v_hat = nv * scale_v + 0.0;
                    let nt = t[i] * decay + 0.0;
                    let adj = m_hat / (v_hat.sqrt() * 1.0 + eps);
                    m[i] = nm;
                    v[i] = nv;
                    t[i] = nt - (adj * lr + 0.0);
                }
            };
            // Element-wise, so chunking never changes a bit. wasm32-unknown-unknown has no threads.
            #[cfg(not(target_arch = "wasm32"))]
            {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                let chunk = theta.len().div_ceil(threads).max(1 << 14);
                std::thread::scope(|s| {
                    for (((t, m), v), g) in theta
                        .chunks_mut(chunk)
                        .zip(m.chunks_mut(chunk))
                        .zip(v.chunks_mut(chunk))
                        .zip(g.chunks(chunk))
                    {
                        s.spawn(move || update(t, m, v, g));
                    }
                });
            }
            #[cfg(target_arch = "wasm32")]
            update(&mut theta, m, v, &g);
            var.set(&Tensor::from_vec(theta, var.shape(), var.device())?)?;
        }
        Ok(())
    }
}

/// Per-head mean cross-entropy `−Σ_k t log softmax(z)` over rows: `(m,)`.
fn per_head_ce(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    let rows = logits.dim(1)? as f64;
    let logp = candle_nn::ops::log_softmax(logits, D::Minus1)?;
    Ok((targets.mul(&logp)?.sum((1, 2))?.neg()? / rows)?)
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
    let dev = inputs.x_train.device().clone();
    let (n_tr, d) = inputs.x_train.dims2()?;
    let (n_val, n_test, k) = (inputs.x_val.dim(0)?, inputs.x_test.dim(0)?, inputs.k);
    let p = Params::init(d, cfg.hidden, k, m, split_seed, model_seed, &dev)?;
    let mut opt = FusedAdamW::new(
        vec![p.w1.clone(), p.b1.clone(), p.w2.clone(), p.b2.clone()],
        ParamsAdamW {
            lr: cfg.lr,
            weight_decay: cfg.weight_decay,
            ..Default::default()
        },
    );
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
    let first: Vec<usize> = (0..m)
        .map(|j| targets.first_eligible(j).min(cfg.epochs.saturating_sub(1)))
        .collect();
    let mut since_improved = 0;
    for epoch in 0..cfg.epochs {
        targets.fill(epoch, &mut buf);
        let t_all = Tensor::from_slice(&buf, (m, n_tr, k), &dev)?;
        let order = epoch_order(n_tr, split_seed, model_seed, epoch);
        let mut train_sum = vec![0f32; m];
        for idx in order.chunks(cfg.batch) {
            let idx_t = Tensor::from_slice(idx, idx.len(), &dev)?;
            let xb = inputs.x_train.index_select(&idx_t, 0)?;
            let tb = t_all.index_select(&idx_t, 1)?;
            let per_head = per_head_ce(&p.forward(&xb)?, &tb)?;
            let loss = per_head.sum_all()?;
            opt.step(&loss.backward()?)?;
            for (s, l) in train_sum.iter_mut().zip(per_head.to_vec1::<f32>()?) {
                *s += l * idx.len() as f32;
            }
        }
        let val_logits = p.forward(&inputs.x_val)?;
        let val_loss = per_head_ce(&val_logits, &val_t)?.to_vec1::<f32>()?;
        let val_flat = val_logits.flatten_all()?.to_vec1::<f32>()?;
        let test_flat = p
            .forward(&inputs.x_test)?
            .to_dtype(DType::F32)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        let mut improved = false;
        for (j, o) in outs.iter_mut().enumerate() {
            o.train_loss.push(train_sum[j] / n_tr as f32);
            o.val_loss.push(val_loss[j]);
            if epoch >= first[j] && val_loss[j] < best[j] {
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

#[cfg(test)]
mod fused_tests {
    use super::*;
    use candle_nn::{AdamW, Optimizer};

    #[test]
    fn fused_adamw_equals_candles_adamw_bit_for_bit() {
        let dev = Device::Cpu;
        let init: Vec<f32> = (0..50_000)
            .map(|i| ((i * 7919 % 1000) as f32 - 500.0) / 377.0)
            .collect();
        let x = Tensor::from_vec(
            (0..50_000)
                .map(|i| (i % 13) as f32 / 7.0 - 0.9)
                .collect::<Vec<f32>>(),
            50_000,
            &dev,
        )
        .unwrap();
        let params = ParamsAdamW {
            lr: 1e-3,
            weight_decay: 1e-2,
            ..Default::default()
        };
        let (a, b) = (
            Var::from_tensor(&Tensor::from_vec(init.clone(), 50_000, &dev).unwrap()).unwrap(),
            Var::from_tensor(&Tensor::from_vec(init, 50_000, &dev).unwrap()).unwrap(),
        );
        let mut theirs = AdamW::new(vec![a.clone()], params.clone()).unwrap();
        let mut ours = FusedAdamW::new(vec![b.clone()], params);
        for _ in 0..5 {
            let loss = |v: &Var| {
                (v.as_tensor().sqr().unwrap() * &x)
                    .unwrap()
                    .sin()
                    .unwrap()
                    .sum_all()
                    .unwrap()
            };
            theirs.backward_step(&loss(&a)).unwrap();
            ours.step(&loss(&b).backward().unwrap()).unwrap();
        }
        let (va, vb) = (
            a.as_tensor().to_vec1::<f32>().unwrap(),
            b.as_tensor().to_vec1::<f32>().unwrap(),
        );
        assert!(va.iter().zip(&vb).all(|(p, q)| p.to_bits() == q.to_bits()));
    }
}
