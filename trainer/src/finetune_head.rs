//! The MLP head both fine-tunes put on the encoder (`finetune`: the whole encoder; `finetune-top`:
//! its top layers over cached lower-layer states): features → h (ReLU) → K logits, as candle `Var`s
//! so the optimiser trains it with the encoder. Initialised like annosat-heads' MLP (uniform
//! ±1/√fan-in from the seeded init stream), each fine-tune on its own stream tag so their draws stay
//! what their exports were made with.

use anyhow::Result;
use candle_core::{Device, Tensor, Var};

pub struct Head {
    w1: Var,
    b1: Var,
    w2: Var,
    b2: Var,
}

/// The init stream tags: `finetune`'s and `finetune-top`'s heads.
pub const TAG_FINETUNE: u64 = 0xF1;
pub const TAG_FINETUNE_TOP: u64 = 0xF2;

impl Head {
    /// A d → h → k head for model seed `seed`, drawn from the init stream tagged `tag`.
    pub fn new(d: usize, h: usize, k: usize, seed: u64, tag: u64, dev: &Device) -> Result<Head> {
        let mut rng = annosat_core::sample::stream(seed, annosat_heads::mlp::PURPOSE_INIT, tag, 0);
        let mut uni = |bound: f32, n: usize| annosat_heads::mlp::uniform(&mut rng, bound, n);
        let (s1, s2) = (1.0 / (d as f32).sqrt(), 1.0 / (h as f32).sqrt());
        let var = |v: Vec<f32>, shape: (usize, usize)| -> Result<Var> {
            Ok(Var::from_tensor(&Tensor::from_vec(v, shape, dev)?)?)
        };
        Ok(Head {
            w1: var(uni(s1, d * h), (d, h))?,
            b1: var(uni(s1, h), (1, h))?,
            w2: var(uni(s2, h * k), (h, k))?,
            b2: var(uni(s2, k), (1, k))?,
        })
    }

    pub fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let h = x
            .matmul(self.w1.as_tensor())?
            .broadcast_add(self.b1.as_tensor())?
            .relu()?;
        Ok(h.matmul(self.w2.as_tensor())?
            .broadcast_add(self.b2.as_tensor())?)
    }

    pub fn vars(&self) -> Vec<Var> {
        vec![
            self.w1.clone(),
            self.b1.clone(),
            self.w2.clone(),
            self.b2.clone(),
        ]
    }
}
