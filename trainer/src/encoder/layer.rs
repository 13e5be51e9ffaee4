//! A BERT layer that can be trained: the same computation as candle-transformers' `BertLayer`
//! (self-attention, dense + residual + LayerNorm, GELU (erf) intermediate, dense + residual +
//! LayerNorm), composed of candle-nn pieces that all have a backward pass; the attention is
//! `annosat_encoder::frozen::attention_context`, the frozen encoder's own.
//!
//! Why not candle-transformers' own layer: its LayerNorm takes candle-nn's fused fast path
//! (`ops::layer_norm`, built with `apply_op3_no_bwd`) whenever the input is contiguous, so
//! `backward()` silently returns no gradient for any weight below it (huggingface/candle#3011,
//! #3752; fixes open as #3613 and #3823). A BERT built from it trains only what sits above its last
//! LayerNorm. Here the LayerNorms are `ops::layer_norm_slow`, which autograd differentiates; the
//! forward equals the fused one up to rounding (checked against the full encoder at load time by
//! the commands that use it, and in trainer/tests/finetune.rs).

use anyhow::Result;
use candle_core::Tensor;
use candle_nn::{linear, Linear, Module, VarBuilder};
use candle_transformers::models::bert::Config;

struct Norm {
    weight: Tensor,
    bias: Tensor,
    eps: f32,
}

impl Norm {
    fn load(vb: VarBuilder, cfg: &Config) -> Result<Norm> {
        Ok(Norm {
            weight: vb.get(cfg.hidden_size, "weight")?,
            bias: vb.get(cfg.hidden_size, "bias")?,
            eps: cfg.layer_norm_eps as f32,
        })
    }
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        Ok(candle_nn::ops::layer_norm_slow(
            x,
            &self.weight,
            &self.bias,
            self.eps,
        )?)
    }
}

pub struct TrainableLayer {
    query: Linear,
    key: Linear,
    value: Linear,
    attn_out: Linear,
    attn_norm: Norm,
    intermediate: Linear,
    out: Linear,
    out_norm: Norm,
    heads: usize,
}

impl TrainableLayer {
    /// Loads `vb`'s `attention.self.{query,key,value}`, `attention.output.{dense,LayerNorm}`,
    /// `intermediate.dense` and `output.{dense,LayerNorm}` (a checkpoint's `encoder.layer.<i>`).
    pub fn load(vb: VarBuilder, cfg: &Config) -> Result<TrainableLayer> {
        let (h, i) = (cfg.hidden_size, cfg.intermediate_size);
        Ok(TrainableLayer {
            query: linear(h, h, vb.pp("attention.self.query"))?,
            key: linear(h, h, vb.pp("attention.self.key"))?,
            value: linear(h, h, vb.pp("attention.self.value"))?,
            attn_out: linear(h, h, vb.pp("attention.output.dense"))?,
            attn_norm: Norm::load(vb.pp("attention.output.LayerNorm"), cfg)?,
            intermediate: linear(h, i, vb.pp("intermediate.dense"))?,
            out: linear(i, h, vb.pp("output.dense"))?,
            out_norm: Norm::load(vb.pp("output.LayerNorm"), cfg)?,
            heads: cfg.num_attention_heads,
        })
    }

    /// `h`: `(batch, len, hidden)`; `mask`: BERT's additive mask `(batch, 1, 1, len)` (0 on real
    /// tokens, the most negative f32 on padding).
    pub fn forward(&self, h: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let qkv = [&self.query, &self.key, &self.value];
        let ctx = annosat_encoder::frozen::attention_context(qkv, h, mask, self.heads)?;
        let a = self
            .attn_norm
            .forward(&(self.attn_out.forward(&ctx)? + h)?)?;
        let i = self.intermediate.forward(&a)?.gelu_erf()?;
        self.out_norm.forward(&(self.out.forward(&i)? + &a)?)
    }
}
