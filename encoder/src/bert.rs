//! BERT-family encoders (all-MiniLM-L6-v2) through [`FrozenBert`] (candle-transformers' `BertModel`,
//! bit for bit, with a vectorised GELU): tokenizing with per-batch padding, masked mean pooling and
//! the checkpoint's L2 normalisation. The trainer loads a checkpoint folder (memory-mapped, or as
//! trainable variables); the model worker loads the same files from bytes. Both embed through
//! [`pooled_embeddings`].

use crate::frozen::FrozenBert;
use anyhow::{anyhow, Context, Result};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::Config;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Longest input in tokens. The shipped tokenizer.json pads and truncates everything to 128; we pad
/// each batch only to its longest text (much less work on short NLI sentences) and truncate at 256.
pub const MAX_TOKENS: usize = 256;

/// Reads a tokenizer.json and sets per-batch padding and truncation at [`MAX_TOKENS`].
pub fn tokenizer(json: &[u8]) -> Result<Tokenizer> {
    let mut t = Tokenizer::from_bytes(json).map_err(|e| anyhow!("tokenizer.json: {e}"))?;
    t.with_padding(Some(PaddingParams {
        strategy: PaddingStrategy::BatchLongest,
        ..Default::default()
    }));
    t.with_truncation(Some(TruncationParams {
        max_length: MAX_TOKENS,
        ..Default::default()
    }))
    .map_err(|e| anyhow!("tokenizer truncation: {e}"))?;
    Ok(t)
}

/// sentence-transformers checkpoints list a Normalize module (modules.json) when their embeddings
/// are unit length.
pub fn normalizes(modules_json: &str) -> bool {
    modules_json.contains("Normalize")
}

/// Mean-pooled (over real tokens only: padding must not dilute short texts) and, with `normalize`,
/// L2-normalised embeddings of `texts`: a `(texts.len(), hidden)` tensor.
pub fn pooled_embeddings(
    model: &FrozenBert,
    tokenizer: &Tokenizer,
    device: &Device,
    normalize: bool,
    texts: &[&str],
) -> Result<Tensor> {
    let (_, ids, mask) = batch_inputs(tokenizer, device, texts)?;
    let types = ids.zeros_like()?;
    let hidden = model.forward(&ids, &types, &mask)?; // (b, len, dim)
    masked_mean_pool(&hidden, &mask.to_dtype(DType::F32)?, normalize)
}

/// `texts` tokenized as one batch (padded to its longest, truncated at the tokenizer's limit) and
/// the model's inputs: the encodings, token ids and the 0/1 attention mask, both `(b, len)` u32. The
/// one place text becomes tensors, for every encoder path (frozen, trainable, cached states).
pub fn batch_inputs(
    tokenizer: &Tokenizer,
    device: &Device,
    texts: &[&str],
) -> Result<(Vec<tokenizers::Encoding>, Tensor, Tensor)> {
    let enc = tokenizer
        .encode_batch(texts.to_vec(), true)
        .map_err(|e| anyhow!("tokenizing: {e}"))?;
    let (b, len) = (enc.len(), enc.first().map_or(0, |e| e.get_ids().len()));
    let mut ids = Vec::with_capacity(b * len);
    let mut mask = Vec::with_capacity(b * len);
    for e in &enc {
        ids.extend_from_slice(e.get_ids());
        mask.extend_from_slice(e.get_attention_mask());
    }
    let ids = Tensor::from_vec(ids, (b, len), device)?;
    let mask = Tensor::from_vec(mask, (b, len), device)?;
    Ok((enc, ids, mask))
}

/// Mean of `hidden` `(b, len, dim)` over the positions where `mask` `(b, len)` is 1, then, with
/// `normalize`, L2-normalised: the one pooling of every encoder path (frozen, trainable, cached).
pub fn masked_mean_pool(hidden: &Tensor, mask: &Tensor, normalize: bool) -> Result<Tensor> {
    let m = mask.unsqueeze(2)?;
    let summed = hidden.broadcast_mul(&m)?.sum(1)?;
    let pooled = summed.broadcast_div(&m.sum(1)?)?;
    if !normalize {
        return Ok(pooled);
    }
    let norm = pooled
        .sqr()?
        .sum_keepdim(1)?
        .sqrt()?
        .clamp(1e-12, f32::MAX)?;
    Ok(pooled.broadcast_div(&norm)?)
}

/// Per-token output states of `texts`, real tokens only (no padding, no `[CLS]`/`[SEP]`), each
/// L2-normalised: one row-major `(tokens × hidden)` vector per text. For token-alignment features
/// (how well each hypothesis token is matched somewhere in the premise).
pub fn token_states(
    model: &FrozenBert,
    tokenizer: &Tokenizer,
    device: &Device,
    texts: &[&str],
) -> Result<Vec<Vec<f32>>> {
    let (enc, ids, mask_t) = batch_inputs(tokenizer, device, texts)?;
    let b = enc.len();
    let hidden = model
        .forward(&ids, &ids.zeros_like()?, &mask_t)?
        .to_vec3::<f32>()?;
    let mut out = Vec::with_capacity(b);
    for (e, h) in enc.iter().zip(hidden) {
        let mut v = Vec::new();
        for (t, row) in h.iter().enumerate() {
            if e.get_attention_mask()[t] == 1 && e.get_special_tokens_mask()[t] == 0 {
                let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
                v.extend(row.iter().map(|x| x / norm));
            }
        }
        out.push(v);
    }
    Ok(out)
}

/// A frozen encoder loaded from the checkpoint's bytes (the model worker's path: it has no files).
pub struct Bert {
    pub model: FrozenBert,
    pub tokenizer: Tokenizer,
    pub normalize: bool,
    pub dim: usize,
}

impl Bert {
    /// `weights`: model.safetensors, in any float dtype (the app ships an F16 copy); loaded as F32.
    pub fn from_bytes(
        config: &[u8],
        tokenizer_json: &[u8],
        weights: Vec<u8>,
        modules_json: &str,
    ) -> Result<Self> {
        let cfg: Config =
            serde_json::from_slice(config).context("config.json is not a BERT config")?;
        let dim = serde_json::from_slice::<serde_json::Value>(config)?["hidden_size"]
            .as_u64()
            .ok_or_else(|| anyhow!("config.json has no hidden_size"))? as usize;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)?;
        Ok(Bert {
            model: FrozenBert::load(vb, &cfg)?,
            tokenizer: tokenizer(tokenizer_json)?,
            normalize: normalizes(modules_json),
            dim,
        })
    }

    /// Row-major `(texts.len(), dim)` embeddings.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<f32>> {
        let t = pooled_embeddings(
            &self.model,
            &self.tokenizer,
            &Device::Cpu,
            self.normalize,
            texts,
        )?;
        Ok(t.flatten_all()?.to_vec1::<f32>()?)
    }
}
