//! The stacked heads' second layers, `logits_j = hid_j · W2_j + b2_j` per head, forward and backward
//! outside candle's autograd; only the loss (log-softmax cross-entropy on the `(heads, rows, K)`
//! logits) stays candle's.
//!
//! Why: through candle, the backward pass of this small batched matmul allocated, zeroed and added
//! three `(heads, rows, hidden)` buffers per step (the hidden units' gradient), about a millisecond
//! of a step that does 2.5 ms of GEMM. Here the per-head gemm calls candle's batched matmul makes
//! (forward, `grad · W2ᵀ` and `hidᵀ · grad`) read each head's hidden units in place and write into
//! reused buffers, the
//! bias is added as candle adds it, and its gradient is summed over rows in row order from 0 as
//! candle's sum over a middle dimension does — so the results are candle's bit for bit (the test
//! below; the committed exports).

use crate::matmul::matmul;

/// `heads` second layers of `hidden` inputs and `k` outputs: `w2` is `(heads, hidden, k)` and `b2`
/// `(heads, k)`, row-major.
pub struct SecondLayer {
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub heads: usize,
    pub hidden: usize,
    pub k: usize,
}

/// The gradients of one backward pass; reused across steps.
#[derive(Default)]
pub struct Gradients {
    /// `(rows, heads · hidden)`: the loss's gradient at the hidden units.
    pub hid: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl SecondLayer {
    /// `(heads, rows, k)` logits into `out` from `hid`, `(rows, heads · hidden)` as the first
    /// layer leaves it (head j's units in columns `j·hidden ..`, read in place).
    pub fn forward(&self, hid: &[f32], rows: usize, out: &mut Vec<f32>) {
        let (h, k, mh) = (self.hidden, self.k, self.heads * self.hidden);
        assert_eq!(hid.len(), rows * mh);
        out.resize(self.heads * rows * k, 0.0);
        for j in 0..self.heads {
            let o = &mut out[j * rows * k..(j + 1) * rows * k];
            // Candle: hid.matmul(w2), batched over heads.
            matmul(
                (rows, k, h),
                (o, k),
                (&hid[j * h..], 1, mh),
                (&self.w2[j * h * k..(j + 1) * h * k], 1, k),
            );
            // Candle: broadcast_add(b2), b2 (heads, 1, k).
            let b = &self.b2[j * k..(j + 1) * k];
            for row in o.chunks_mut(k) {
                for (x, b) in row.iter_mut().zip(b) {
                    *x += *b;
                }
            }
        }
    }

    /// The gradients at `hid` (same layout) and of `w2`, `b2` from `dlogits`, the loss's gradient
    /// at the logits.
    pub fn backward(&self, hid: &[f32], rows: usize, dlogits: &[f32], g: &mut Gradients) {
        let (h, k, m) = (self.hidden, self.k, self.heads);
        assert_eq!(dlogits.len(), m * rows * k);
        g.hid.resize(rows * m * h, 0.0);
        g.w2.resize(m * h * k, 0.0);
        g.b2.clear();
        g.b2.resize(m * k, 0.0);
        for j in 0..m {
            let dl = &dlogits[j * rows * k..(j + 1) * rows * k];
            let w2 = &self.w2[j * h * k..(j + 1) * h * k];
            // Candle: grad.matmul(w2.t()) — W2ᵀ read through strides (column stride k, row stride 1).
            matmul(
                (rows, h, k),
                (&mut g.hid[j * h..], m * h),
                (dl, 1, k),
                (w2, k, 1),
            );
            // Candle: hid.t().matmul(grad) — hidᵀ read through strides (column stride: a row of
            // hid, row stride 1).
            matmul(
                (h, k, rows),
                (&mut g.w2[j * h * k..(j + 1) * h * k], k),
                (&hid[j * h..], m * h, 1),
                (dl, 1, k),
            );
            let b = &mut g.b2[j * k..(j + 1) * k];
            for row in dl.chunks(k) {
                for (b, v) in b.iter_mut().zip(row) {
                    *b += *v;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Tensor, Var};

    /// The layer against candle's batched matmul and broadcast add it replaces, and their
    /// gradients, bit for bit (three classes and two, as the datasets have).
    #[test]
    fn equals_candles_graph_bit_for_bit() {
        for (rows, heads, hidden, k) in [(64, 7, 64, 3), (37, 5, 16, 2)] {
            let val = |i: usize, s: usize| ((i * s % 97) as f32 - 48.0) / 61.0;
            // (rows, heads · hidden), as the first layer leaves it; candle gets the per-head copy.
            let hid: Vec<f32> = (0..heads * rows * hidden)
                .map(|i| val(i, 31).max(0.0))
                .collect();
            let per_head: Vec<f32> = (0..heads)
                .flat_map(|j| (0..rows).flat_map(move |r| (0..hidden).map(move |u| (j, r, u))))
                .map(|(j, r, u)| hid[r * heads * hidden + j * hidden + u])
                .collect();
            let w2: Vec<f32> = (0..heads * hidden * k).map(|i| val(i, 17) / 4.0).collect();
            let b2: Vec<f32> = (0..heads * k).map(|i| val(i, 7) / 3.0).collect();
            let up: Vec<f32> = (0..heads * rows * k).map(|i| val(i, 13)).collect();
            let layer = SecondLayer {
                w2: w2.clone(),
                b2: b2.clone(),
                heads,
                hidden,
                k,
            };
            let mut logits = Vec::new();
            layer.forward(&hid, rows, &mut logits);
            let mut g = Gradients::default();
            layer.backward(&hid, rows, &up, &mut g);

            let dev = Device::Cpu;
            let h = Var::from_slice(&per_head, (heads, rows, hidden), &dev).unwrap();
            let w = Var::from_slice(&w2, (heads, hidden, k), &dev).unwrap();
            let b = Var::from_slice(&b2, (heads, 1, k), &dev).unwrap();
            let z = h
                .as_tensor()
                .matmul(w.as_tensor())
                .unwrap()
                .broadcast_add(b.as_tensor())
                .unwrap();
            let upt = Tensor::from_slice(&up, (heads, rows, k), &dev).unwrap();
            let grads = (z.clone() * upt)
                .unwrap()
                .sum_all()
                .unwrap()
                .backward()
                .unwrap();
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            let flat = |t: &Tensor| t.flatten_all().unwrap().to_vec1::<f32>().unwrap();
            assert_eq!(bits(&logits), bits(&flat(&z)));
            let gh = flat(grads.get(h.as_tensor()).unwrap());
            let gh: Vec<f32> = (0..rows * heads * hidden)
                .map(|i| {
                    let (r, j, u) = (i / (heads * hidden), i / hidden % heads, i % hidden);
                    gh[(j * rows + r) * hidden + u]
                })
                .collect();
            assert_eq!(bits(&g.hid), bits(&gh));
            assert_eq!(bits(&g.w2), bits(&flat(grads.get(w.as_tensor()).unwrap())));
            assert_eq!(bits(&g.b2), bits(&flat(grads.get(b.as_tensor()).unwrap())));
        }
    }
}
