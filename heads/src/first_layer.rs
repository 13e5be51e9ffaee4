//! The stacked heads' first layer, `relu(X · [W1_1 … W1_M] + b1)`, forward and backward outside
//! candle's autograd.
//!
//! Why: candle's matmul backward always computes the gradient of both operands, so training through
//! `X · W1` spent a third GEMM as large as the forward on `grad · W1ᵀ`, the gradient of the input
//! rows, which are data and never used; and the step's bias add, ReLU and their backward each
//! allocated, zeroed and copied 64 × 8,448-float buffers, and the optimiser copied the 2.2 M weights
//! in and out of tensors. Here the two GEMMs that matter write into buffers reused across steps, and
//! the optimiser updates the weights in place.
//!
//! Bit-identical to the candle graph it replaces (the committed exports regenerate byte for byte,
//! trainer/tests/sweep.rs): [`matmul`](crate::matmul::matmul) makes the gemm call candle's CPU matmul makes — same shapes,
//! strides, alpha/beta and parallelism — and each elementwise step repeats candle's f32 operations
//! in candle's order: `z = (X·W1) + b1`, `max(z, 0)`; backward `0 + g · [z ≥ 0]`, the bias gradient
//! summed over rows in row order from 0, and the weights' gradient as candle's `Xᵀ · dZ` (Xᵀ a
//! strided view, not a copy).

use crate::matmul::{in_parallel, matmul, par_zip, threads};

/// The first layers of `heads` heads of `hidden` units each over `d` inputs, stacked: `w1` is
/// `(d, heads · hidden)` row-major, head j's units in columns `j·hidden .. (j+1)·hidden`.
pub struct FirstLayer {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub d: usize,
    pub heads: usize,
    pub hidden: usize,
}

/// One forward pass's results, kept for the backward pass; reused across steps. Both are
/// `(rows, heads · hidden)` row-major, as the GEMM writes them; the second layer reads each head's
/// columns through strides.
#[derive(Default)]
pub struct Activations {
    rows: usize,
    /// The pre-activations `X·W1 + b1` (the ReLU's mask comes from them).
    z: Vec<f32>,
    /// `relu(z)`.
    pub hid: Vec<f32>,
}

/// The gradients of one backward pass; reused across steps.
#[derive(Default)]
pub struct Gradients {
    /// `(rows, heads · hidden)`: the gradient at `z`.
    dz: Vec<f32>,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
}

impl FirstLayer {
    fn width(&self) -> usize {
        self.heads * self.hidden
    }

    /// `x` is `(rows, d)` row-major.
    pub fn forward(&self, x: &[f32], rows: usize, act: &mut Activations) {
        let mh = self.width();
        assert_eq!(x.len(), rows * self.d);
        act.rows = rows;
        act.z.resize(rows * mh, 0.0);
        act.hid.resize(rows * mh, 0.0);
        // Candle: x.matmul(w1), both contiguous.
        matmul(
            (rows, mh, self.d),
            (&mut act.z, mh),
            (x, 1, self.d),
            (&self.w1, 1, mh),
        );
        // Candle: broadcast_add(b1), then relu (`max(z, 0)`); threads take rows.
        par_zip(&mut act.z, &mut act.hid, mh, |_, z, hid| {
            for (z, hid) in z.chunks_mut(mh).zip(hid.chunks_mut(mh)) {
                for ((z, hid), b) in z.iter_mut().zip(hid.iter_mut()).zip(&self.b1) {
                    *z += *b;
                    *hid = z.max(0.0);
                }
            }
        });
    }

