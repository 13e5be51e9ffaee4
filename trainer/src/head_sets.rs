//! Head features other than the default pair embeddings, from the same encoder, for choosing
//! features on validation (scripts/feature-study.sh): what `annosat features` writes and the
//! sweep's `--features` builds. A set is blocks joined with `+`:
//! - `pair`: the sweep's default — MiniLM embeddings of premise u and hypothesis v separately,
//!   `[u, v, |u−v|, u∗v]`, projected on the top 256 principal components;
//! - `joint`: one MiniLM embedding of `premise [SEP] hypothesis` (the pair encoded jointly, 384-d);
//! - `lexical`: 8 overlap features — shared words over hypothesis, premise and union words, log
//!   lengths, length ratio, negation words in hypothesis and premise;
//! - `align`: 12 token-alignment statistics — each hypothesis token's best cosine match among the
//!   premise's token states (mean, min, max, sd, 10/25/50/75/90th percentiles, share below 0.5) and
//!   each premise token's best match in the hypothesis (mean, min).
//!
//! Blocks other than `pair` are standardised (z-scores over items). NLI pairs only (`premise`,
//! `hypothesis`). The file is a head-features file: `annosat sweep --head-features F --pca 0`.

use crate::encoder;
use crate::sweep::pca;
use crate::util::{atomic_write, default_model_dir};
use crate::{embedding, texts};
use annosat_encoder::Layout;
use annosat_heads::HeadFeatures;
use anyhow::{bail, Result};
use candle_core::Device;
use std::path::PathBuf;

/// Which feature set to build for which dataset: the settings `annosat features` and the sweep's
/// `--features` share.
#[derive(Debug, Clone)]
pub struct FeatureSpec {
    /// Dataset folder (votes.csv + items.jsonl with premise and hypothesis).
    pub data: PathBuf,
    /// Blocks joined with +: pair, joint, lexical, align.
    pub set: String,
    pub model_dir: Option<PathBuf>,
    /// Embedding cache for the pair block (default: ~/.cache/annosat/features).
    pub features_cache: Option<PathBuf>,
    pub batch: usize,
}

const NEGATIONS: [&str; 9] = [
    "no", "not", "never", "nobody", "nothing", "none", "nor", "cannot", "n't",
];

fn words(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

fn negations(ws: &[String]) -> f32 {
    ws.iter()
        .filter(|w| NEGATIONS.contains(&w.as_str()) || w.ends_with("n't"))
        .count() as f32
}

/// The 8 lexical features of one (premise, hypothesis) pair.
pub fn lexical(premise: &str, hypothesis: &str) -> [f32; 8] {
    use std::collections::HashSet;
    let (p, h) = (words(premise), words(hypothesis));
    let (sp, sh): (HashSet<&String>, HashSet<&String>) = (p.iter().collect(), h.iter().collect());
    let inter = sp.intersection(&sh).count() as f32;
    let union = sp.union(&sh).count().max(1) as f32;
    [
        inter / sh.len().max(1) as f32,
        inter / sp.len().max(1) as f32,
        inter / union,
        (h.len() as f32).ln_1p(),
        (p.len() as f32).ln_1p(),
        h.len() as f32 / p.len().max(1) as f32,
        negations(&h),
        negations(&p),
    ]
}

fn best_matches(a: &[f32], b: &[f32], dim: usize) -> Vec<f32> {
    a.chunks_exact(dim)
        .map(|x| {
            b.chunks_exact(dim)
                .map(|y| x.iter().zip(y).map(|(p, q)| p * q).sum::<f32>())
                .fold(f32::NEG_INFINITY, f32::max)
        })
        .filter(|v| v.is_finite())
        .collect()
}

fn quantile(sorted: &[f32], q: f32) -> f32 {
    let pos = q * (sorted.len() - 1) as f32;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f32)
}

