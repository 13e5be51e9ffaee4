//! Sentence encoders behind one small trait, so the trainer does not care which checkpoint it runs.
//!
//! [`load`] reads `config.json` from a model directory and picks an implementation by `model_type`.
//! Only the BERT family (MiniLM, BERT, and anything `BertModel` loads) is built in: it is the one
//! checkpoint obtainable here. Another family (DeBERTa-v2, XLM-R/RoBERTa) plugs in by implementing
//! [`Encoder`] over its candle-transformers model and adding an arm to [`load`].

mod bert;
pub mod layer;

pub use bert::{BertEncoder, Train};

use anyhow::{bail, Context, Result};
use candle_core::{Device, Tensor};
use std::path::Path;

/// Turns texts into fixed-size vectors (and, for fine-tuning, into a differentiable tensor).
pub trait Encoder {
    /// Width of one embedding.
    fn dim(&self) -> usize;
    /// Mean-pooled (and, where the checkpoint says so, L2-normalised) embeddings, one row per text:
    /// a `(texts.len(), dim)` tensor on the encoder's device.
    fn embed(&self, texts: &[&str]) -> Result<Tensor>;
    /// A short name for caches and logs (e.g. `all-MiniLM-L6-v2`).
    fn name(&self) -> &str;
    /// Per text, its real tokens' output states, each L2-normalised (`tokens × dim`, row-major):
    /// for token-alignment features.
    fn token_states(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>>;
}

/// Loads the encoder in `dir` (config.json, model.safetensors, tokenizer.json).
pub fn load(dir: &Path, device: &Device) -> Result<Box<dyn Encoder>> {
    let config_path = dir.join("config.json");
    let text = std::fs::read_to_string(&config_path).with_context(|| {
        format!(
            "reading {} (is --model-dir a checkpoint directory?)",
            config_path.display()
        )
    })?;
    let config: serde_json::Value = serde_json::from_str(&text)?;
    let model_type = config["model_type"].as_str().unwrap_or("bert");
    match model_type {
        "bert" => Ok(Box::new(BertEncoder::load(dir, device, Train::Frozen)?.0)),
        other => bail!(
            "model_type {other:?} in {} has no encoder here yet: implement annosat_trainer::encoder::Encoder for it \
             (candle-transformers has DeBERTa-v2 and XLM-R models) and add it to encoder::load",
            config_path.display()
        ),
    }
}
