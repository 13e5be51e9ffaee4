//! AdamW as candle-nn's `AdamW::step` computes it, bit for bit, but fused and in place.
//!
//! candle-nn's optimiser runs about fifteen tensor operations per variable per step, each allocating
//! a fresh buffer; with the sweep's 2.2 M stacked first-layer weights those passes were the bulk of a
//! step. Here one pass per variable updates the weights, first and second moments in place (threaded
//! natively, serial in wasm32, which has no threads). Every element follows exactly candle's sequence
//! of f32 operations — `t * s` is `t * s + 0`, `t + s` is `t * 1 + s`, scalars are rounded from f64
//! once — so the results are identical (the test below, and the committed exports).

use anyhow::Result;
use candle_core::backprop::GradStore;
use candle_core::{Tensor, Var};
use candle_nn::ParamsAdamW;

/// The optimiser's hyper-parameters and step count, shared by every variable it updates.
pub struct AdamW {
    p: ParamsAdamW,
    step_t: i32,
}

/// One variable's first and second moments.
pub struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    pub fn new(len: usize) -> Self {
        Moments {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }
}

/// The f32 scalars of one step, rounded from f64 as candle rounds them.
#[derive(Clone, Copy)]
pub struct Step {
    b1: f32,
    b2: f32,
    one_b1: f32,
    one_b2: f32,
    scale_m: f32,
    scale_v: f32,
    decay: f32,
    eps: f32,
    lr: f32,
}

impl AdamW {
    pub fn new(p: ParamsAdamW) -> Self {
        AdamW { p, step_t: 0 }
    }

    /// Starts the next step: every variable of this step is then updated with the returned scalars.
    pub fn next_step(&mut self) -> Step {
        self.step_t += 1;
        let p = &self.p;
        let f = |x: f64| x as f32;
        Step {
            b1: f(p.beta1),
            b2: f(p.beta2),
            one_b1: f(1.0 - p.beta1),
            one_b2: f(1.0 - p.beta2),
            scale_m: f(1.0 / (1.0 - p.beta1.powi(self.step_t))),
            scale_v: f(1.0 / (1.0 - p.beta2.powi(self.step_t))),
            decay: f(1.0 - p.lr * p.weight_decay),
            eps: f(p.eps),
            lr: f(p.lr),
        }
    }
}

impl Step {
    /// One thread's pass, compiled for the widest SIMD this CPU has (pulp's run-time dispatch):
    /// every operation is an element-wise IEEE one (Rust never fuses a multiply and an add), so
    /// the lanes give each element the bits the scalar loop gives it.
    fn serial(&self, t: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]) {
        pulp::Arch::new().dispatch(
            #[inline(always)]
            || self.lanes(t, m, v, g),
        )
    }

    #[inline(always)]
    fn lanes(&self, t: &mut [f32], m: &mut [f32], v: &mut [f32], g: &[f32]) {
        let s = *self;
        for (((t, m), v), &gi) in t.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(g) {
            let nm = (*m * s.b1 + 0.0) + (gi * s.one_b1 + 0.0);
            let nv = (*v * s.b2 + 0.0) + ((gi * gi) * s.one_b2 + 0.0);
            let m_hat = nm * s.scale_m + 0.0;
            let v_hat = nv * s.scale_v + 0.0;
            let nt = *t * s.decay + 0.0;
            let adj = m_hat / (v_hat.sqrt() * 1.0 + s.eps);
            *m = nm;
            *v = nv;
            *t = nt - (adj * s.lr + 0.0);
        }
    }

    /// Updates `theta` in place from its gradient `g`.
    pub fn apply(&self, theta: &mut [f32], mom: &mut Moments, g: &[f32]) {
        let (m, v) = (&mut mom.m[..], &mut mom.v[..]);
        assert!(theta.len() == m.len() && g.len() == m.len());
        // Element-wise, so chunking never changes a bit. wasm32-unknown-unknown has no threads.
        #[cfg(not(target_arch = "wasm32"))]
        {
            let threads = crate::matmul::threads();
            let chunk = theta.len().div_ceil(threads).max(1 << 14);
            if chunk >= theta.len() {
                return self.serial(theta, m, v, g);
            }
            std::thread::scope(|s| {
                for (((t, m), v), g) in theta
                    .chunks_mut(chunk)
                    .zip(m.chunks_mut(chunk))
                    .zip(v.chunks_mut(chunk))
                    .zip(g.chunks(chunk))
                {
                    s.spawn(move || self.serial(t, m, v, g));
                }
            });
        }
        #[cfg(target_arch = "wasm32")]
        self.serial(theta, m, v, g);
    }

    /// Updates a candle variable from its gradient in `grads` (none: left as it is).
    pub fn apply_var(&self, var: &Var, mom: &mut Moments, grads: &GradStore) -> Result<()> {
        let Some(g) = grads.get(var.as_tensor()) else {
            return Ok(());
        };
        let g = g.flatten_all()?.to_vec1::<f32>()?;
        let mut theta = var.as_tensor().flatten_all()?.to_vec1::<f32>()?;
        self.apply(&mut theta, mom, &g);
        var.set(&Tensor::from_vec(theta, var.shape(), var.device())?)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;
    use candle_nn::Optimizer;

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
            Var::from_tensor(&Tensor::from_vec(init.clone(), 50_000, &dev).unwrap()).unwrap(),
        );
        // A third copy as a plain slice: the path the first layer's weights take.
        let mut c = init;
        let mut theirs = candle_nn::AdamW::new(vec![a.clone()], params.clone()).unwrap();
        let mut ours = AdamW::new(params);
        let (mut mb, mut mc) = (Moments::new(50_000), Moments::new(50_000));
        let loss = |v: &Tensor| (v.sqr().unwrap() * &x).unwrap().sin().unwrap().sum_all();
        for _ in 0..5 {
            theirs.backward_step(&loss(a.as_tensor()).unwrap()).unwrap();
            let step = ours.next_step();
            step.apply_var(
                &b,
                &mut mb,
                &loss(b.as_tensor()).unwrap().backward().unwrap(),
            )
            .unwrap();
            let cv = Var::from_slice(&c, 50_000, &dev).unwrap();
            let grads = loss(cv.as_tensor()).unwrap().backward().unwrap();
            let g = grads.get(cv.as_tensor()).unwrap().to_vec1::<f32>().unwrap();
            step.apply(&mut c, &mut mc, &g);
        }
        let (va, vb) = (
            a.as_tensor().to_vec1::<f32>().unwrap(),
            b.as_tensor().to_vec1::<f32>().unwrap(),
        );
        assert!(va.iter().zip(&vb).all(|(p, q)| p.to_bits() == q.to_bits()));
        assert!(va.iter().zip(&c).all(|(p, q)| p.to_bits() == q.to_bits()));
    }
}