    /// The gradients of `w1` and `b1` from `grad_hid`, the loss's gradient at `act.hid` (same
    /// layout), for the rows `x` that `act` was computed from.
    pub fn backward(&self, x: &[f32], act: &Activations, grad_hid: &[f32], g: &mut Gradients) {
        let (mh, rows) = (self.width(), act.rows);
        assert!(
            mh > 0,
            "a first layer needs at least one head and one hidden unit"
        );
        assert_eq!(grad_hid.len(), rows * mh);
        g.dz.resize(rows * mh, 0.0);
        g.b1.resize(mh, 0.0);
        g.w1.resize(self.d * mh, 0.0);
        // Candle's relu backward, `0 + grad · (z ≥ 0)`, and the bias gradient: each column summed
        // over rows in row order from 0, as candle's sum over a leading dimension does. One pass;
        // threads take column ranges of every row.
        let cols = mh.div_ceil(threads().min(mh.div_ceil(64)).max(1));
        let mut parts: Vec<Vec<&mut [f32]>> = (0..mh.div_ceil(cols)).map(|_| Vec::new()).collect();
        for row in g.dz.chunks_mut(mh) {
            for (part, seg) in parts.iter_mut().zip(row.chunks_mut(cols)) {
                part.push(seg);
            }
        }
        let z = &act.z;
        let work = |first: usize, dz_rows: Vec<&mut [f32]>, b1: &mut [f32]| {
            b1.fill(0.0);
            for (r, dz) in dz_rows.into_iter().enumerate() {
                let at = r * mh + first;
                let (z, gh) = (&z[at..at + dz.len()], &grad_hid[at..at + dz.len()]);
                // Zipped slices: no bounds checks, so the loop runs in SIMD lanes (same bits).
                for (((dz, &z), &gh), b) in dz.iter_mut().zip(z).zip(gh).zip(b1.iter_mut()) {
                    let mask = if z >= 0.0 { 1.0f32 } else { 0.0 };
                    *dz = 0.0 + gh * mask;
                    *b += *dz;
                }
            }
        };
        in_parallel(
            parts
                .into_iter()
                .zip(g.b1.chunks_mut(cols))
                .enumerate()
                .map(|(i, (dz_rows, b1))| move || work(i * cols, dz_rows, b1)),
        );
        // Candle: x.t().matmul(dz) — lhs (d, rows) read through strides (column stride d, row
        // stride 1), no copy.
        matmul(
            (self.d, mh, rows),
            (&mut g.w1, mh),
            (x, self.d, 1),
            (&g.dz, 1, mh),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Tensor, Var};

    /// The layer against the candle graph it replaces, on shapes like a sweep's (several heads,
    /// a minibatch, negative and zero pre-activations): forward values and both gradients bit for
    /// bit.
    #[test]
    fn equals_candles_graph_bit_for_bit() {
        let (rows, d, heads, hidden) = (150, 29, 20, 8);
        let mh = heads * hidden;
        let val = |i: usize, s: usize| ((i * s % 97) as f32 - 48.0) / 61.0;
        let x: Vec<f32> = (0..rows * d).map(|i| val(i, 31)).collect();
        let w1: Vec<f32> = (0..d * mh).map(|i| val(i, 17) / 4.0).collect();
        let mut b1: Vec<f32> = (0..mh).map(|i| val(i, 7) / 3.0).collect();
        b1[3] = 0.0;
        let upstream: Vec<f32> = (0..rows * mh).map(|i| val(i, 13)).collect();
        let layer = FirstLayer {
            w1: w1.clone(),
            b1: b1.clone(),
            d,
            heads,
            hidden,
        };
        let mut act = Activations::default();
        layer.forward(&x, rows, &mut act);
        let mut g = Gradients::default();
        layer.backward(&x, &act, &upstream, &mut g);

        let dev = Device::Cpu;
        let xt = Tensor::from_slice(&x, (rows, d), &dev).unwrap();
        let w = Var::from_slice(&w1, (d, mh), &dev).unwrap();
        let b = Var::from_slice(&b1, mh, &dev).unwrap();
        let hid = xt
            .matmul(w.as_tensor())
            .unwrap()
            .broadcast_add(b.as_tensor())
            .unwrap()
            .relu()
            .unwrap();
        let up = Tensor::from_slice(&upstream, (rows, mh), &dev).unwrap();
        let grads = (hid.clone() * up)
            .unwrap()
            .sum_all()
            .unwrap()
            .backward()
            .unwrap();
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        let flat = |t: &Tensor| t.flatten_all().unwrap().to_vec1::<f32>().unwrap();
        assert_eq!(bits(&act.hid), bits(&flat(&hid)));
        assert_eq!(bits(&g.w1), bits(&flat(grads.get(w.as_tensor()).unwrap())));
        assert_eq!(bits(&g.b1), bits(&flat(grads.get(b.as_tensor()).unwrap())));
    }
}