/// The 12 alignment statistics from the premise's and hypothesis' token states.
pub fn align(premise: &[f32], hypothesis: &[f32], dim: usize) -> [f32; 12] {
    let mut h = best_matches(hypothesis, premise, dim);
    let p = best_matches(premise, hypothesis, dim);
    if h.is_empty() || p.is_empty() {
        return [0.0; 12];
    }
    h.sort_by(f32::total_cmp);
    let n = h.len() as f32;
    let mean = h.iter().sum::<f32>() / n;
    let sd = (h.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / n).sqrt();
    [
        mean,
        h[0],
        h[h.len() - 1],
        sd,
        quantile(&h, 0.1),
        quantile(&h, 0.25),
        quantile(&h, 0.5),
        quantile(&h, 0.75),
        quantile(&h, 0.9),
        h.iter().filter(|&&x| x < 0.5).count() as f32 / n,
        p.iter().sum::<f32>() / p.len() as f32,
        p.iter().cloned().fold(f32::INFINITY, f32::min),
    ]
}

/// Z-scores per column of a row-major `(n, w)` block (constant columns become 0).
fn standardise(x: &mut [f32], w: usize) {
    let n = x.len() / w;
    for j in 0..w {
        let mean = (0..n).map(|i| x[i * w + j] as f64).sum::<f64>() / n as f64;
        let var = (0..n)
            .map(|i| (x[i * w + j] as f64 - mean).powi(2))
            .sum::<f64>()
            / n as f64;
        let sd = var.sqrt();
        for i in 0..n {
            let v = &mut x[i * w + j];
            *v = if sd > 1e-12 {
                ((*v as f64 - mean) / sd) as f32
            } else {
                0.0
            };
        }
    }
}

/// The head features of `a.set` for `a.data`, cached beside the embeddings
/// (`<features cache>/<dataset>/<set>.head.safetensors`) so a sweep that names a set builds it once.
pub fn build_cached(a: &FeatureSpec) -> Result<HeadFeatures> {
    let cache = a
        .features_cache
        .clone()
        .unwrap_or_else(|| crate::util::cache_root().join("features"))
        .join(crate::util::dataset_name(&a.data))
        .join(format!("{}.head.safetensors", a.set));
    let ids = crate::util::load_votes(&a.data.join("votes.csv"), false)?
        .item_ids()
        .to_vec();
    if let Ok(bytes) = std::fs::read(&cache) {
        if let Ok(h) = HeadFeatures::from_bytes(&bytes) {
            // A file from before blocks were recorded reads as one block: rebuild it.
            if h.item_ids == ids && h.blocks.len() == a.set.split('+').count() {
                tracing::info!("cached: {}", cache.display());
                return Ok(h);
            }
        }
    }
    let head = build(a)?;
    atomic_write(&cache, &head.to_bytes()?)?;
    Ok(head)
}

