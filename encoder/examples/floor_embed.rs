//! Benchmark helper (not a test): the floor under embedding texts with a BERT-family encoder, the
//! matrix products no implementation of the same forward pass can leave out, timed alone with
//! candle's matmul as candle-transformers' `BertModel` calls it — per layer the query, key, value
//! and output projections, the feed-forward pair, and attention's two batched products — on the
//! batch shapes `time_embed` prints. Arbitrary values, best of three. It builds for wasm32-wasip1
//! too, so `scripts/bench-models-wasm.sh` times it in headless Chromium (tests/browser/wasi-run.mjs)
//! beside the same floor natively: the tab can only embed faster than this floor if the kernels are faster.
//!
//!   floor_embed <hidden> <intermediate> <layers> <attention heads> <b>x<len>…

use candle_core::{Device, Tensor};
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: floor_embed <hidden> <intermediate> <layers> <attention heads> <b>x<len>…";
    if a.len() < 5 {
        anyhow::bail!(usage);
    }
    let num = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| anyhow::anyhow!("{s:?}: {usage}"))
    };
    let (hidden, inter, layers, heads) = (num(&a[0])?, num(&a[1])?, num(&a[2])?, num(&a[3])?);
    let shapes = a[4..]
        .iter()
        .map(|s| {
            let (b, len) = s.split_once('x').ok_or_else(|| anyhow::anyhow!(usage))?;
            Ok((num(b)?, num(len)?))
        })
        .collect::<anyhow::Result<Vec<(usize, usize)>>>()?;
    let dev = Device::Cpu;
    let fill = |shape: &[usize], seed: usize| -> candle_core::Result<Tensor> {
        let n: usize = shape.iter().product();
        let v: Vec<f32> = (0..n)
            .map(|i| ((i as u64 * seed as u64 % 997) as f32 - 498.0) / 4000.0)
            .collect();
        Tensor::from_vec(v, shape, &dev)
    };
    // One layer's weights, as the checkpoint stores them: (out, in), used transposed.
    let w = [
        fill(&[hidden, hidden], 3)?,
        fill(&[inter, hidden], 5)?,
        fill(&[hidden, inter], 7)?,
    ];
    let dh = hidden / heads;
    let mut times = Vec::new();
    let mut flops = 0.0;
    for _ in 0..3 {
        flops = 0.0;
        let mut total = 0.0;
        for &(b, len) in &shapes {
            // The token rows as candle-nn's Linear multiplies them: (b·len, in) · Wᵀ.
            let x = fill(&[b * len, hidden], 11)?;
            let mid = fill(&[b * len, inter], 13)?;
            let q = fill(&[b, heads, len, dh], 17)?;
            let k = fill(&[b, heads, len, dh], 19)?;
            let p = fill(&[b, heads, len, len], 23)?;
            let t = Instant::now();
            for _ in 0..layers {
                for _ in 0..4 {
                    x.matmul(&w[0].t()?)?; // query, key, value, attention output
                }
                q.matmul(&k.t()?)?; // scores
                p.matmul(&k)?; // probabilities · values
                x.matmul(&w[1].t()?)?; // feed-forward up
                mid.matmul(&w[2].t()?)?; // feed-forward down
            }
            total += t.elapsed().as_secs_f64();
            let tokens = (b * len) as f64;
            flops += layers as f64
                * 2.0
                * (tokens * (4 * hidden * hidden + 2 * hidden * inter) as f64
                    + 2.0 * (b * heads * len * len * dh) as f64);
        }
        times.push(total);
    }
    let best = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let texts: usize = shapes.iter().map(|s| s.0).sum();
    println!(
        "floor: {best:.3} s ({texts} texts in {} batches; {:.1} GFLOP at {:.0} GFLOP/s)",
        shapes.len(),
        flops / 1e9,
        flops / best / 1e9,
    );
    Ok(())
}
