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

/// One forward pass's results, kept for the backward pass; reused across steps.
#[derive(Default)]
pub struct Activations {
    rows: usize,
    /// `(rows, heads · hidden)`: `X · W1`, as the GEMM writes it.
    xw: Vec<f32>,
    /// `(heads, rows, hidden)`: the pre-activations `X·W1 + b1` (the ReLU's mask comes from them).
    z: Vec<f32>,
    /// `(heads, rows, hidden)`: `relu(z)` laid out per head, as the second layer's batched matmul
    /// takes it.
    pub hid: Vec<f32>,
}

/// The gradients of one backward pass; reused across steps.
#[derive(Default)]
pub struct Gradients {
    /// `(rows, heads · hidden)`: the gradient at `z`, laid out as the weights' GEMM reads it.
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
        let (mh, h) = (self.width(), self.hidden);
        assert_eq!(x.len(), rows * self.d);
        act.rows = rows;
        for v in [&mut act.xw, &mut act.z, &mut act.hid] {
            v.resize(rows * mh, 0.0);
        }
        // Candle: x.matmul(w1), both contiguous.
        matmul(
            (rows, mh, self.d),
            &mut act.xw,
            (x, 1, self.d),
            (&self.w1, 1, mh),
        );
        // Per head (threads take whole heads): z = xw + b1, hid = max(z, 0).
        let xw = &act.xw;
        let per_head = |j: usize, z: &mut [f32], hid: &mut [f32]| {
            let b = &self.b1[j * h..(j + 1) * h];
            for r in 0..rows {
                let from = &xw[r * mh + j * h..r * mh + (j + 1) * h];
                let (z, hid) = (&mut z[r * h..(r + 1) * h], &mut hid[r * h..(r + 1) * h]);
                for u in 0..h {
                    z[u] = from[u] + b[u];
                    hid[u] = z[u].max(0.0);
                }
            }
        };
        let block = rows * h;
        par_zip(&mut act.z, &mut act.hid, block, |first, z, hid| {
            for (i, (z, hid)) in z.chunks_mut(block).zip(hid.chunks_mut(block)).enumerate() {
                per_head(first + i, z, hid);
            }
        });
    }

    /// The gradients of `w1` and `b1` from `grad_hid`, the loss's gradient at `act.hid` (same
    /// layout), for the rows `x` that `act` was computed from.
    pub fn backward(&self, x: &[f32], act: &Activations, grad_hid: &[f32], g: &mut Gradients) {
        let (mh, h, rows) = (self.width(), self.hidden, act.rows);
        assert_eq!(grad_hid.len(), rows * mh);
        g.dz.resize(rows * mh, 0.0);
        g.b1.resize(mh, 0.0);
        g.w1.resize(self.d * mh, 0.0);
        // Candle's relu backward, `0 + grad · (z ≥ 0)`, into the GEMM's layout, and the bias
        // gradient: each column summed over rows in row order from 0, as candle's sum over a
        // leading dimension does. One pass; threads take whole heads (each row's columns of them).
        let (z, parts) = (&act.z, threads().min(self.heads).max(1));
        let cols = self.heads.div_ceil(parts) * h;
        let mut segments: Vec<Vec<&mut [f32]>> = (0..parts).map(|_| Vec::new()).collect();
        for row in g.dz.chunks_mut(mh) {
            for (part, seg) in segments.iter_mut().zip(row.chunks_mut(cols)) {
                part.push(seg);
            }
        }
        let work = |first: usize, dz_rows: Vec<&mut [f32]>, b1: &mut [f32]| {
            b1.fill(0.0);
            for (r, dz) in dz_rows.into_iter().enumerate() {
                for (jj, (dz, b1)) in dz.chunks_mut(h).zip(b1.chunks_mut(h)).enumerate() {
                    let at = ((first + jj) * rows + r) * h;
                    let (z, gh) = (&z[at..at + h], &grad_hid[at..at + h]);
                    for u in 0..h {
                        let mask = if z[u] >= 0.0 { 1.0f32 } else { 0.0 };
                        dz[u] = 0.0 + gh[u] * mask;
                        b1[u] += dz[u];
                    }
                }
            }
        };
        let heads_per = cols / h;
        in_parallel(
            segments
                .into_iter()
                .zip(g.b1.chunks_mut(cols))
                .enumerate()
                .map(|(i, (dz_rows, b1))| move || work(i * heads_per, dz_rows, b1)),
        );
        // Candle: x.t().matmul(dz) — lhs (d, rows) read through strides (column stride d, row
        // stride 1), no copy.
        matmul(
            (self.d, mh, rows),
            &mut g.w1,
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
            .unwrap()
            .reshape((rows, heads, hidden))
            .unwrap()
            .transpose(0, 1)
            .unwrap()
            .contiguous()
            .unwrap();
        let up = Tensor::from_slice(&upstream, (heads, rows, hidden), &dev).unwrap();
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
