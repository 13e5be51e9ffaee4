//! BERT-family encoders (all-MiniLM-L6-v2 by default) through `annosat_encoder::frozen::FrozenBert`
//! (candle-transformers' `BertModel`, bit for bit, with a vectorised GELU).

use super::layer::TrainableLayer;
use super::Encoder;
use annosat_encoder::frozen::FrozenBert;
use anyhow::{anyhow, Context, Result};
use candle_core::{DType, Device, Tensor};
use candle_nn::{VarBuilder, VarMap};
use candle_transformers::models::bert::Config;
use std::path::Path;
use tokenizers::Tokenizer;

/// Whether the weights are constants (embedding) or trainable variables (fine-tuning).
pub enum Train {
    Frozen,
    Trainable,
}

pub struct BertEncoder {
    /// Frozen: the whole model. Trainable: the embeddings only (0 layers); the layers are `layers`.
    model: FrozenBert,
    /// Trainable layers (empty when frozen): candle-transformers' layers pass no gradient through
    /// their LayerNorms (see [`super::layer`]), so a trainable encoder runs these instead.
    layers: Vec<TrainableLayer>,
    tokenizer: Tokenizer,
    device: Device,
    dim: usize,
    normalize: bool,
    name: String,
}

impl BertEncoder {
    /// Loads the checkpoint; with [`Train::Trainable`] also returns the `VarMap` holding its weights
    /// (loaded from model.safetensors) for an optimiser.
    pub fn load(dir: &Path, device: &Device, train: Train) -> Result<(Self, Option<VarMap>)> {
        let config: Config =
            serde_json::from_str(&std::fs::read_to_string(dir.join("config.json"))?)
                .context("config.json is not a BERT config")?;
        let tok_path = dir.join("tokenizer.json");
        let tokenizer = annosat_encoder::bert::tokenizer(
            &std::fs::read(&tok_path).with_context(|| format!("reading {}", tok_path.display()))?,
        )?;
        let weights = dir.join("model.safetensors");
        let mut layers = Vec::new();
        let (model, varmap) = match train {
            Train::Frozen => {
                // SAFETY: the file is not modified while mapped (it lives in the model cache).
                let vb = unsafe {
                    VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, device)?
                };
                (FrozenBert::load(vb, &config)?, None)
            }
            Train::Trainable => {
                let varmap = VarMap::new();
                let vb = VarBuilder::from_varmap(&varmap, DType::F32, device);
                // The embeddings through FrozenBert (candle-nn's fused LayerNorm passes no gradient,
                // so the embedding tables stay as in the checkpoint), every layer trainable.
                let mut emb_cfg = config.clone();
                emb_cfg.num_hidden_layers = 0;
                let model = FrozenBert::load(vb.clone(), &emb_cfg)?;
                layers = (0..config.num_hidden_layers)
                    .map(|i| TrainableLayer::load(vb.pp(format!("encoder.layer.{i}")), &config))
                    .collect::<Result<Vec<_>>>()?;
                // Copy the checkpoint into the variables, converting dtype (an F16 copy of the
                // weights is what fits through the GPU machine's 64 MiB carry).
                let tensors = candle_core::safetensors::load(&weights, device)
                    .with_context(|| format!("loading {}", weights.display()))?;
                for (name, var) in varmap.data().lock().expect("varmap lock").iter() {
                    let t = tensors
                        .get(name)
                        .or_else(|| tensors.get(&format!("bert.{name}")))
                        .with_context(|| format!("{} has no tensor {name}", weights.display()))?;
                    var.set(&t.to_dtype(DType::F32)?)?;
                }
                (model, Some(varmap))
            }
        };
        // sentence-transformers checkpoints list a Normalize module when their embeddings are unit length.
        let normalize = std::fs::read_to_string(dir.join("modules.json"))
            .map(|m| annosat_encoder::bert::normalizes(&m))
            .unwrap_or(false);
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "bert".into());
        let dim = config_hidden_size(dir)?;
        Ok((
            BertEncoder {
                model,
                layers,
                tokenizer,
                device: device.clone(),
                dim,
                normalize,
                name,
            },
            varmap,
        ))
    }
}

impl BertEncoder {
    /// Embeddings (0-layer model) → the trainable layers → masked mean pooling (+ L2), as
    /// `annosat_encoder::pooled_embeddings` does for the frozen model.
    fn embed_trainable(&self, texts: &[&str]) -> Result<Tensor> {
        let (_, ids, mask) =
            annosat_encoder::bert::batch_inputs(&self.tokenizer, &self.device, texts)?;
        let mut h = self.model.forward(&ids, &ids.zeros_like()?, &mask)?;
        let m = mask.to_dtype(DType::F32)?;
        let ext = annosat_encoder::frozen::additive_mask(&m)?;
        for l in &self.layers {
            h = l.forward(&h, &ext)?;
        }
        annosat_encoder::bert::masked_mean_pool(&h, &m, self.normalize)
    }
}

fn config_hidden_size(dir: &Path) -> Result<usize> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("config.json"))?)?;
    v["hidden_size"]
        .as_u64()
        .map(|h| h as usize)
        .ok_or_else(|| anyhow!("config.json has no hidden_size"))
}

impl Encoder for BertEncoder {
    fn dim(&self) -> usize {
        self.dim
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn token_states(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        annosat_encoder::bert::token_states(&self.model, &self.tokenizer, &self.device, texts)
    }

    fn embed(&self, texts: &[&str]) -> Result<Tensor> {
        if !self.layers.is_empty() {
            return self.embed_trainable(texts);
        }
        annosat_encoder::pooled_embeddings(
            &self.model,
            &self.tokenizer,
            &self.device,
            self.normalize,
            texts,
        )
    }
}
