//! Benchmark helper (not a test): the floor under one sweep group's training on this machine, the
//! work that no implementation of the same training can leave out, timed alone with the sweep's own
//! kernels — per minibatch the stacked first layer's two GEMMs (`X·W1` and `Xᵀ·dZ`; that layer
//! holds all but ~1% of the FLOPs) and one AdamW pass over its weights, per epoch the forward GEMM
//! of the validation and test items. Same shapes as one `annosat sweep` group (the item split of
//! split seed 42), arbitrary values, best of three. scripts/bench-trainer.sh prints it beside the
//! sweep and PyTorch: a whole group can only be faster than this floor if the kernels are.
//!
//!   floor <items> <features> <heads> <hidden> <batch> <epochs> [folds]
//!   (`folds`: the group is fold 0 of a k-fold export, as the app retrains them; else split seed 42)

use annosat_heads::adamw::{AdamW, Moments, Step};
use annosat_heads::matmul::{matmul, serially};
use annosat_heads::split::group_split;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let (&[items, d, heads, hidden, batch, epochs], folds) = (&a[..a.len().min(6)], a.get(6))
    else {
        anyhow::bail!("usage: floor <items> <features> <heads> <hidden> <batch> <epochs> [folds]");
    };
    let parts = match folds {
        Some(&k) => group_split(items, 0, Some(k as u64)),
        None => group_split(items, 42, None),
    };
    let (n_tr, n_eval) = (parts[0].len(), parts[1].len() + parts[2].len());
    let mh = heads * hidden;
    let fill = |n: usize, s: usize| -> Vec<f32> {
        (0..n)
            .map(|i| ((i as u64 * s as u64 % 997) as f32 - 498.0) / 4000.0)
            .collect()
    };
    let (x, x_eval) = (fill(n_tr * d, 31), fill(n_eval * d, 37));
    // As the sweep cuts them (heads/src/shard.rs): one contiguous shard of heads per core, each
    // stepped on its own thread with serial kernels.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let shards = cores.min(heads).max(1);
    let mut times = Vec::new();
    let (mut gemm_s, mut adam_s) = (0.0, 0.0);
    for _ in 0..3 {
        let mut opt = AdamW::new(candle_nn::ParamsAdamW {
            lr: 1e-3,
            weight_decay: 1e-2,
            ..Default::default()
        });
        let mut parts: Vec<Part> = (0..shards)
            .map(|s| {
                Part::new(
                    d,
                    hidden * (heads * (s + 1) / shards - heads * s / shards),
                    batch,
                    n_eval,
                )
            })
            .collect();
        let t0 = Instant::now();
        for _ in 0..epochs {
            for start in (0..n_tr).step_by(batch) {
                let rows = batch.min(n_tr - start);
                let xb = &x[start * d..(start + rows) * d];
                let step = opt.next_step();
                on_each(&mut parts, |p| p.step(xb, rows, d, &step));
            }
            on_each(&mut parts, |p| p.eval(&x_eval, n_eval, d));
        }
        let total = t0.elapsed().as_secs_f64();
        if times.iter().all(|&t| total < t) {
            // The last shard's thread (this one): its GEMM and AdamW time.
            let last = parts.last().expect("a shard");
            (gemm_s, adam_s) = (last.gemm, last.adam);
        }
        times.push(total);
    }
    let best = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let steps = n_tr.div_ceil(batch) * epochs;
    let flops = 2.0 * (epochs * (2 * n_tr + n_eval)) as f64 * (d * mh) as f64;
    println!(
        "floor: {best:.3} s ({steps} steps in {shards} shard(s) of heads, one per core; per core: GEMMs {gemm_s:.3} s, {:.0} GFLOP/s in all; AdamW over {:.2} M weights {adam_s:.3} s)",
        flops / gemm_s / 1e9,
        (d * mh) as f64 / 1e6,
    );
    Ok(())
}

/// One core's shard: its heads' first-layer weights, gradient, moments and outputs.
struct Part {
    mh: usize,
    w1: Vec<f32>,
    g: Vec<f32>,
    dz: Vec<f32>,
    out: Vec<f32>,
    mom: Moments,
    gemm: f64,
    adam: f64,
}

impl Part {
    fn new(d: usize, mh: usize, batch: usize, n_eval: usize) -> Self {
        let fill = |n: usize, s: usize| -> Vec<f32> {
            (0..n)
                .map(|i| ((i as u64 * s as u64 % 997) as f32 - 498.0) / 4000.0)
                .collect()
        };
        Part {
            mh,
            w1: fill(d * mh, 17),
            g: vec![0f32; d * mh],
            dz: fill(batch * mh, 13),
            out: vec![0f32; n_eval.max(batch) * mh],
            mom: Moments::new(d * mh),
            gemm: 0.0,
            adam: 0.0,
        }
    }

    fn step(&mut self, xb: &[f32], rows: usize, d: usize, step: &Step) {
        let mh = self.mh;
        self.eval(xb, rows, d);
        let t = Instant::now();
        matmul(
            (d, mh, rows),
            (&mut self.g, mh),
            (xb, d, 1),
            (&self.dz, 1, mh),
        );
        let t2 = Instant::now();
        step.apply(&mut self.w1, &mut self.mom, &self.g);
        self.gemm += (t2 - t).as_secs_f64();
        self.adam += t2.elapsed().as_secs_f64();
    }

    /// The forward GEMM `x · W1` of `rows` rows (a minibatch's, or the evaluation items').
    fn eval(&mut self, x: &[f32], rows: usize, d: usize) {
        let mh = self.mh;
        let t = Instant::now();
        matmul(
            (rows, mh, d),
            (&mut self.out, mh),
            (x, 1, d),
            (&self.w1, 1, mh),
        );
        self.gemm += t.elapsed().as_secs_f64();
    }
}

/// `f` on every part, each on its own thread with serial kernels (the last on this one).
fn on_each(parts: &mut [Part], f: impl Fn(&mut Part) + Sync) {
    let f = &f;
    std::thread::scope(|s| {
        let (last, rest) = parts.split_last_mut().expect("a shard");
        for p in rest {
            s.spawn(move || serially(|| f(p)));
        }
        serially(|| f(last));
    });
}
