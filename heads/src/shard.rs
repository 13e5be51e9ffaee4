//! One thread's share of a group's heads: a contiguous range of heads with their own weights,
//! optimiser moments and buffers, stepped and evaluated on its own.
//!
//! Why: the heads never interact (the loss is a sum of per-head losses, AdamW is element-wise), so a
//! step splits into one independent job per core instead of a chain of parallel calls. Splitting
//! each GEMM, ReLU pass and AdamW pass over the cores separately woke both threads about ten times
//! a step and left the second layer's ~400 small gemm calls and candle's loss on one core; a shard
//! runs all of them for its heads on one thread ([`crate::matmul::serially`]), and the threads
//! meet twice a step (the step, the epoch's evaluation).
//!
//! The bits are those of one stacked model over all the heads: a head's values depend only on its
//! own columns — each GEMM output is one FMA chain over at most 512 terms, whatever the columns
//! around it or the thread count ([`crate::matmul::matmul`]), and candle's loss reduces each head's
//! rows on their own — so the shard count never changes a result (`mlp`'s tests, the committed
//! exports).

use crate::adamw::{Moments, Step};
use crate::first_layer::{self, Activations, FirstLayer};
use crate::loss::{per_head_loss, Loss};
#[cfg(not(target_arch = "wasm32"))]
use crate::matmul::serially;
use crate::second_layer::{self, SecondLayer};
use anyhow::Result;
use candle_core::{Device, Tensor, Var};

/// The heads' weights, as plain memory: both layers run outside candle's autograd
/// ([`FirstLayer`], [`SecondLayer`]); only the loss on the logits is candle's.
pub(crate) struct Params {
    pub first: FirstLayer,
    pub second: SecondLayer,
}

impl Params {
    /// `(m, rows, k)` logits of the rows `x`, into `logits`.
    pub fn forward(&self, x: &[f32], rows: usize, act: &mut Activations, logits: &mut Vec<f32>) {
        self.first.forward(x, rows, act);
        self.second.forward(&act.hid, rows, logits);
    }
}

/// Heads `first .. first + heads` of a group, with everything a step of theirs touches.
pub(crate) struct Shard {
    pub first: usize,
    pub heads: usize,
    params: Params,
    /// AdamW's moments of w1, b1, w2, b2.
    moments: [Moments; 4],
    act: Activations,
    g1: first_layer::Gradients,
    g2: second_layer::Gradients,
    /// The minibatch's targets of these heads, `(heads, rows, k)`.
    tb: Vec<f32>,
    /// The last forward pass's logits, `(heads, rows, k)`.
    pub logits: Vec<f32>,
}

/// What a training step needs besides a shard's own state.
pub(crate) struct Batch<'a> {
    /// The minibatch's input rows, `(rows, d)`.
    pub x: &'a [f32],
    /// Their indices among the training rows.
    pub idx: &'a [u32],
    /// The epoch's targets of every head, `(m, n_train, k)`.
    pub targets: &'a [f32],
    pub n_train: usize,
    pub k: usize,
    pub loss: Loss,
    pub step: Step,
}

impl Shard {
    /// Cuts `m` heads into `n` contiguous shards (one per core; fewer when there are fewer heads),
    /// each starting from `init(heads)`: the group's one initialisation copied to that many heads.
    pub fn split(m: usize, n: usize, init: impl Fn(usize) -> Params) -> Vec<Shard> {
        let n = n.min(m).max(1);
        (0..n)
            .map(|s| {
                let (first, end) = (m * s / n, m * (s + 1) / n);
                let params = init(end - first);
                let moments = [
                    params.first.w1.len(),
                    params.first.b1.len(),
                    params.second.w2.len(),
                    params.second.b2.len(),
                ]
                .map(Moments::new);
                Shard {
                    first,
                    heads: end - first,
                    params,
                    moments,
                    act: Activations::default(),
                    g1: Default::default(),
                    g2: Default::default(),
                    tb: Vec::new(),
                    logits: Vec::new(),
                }
            })
            .collect()
    }

    /// One AdamW step of these heads on a minibatch; returns each head's mean loss on it.
    pub fn step(&mut self, b: &Batch, dev: &Device) -> Result<Vec<f32>> {
        let (rows, k) = (b.idx.len(), b.k);
        // The minibatch's targets, (heads, rows, k), gathered from the epoch's (m, n_train, k).
        self.tb.clear();
        for j in self.first..self.first + self.heads {
            for &i in b.idx {
                let at = (j * b.n_train + i as usize) * k;
                self.tb.extend_from_slice(&b.targets[at..at + k]);
            }
        }
        let tb = Tensor::from_slice(&self.tb, (self.heads, rows, k), dev)?;
        let p = &mut self.params;
        p.forward(b.x, rows, &mut self.act, &mut self.logits);
        // The loss is candle's, from the logits as a leaf: its gradient there starts the layers'
        // own backward passes.
        let z = Var::from_slice(&self.logits, (self.heads, rows, k), dev)?;
        let per_head = per_head_loss(z.as_tensor(), &tb, b.loss)?;
        let store = per_head.sum_all()?.backward()?;
        let dlogits = store
            .get(z.as_tensor())
            .expect("the loss depends on the logits")
            .flatten_all()?
            .to_vec1::<f32>()?;
        p.second
            .backward(&self.act.hid, rows, &dlogits, &mut self.g2);
        p.first.backward(b.x, &self.act, &self.g2.hid, &mut self.g1);
        let [m1, mb1, m2, mb2] = &mut self.moments;
        b.step.apply(&mut p.first.w1, m1, &self.g1.w1);
        b.step.apply(&mut p.first.b1, mb1, &self.g1.b1);
        b.step.apply(&mut p.second.w2, m2, &self.g2.w2);
        b.step.apply(&mut p.second.b2, mb2, &self.g2.b2);
        Ok(per_head.to_vec1::<f32>()?)
    }

    /// These heads' logits of the rows `x` into [`Shard::logits`].
    pub fn forward(&mut self, x: &[f32], rows: usize) {
        self.params
            .forward(x, rows, &mut self.act, &mut self.logits);
    }
}

/// Runs `f` on every shard, each on its own thread with serial kernels (the last on this thread). The results come back in shard order.
pub(crate) fn each<T: Send>(shards: &mut [Shard], f: impl Fn(&mut Shard) -> T + Sync) -> Vec<T> {
    #[cfg(not(target_arch = "wasm32"))]
    if shards.len() > 1 {
        let f = &f;
        return std::thread::scope(|s| {
            let (last, rest) = shards.split_last_mut().expect("at least one shard");
            let handles: Vec<_> = rest
                .iter_mut()
                .map(|sh| s.spawn(move || serially(|| f(sh))))
                .collect();
            let mine = serially(|| f(last));
            let mut out: Vec<T> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            out.push(mine);
            out
        });
    }
    // One shard (wasm32, one core, or a single head): the kernels keep their own threads.
    shards.iter_mut().map(f).collect()
}
