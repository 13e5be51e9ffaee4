//! Benchmark helper (not a test): the floor under one sweep group's training on this machine, the
//! work that no implementation of the same training can leave out, timed alone with the sweep's own
//! kernels — per minibatch the stacked first layer's two GEMMs (`X·W1` and `Xᵀ·dZ`; that layer
//! holds all but ~1% of the FLOPs) and one AdamW pass over its weights, per epoch the forward GEMM
//! of the validation and test items. Same shapes as one `annosat sweep` group (the item split of
//! split seed 42), arbitrary values, best of three. scripts/bench-trainer.sh prints it beside the
//! sweep and PyTorch: a whole group can only be faster than this floor if the kernels are.
//!
//!   floor <items> <features> <heads> <hidden> <batch> <epochs>

use annosat_heads::adamw::{AdamW, Moments};
use annosat_heads::matmul::matmul;
use annosat_heads::split::group_split;
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let [items, d, heads, hidden, batch, epochs] = a[..] else {
        anyhow::bail!("usage: floor <items> <features> <heads> <hidden> <batch> <epochs>");
    };
    let parts = group_split(items, 42, None);
    let (n_tr, n_eval) = (parts[0].len(), parts[1].len() + parts[2].len());
    let mh = heads * hidden;
    let fill = |n: usize, s: usize| -> Vec<f32> {
        (0..n)
            .map(|i| ((i * s % 997) as f32 - 498.0) / 4000.0)
            .collect()
    };
    let (x, x_eval) = (fill(n_tr * d, 31), fill(n_eval * d, 37));
    let mut w1 = fill(d * mh, 17);
    let (mut out, dz) = (vec![0f32; n_eval.max(batch) * mh], fill(batch * mh, 13));
    let mut g = vec![0f32; d * mh];
    let mut times = Vec::new();
    let (mut gemm_s, mut adam_s) = (0.0, 0.0);
    for _ in 0..3 {
        let mut opt = AdamW::new(candle_nn::ParamsAdamW {
            lr: 1e-3,
            weight_decay: 1e-2,
            ..Default::default()
        });
        let mut mom = Moments::new(d * mh);
        let (mut gemm, mut adam) = (0.0, 0.0);
        let t0 = Instant::now();
        for _ in 0..epochs {
            for start in (0..n_tr).step_by(batch) {
                let rows = batch.min(n_tr - start);
                let xb = &x[start * d..(start + rows) * d];
                let t = Instant::now();
                matmul((rows, mh, d), (&mut out, mh), (xb, 1, d), (&w1, 1, mh));
                matmul((d, mh, rows), (&mut g, mh), (xb, d, 1), (&dz, 1, mh));
                let t2 = Instant::now();
                opt.next_step().apply(&mut w1, &mut mom, &g);
                (gemm, adam) = (
                    gemm + (t2 - t).as_secs_f64(),
                    adam + t2.elapsed().as_secs_f64(),
                );
            }
            let t = Instant::now();
            matmul(
                (n_eval, mh, d),
                (&mut out, mh),
                (&x_eval, 1, d),
                (&w1, 1, mh),
            );
            gemm += t.elapsed().as_secs_f64();
        }
        let total = t0.elapsed().as_secs_f64();
        if times.iter().all(|&t| total < t) {
            (gemm_s, adam_s) = (gemm, adam);
        }
        times.push(total);
    }
    let best = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let steps = n_tr.div_ceil(batch) * epochs;
    let flops = 2.0 * (epochs * (2 * n_tr + n_eval) * d * mh) as f64;
    println!(
        "floor: {best:.3} s ({steps} steps: GEMMs {gemm_s:.3} s, {:.0} GFLOP/s; AdamW over {:.2} M weights {adam_s:.3} s)",
        flops / gemm_s / 1e9,
        (d * mh) as f64 / 1e6,
    );
    Ok(())
}