/// Builds the head features of `a.set` for `a.data`.
pub fn build(a: &FeatureSpec) -> Result<HeadFeatures> {
    let table = crate::util::load_votes(&a.data.join("votes.csv"), false)?;
    let ids = table.item_ids().to_vec();
    let items = texts::read(&a.data.join("items.jsonl"), &ids)?;
    if items.layout != Layout::Pair {
        bail!(
            "annosat features needs premise/hypothesis pairs; {} has the {} layout",
            a.data.display(),
            items.layout.name()
        );
    }
    let (prem, hyp) = (&items.texts[0], &items.texts[1]);
    let n = ids.len();
    let model_dir = a.model_dir.clone().unwrap_or_else(default_model_dir);
    let mut blocks: Vec<(Vec<f32>, usize, String)> = Vec::new();
    let needs_encoder = a.set.split('+').any(|b| b == "joint" || b == "align");
    let enc: Option<Box<dyn encoder::Encoder>> = if needs_encoder {
        Some(encoder::load(&model_dir, &Device::Cpu)?)
    } else {
        None
    };
    let encoder = || -> Result<&dyn encoder::Encoder> {
        enc.as_deref()
            .ok_or_else(|| anyhow::anyhow!("no encoder loaded"))
    };
    for block in a.set.split('+') {
        match block {
            "pair" => {
                let path = embedding::embed(&embedding::EmbedSpec {
                    data: a.data.clone(),
                    model_dir: a.model_dir.clone(),
                    cache: a.features_cache.clone(),
                    batch: a.batch,
                    limit: None,
                })?;
                let emb = embedding::load(&path)?;
                let width = emb.layout.width(emb.dim);
                let (w, kept) = pca::project(&emb.features(), n, width, 256, false);
                blocks.push((
                    w,
                    256.min(width),
                    format!("pair (PCA 256, {:.1}% of variance)", kept * 100.0),
                ));
            }
            "joint" => {
                let e = encoder()?;
                let texts: Vec<String> = prem
                    .iter()
                    .zip(hyp)
                    .map(|(p, h)| format!("{p} [SEP] {h}"))
                    .collect();
                let mut v = Vec::with_capacity(n * e.dim());
                for chunk in texts.chunks(a.batch.max(1)) {
                    let refs: Vec<&str> = chunk.iter().map(String::as_str).collect();
                    v.extend(e.embed(&refs)?.flatten_all()?.to_vec1::<f32>()?);
                }
                standardise(&mut v, e.dim());
                blocks.push((v, e.dim(), "joint (premise [SEP] hypothesis)".into()));
            }
            "lexical" => {
                let mut v: Vec<f32> = prem
                    .iter()
                    .zip(hyp)
                    .flat_map(|(p, h)| lexical(p, h))
                    .collect();
                standardise(&mut v, 8);
                blocks.push((v, 8, "lexical (8)".into()));
            }
            "align" => {
                let e = encoder()?;
                let dim = e.dim();
                let mut v = Vec::with_capacity(n * 12);
                for (ps, hs) in prem.chunks(a.batch.max(1)).zip(hyp.chunks(a.batch.max(1))) {
                    let p: Vec<&str> = ps.iter().map(String::as_str).collect();
                    let h: Vec<&str> = hs.iter().map(String::as_str).collect();
                    let (tp, th) = (e.token_states(&p)?, e.token_states(&h)?);
                    for (x, y) in tp.iter().zip(&th) {
                        v.extend(align(x, y, dim));
                    }
                }
                standardise(&mut v, 12);
                blocks.push((v, 12, "align (12)".into()));
            }
            other => {
                bail!("unknown feature block {other:?}: blocks are pair, joint, lexical, align")
            }
        }
    }
    let width: usize = blocks.iter().map(|b| b.1).sum();
    let mut values = Vec::with_capacity(n * width);
    for i in 0..n {
        for (v, w, _) in &blocks {
            values.extend_from_slice(&v[i * w..(i + 1) * w]);
        }
    }
    let layout = blocks
        .iter()
        .map(|b| b.2.clone())
        .collect::<Vec<_>>()
        .join(" + ");
    let name = crate::util::dataset_name(&model_dir);
    Ok(HeadFeatures::new(
        ids,
        width,
        &values,
        name,
        format!("{layout}, stored as f16"),
    )
    .with_blocks(blocks.iter().map(|b| b.1).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_features_count_overlap_length_and_negation() {
        let f = lexical("A man is not sleeping.", "A man sleeps.");
        // shared {a, man}: 2 of 3 hypothesis words, 2 of 5 premise words, 2 of 6 in the union.
        assert_eq!(&f[..3], &[2.0 / 3.0, 2.0 / 5.0, 2.0 / 6.0]);
        assert_eq!((f[6], f[7]), (0.0, 1.0));
    }

    #[test]
    fn alignment_of_identical_tokens_is_perfect() {
        let t = [1.0, 0.0, 0.0, 1.0]; // two unit tokens, dim 2
        let a = align(&t, &t, 2);
        assert_eq!((a[0], a[1], a[2], a[9]), (1.0, 1.0, 1.0, 0.0));
        let far = align(&[1.0, 0.0], &[0.0, 1.0], 2);
        assert_eq!((far[0], far[9]), (0.0, 1.0));
    }
}
