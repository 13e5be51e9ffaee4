//! Mean-pooled sentence embeddings of every item's text fields, cached as safetensors: what
//! `annosat embed` writes and the sweep and `annosat features` read (a library, so no command
//! builds another's arguments).
//!
//! Unique texts are embedded once (SNLI premises repeat), sorted by length so each batch pads little,
//! in chunks written atomically to `<cache>/chunks/`; a killed run resumes at the first missing chunk.
//! The finished file holds one `(items, d)` F32 tensor per field, rows in votes.csv order, and its
//! metadata records the item ids, layout and encoder, which the sweep checks before trusting it.

use crate::encoder::{self, Encoder};
use crate::texts;
use crate::util::{atomic_write, cache_root, dataset_name, default_model_dir, progress};
use anyhow::{Context, Result};
use candle_core::{Device, Tensor};
use std::path::{Path, PathBuf};

/// What to embed and where: the settings `annosat embed` and the sweep's own embedding share.
#[derive(Debug, Clone)]
pub struct EmbedSpec {
    /// Dataset folder with votes.csv and items.jsonl.
    pub data: PathBuf,
    /// Encoder checkpoint folder (default: `util::default_model_dir`).
    pub model_dir: Option<PathBuf>,
    /// Where embeddings are cached (default: ~/.cache/annosat/features).
    pub cache: Option<PathBuf>,
    /// Texts per forward pass.
    pub batch: usize,
    /// Embed only the first N items (the cache file name records it).
    pub limit: Option<usize>,
}

const CHUNK: usize = 512;

pub use annosat_encoder::Embeddings;

pub fn cache_file(cache: Option<&Path>, data: &Path, model: &str, limit: Option<usize>) -> PathBuf {
    let root = cache
        .map(Path::to_path_buf)
        .unwrap_or_else(|| cache_root().join("features"));
    let name = match limit {
        Some(l) => format!("{model}.first{l}.safetensors"),
        None => format!("{model}.safetensors"),
    };
    root.join(dataset_name(data)).join(name)
}

/// Embeds (or finds cached) and returns the cache file.
pub fn embed(a: &EmbedSpec) -> Result<PathBuf> {
    let mut ids = crate::util::item_ids(&a.data)?;
    if let Some(l) = a.limit {
        ids.truncate(l);
    }
    let items = texts::read(&a.data.join("items.jsonl"), &ids)
        .context("embedding needs items.jsonl with the items' texts")?;
    let model_dir = a.model_dir.clone().unwrap_or_else(default_model_dir);
    let model_name = dataset_name(&model_dir);
    let path = cache_file(a.cache.as_deref(), &a.data, &model_name, a.limit);
    if path.exists() && load(&path).is_ok_and(|e| e.item_ids == ids) {
        tracing::info!("cached: {}", path.display());
        return Ok(path);
    }

    // Unique texts, longest first (stable on ties), so batches pad little and the order is fixed.
    let unique = items.unique_longest_first();

    let device = Device::Cpu;
    let enc = encoder::load(&model_dir, &device)?;
    let dim = enc.dim();
    let chunk_dir = path.with_extension("chunks");
    std::fs::create_dir_all(&chunk_dir)?;
    let pb = progress(unique.len() as u64, "embedding");
    let started = std::time::Instant::now();
    let mut fresh = 0usize;
    let mut all = vec![0f32; unique.len() * dim];
    for (c, chunk) in unique.chunks(CHUNK).enumerate() {
        let file = chunk_dir.join(format!("{c:05}.f32"));
        let want = chunk.len() * dim * 4;
        let bytes = match std::fs::read(&file) {
            Ok(b) if b.len() == want => {
                pb.inc(chunk.len() as u64);
                b
            }
            _ => {
                let mut v = Vec::with_capacity(chunk.len() * dim);
                for batch in chunk.chunks(a.batch.max(1)) {
                    v.extend(embed_batch(enc.as_ref(), batch)?);
                    pb.inc(batch.len() as u64);
                }
                fresh += chunk.len();
                let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
                atomic_write(&file, &b)?;
                b
            }
        };
        let start = c * CHUNK * dim;
        for (j, w) in bytes.chunks_exact(4).enumerate() {
            all[start + j] = f32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        }
    }
    pb.finish_and_clear();
    if fresh > 0 {
        let secs = started.elapsed().as_secs_f64();
        tracing::info!(
            "embedded {fresh} texts in {secs:.1} s ({:.0} texts/s)",
            fresh as f64 / secs
        );
    }

    let emb = Embeddings::assemble(ids, &items, &unique, &all, dim, enc.name().to_string())?;
    save(&path, &emb)?;
    std::fs::remove_dir_all(&chunk_dir).ok();
    Ok(path)
}

fn embed_batch(enc: &dyn Encoder, texts: &[&str]) -> Result<Vec<f32>> {
    let t: Tensor = enc.embed(texts)?;
    Ok(t.flatten_all()?.to_vec1::<f32>()?)
}

fn save(path: &Path, e: &Embeddings) -> Result<()> {
    atomic_write(path, &e.to_bytes()?)
}

/// Reads a cache file written by `embed`.
pub fn load(path: &Path) -> Result<Embeddings> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Embeddings::from_bytes(&bytes)
        .with_context(|| format!("{} is not an embeddings file", path.display()))
}
