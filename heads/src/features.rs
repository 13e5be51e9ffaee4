//! Head features: the exact inputs the sweep's heads train on, committed beside the exports.
//!
//! *Why a file.* The encoder step is not bit-reproducible across CPUs: candle's CPU matmul (gemm)
//! splits long reductions into blocks whose size it derives from the L1 cache's size and
//! associativity, so the 1,536-wide feed-forward sums of MiniLM come out in a different order — and
//! differ in the last bits — on a CPU with another cache. Everything after the features (heads with
//! reductions of at most 512 terms, which gemm never splits, and its FMA kernel on every x86-64 CPU
//! of this project's machines, AVX-512 or not) is bit-reproducible. So the sweep rounds its features
//! to f16 (the precision the browser downloads), trains on exactly those values, and writes them to
//! `features.safetensors`; `annosat sweep --head-features FILE` retrains from the file, which is how
//! the committed exports regenerate bit for bit on any machine (trainer/tests/sweep.rs). The same
//! file is what a model worker in the app would train on.

use anyhow::{bail, Context, Result};
use half::f16;
use safetensors::tensor::{Dtype, TensorView};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// File name of the head features inside an export folder.
pub const FILE: &str = "features.safetensors";

const META_KEY: &str = "annosat";

#[derive(Serialize, Deserialize)]
struct Meta {
    item_ids: Vec<String>,
    encoder: String,
    layout: String,
    machine: String,
    /// The widths of the blocks the rows join (absent in files written before blocks were kept:
    /// one block).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    blocks: Vec<usize>,
}

/// Per-item feature rows (row-major `item_ids.len() × width`), already rounded to f16.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadFeatures {
    pub item_ids: Vec<String>,
    pub width: usize,
    pub values: Vec<f32>,
    /// Encoder checkpoint name, e.g. `all-MiniLM-L6-v2`.
    pub encoder: String,
    /// How the rows were made (pair layout, PCA), as the manifest's `features` field says it.
    pub layout: String,
    /// The CPU the encoder ran on (model name, cache sizes): the features are exact only there.
    pub machine: String,
    /// The widths of the blocks each row joins, in order (sum = `width`), e.g. `[256, 12]` for
    /// pair embeddings + alignment statistics: the kNN baseline weighs every block equally, so a
    /// block is not drowned (or made to dominate) by its scale or its width.
    pub blocks: Vec<usize>,
}

impl HeadFeatures {
    /// Rounds `values` to f16 precision (round to nearest even), the form that is trained on.
    pub fn new(
        item_ids: Vec<String>,
        width: usize,
        values: &[f32],
        encoder: String,
        layout: String,
    ) -> Self {
        assert_eq!(values.len(), item_ids.len() * width);
        let values = values.iter().map(|&v| f16::from_f32(v).to_f32()).collect();
        HeadFeatures {
            item_ids,
            width,
            values,
            encoder,
            layout,
            machine: machine(),
            blocks: vec![width],
        }
    }

    /// The same rows, declared as blocks of these widths (they must sum to `width`).
    pub fn with_blocks(mut self, blocks: Vec<usize>) -> Self {
        assert_eq!(
            blocks.iter().sum::<usize>(),
            self.width,
            "blocks must cover the row"
        );
        self.blocks = blocks;
        self
    }

    fn f16_bytes(&self) -> Vec<u8> {
        self.values
            .iter()
            .flat_map(|&v| f16::from_f32(v).to_le_bytes())
            .collect()
    }

    /// FNV-1a of the f16 values (and of the block widths when there are several): part of the
    /// sweep configuration, so results computed from other features (another machine's encoder
    /// run, or the same values read as other blocks) never mix with these in a resumed sweep.
    pub fn hash(&self) -> String {
        let mut bytes = self.f16_bytes();
        if self.blocks.len() > 1 {
            bytes.extend(self.blocks.iter().flat_map(|&b| (b as u64).to_le_bytes()));
        }
        crate::fnv1a_hex(&bytes)
    }

    /// The safetensors file: one F16 tensor `features` `[items, width]`, and one metadata key,
    /// `annosat`, holding a JSON object with `item_ids`, `encoder`, `layout` and `machine` (one key,
    /// because safetensors writes a metadata map in hash order: same values ⇒ same bytes).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let bytes = self.f16_bytes();
        let mut views = BTreeMap::new();
        views.insert(
            "features".to_string(),
            TensorView::new(Dtype::F16, vec![self.item_ids.len(), self.width], &bytes)?,
        );
        let info = Meta {
            item_ids: self.item_ids.clone(),
            encoder: self.encoder.clone(),
            layout: self.layout.clone(),
            machine: self.machine.clone(),
            blocks: if self.blocks.len() > 1 {
                self.blocks.clone()
            } else {
                Vec::new()
            },
        };
        let meta = HashMap::from([(META_KEY.to_string(), serde_json::to_string(&info)?)]);
        Ok(safetensors::serialize(views, Some(meta))?)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let (_, meta) = safetensors::SafeTensors::read_metadata(bytes)?;
        let st = safetensors::SafeTensors::deserialize(bytes)?;
        let info: Meta = serde_json::from_str(
            meta.metadata()
                .as_ref()
                .and_then(|m| m.get(META_KEY))
                .with_context(|| format!("no `{META_KEY}` metadata"))?,
        )?;
        let item_ids = info.item_ids;
        let t = st.tensor("features")?;
        if t.dtype() != Dtype::F16 || t.shape().len() != 2 || t.shape()[0] != item_ids.len() {
            bail!(
                "expected an F16 [{}, width] tensor `features`, found {:?} {:?}",
                item_ids.len(),
                t.dtype(),
                t.shape()
            );
        }
        let values = t
            .data()
            .chunks_exact(2)
            .map(|w| f16::from_le_bytes([w[0], w[1]]).to_f32())
            .collect();
        let width = t.shape()[1];
        let blocks = if info.blocks.is_empty() {
            vec![width]
        } else {
            info.blocks
        };
        if blocks.iter().sum::<usize>() != width {
            bail!("the blocks {blocks:?} do not cover the {width}-wide rows");
        }
        Ok(HeadFeatures {
            width,
            item_ids,
            values,
            encoder: info.encoder,
            layout: info.layout,
            machine: info.machine,
            blocks,
        })
    }
}

/// The CPU model and its data-cache sizes (what gemm's blocking depends on), from /proc and /sys.
fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let mut caches = Vec::new();
    for i in 0..4 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let read =
            |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).map(|s| s.trim().to_string());
        if let (Ok(level), Ok(kind), Ok(size)) = (read("level"), read("type"), read("size")) {
            if kind != "Instruction" {
                let ways = read("ways_of_associativity").unwrap_or_default();
                caches.push(format!("L{level} {size} {ways}-way"));
            }
        }
    }
    #[cfg(target_arch = "x86_64")]
    let simd = format!(
        "avx2={} fma={} avx512f={}",
        std::arch::is_x86_feature_detected!("avx2"),
        std::arch::is_x86_feature_detected!("fma"),
        std::arch::is_x86_feature_detected!("avx512f")
    );
    #[cfg(not(target_arch = "x86_64"))]
    let simd = String::new();
    format!("{cpu}; {}; {simd}", caches.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_the_file_and_rounds_to_f16() {
        let f = HeadFeatures::new(
            vec!["a".into(), "b".into()],
            3,
            &[0.1, -2.5, 1e-3, 7.0, 0.333_333, 65_000.0],
            "enc".into(),
            "pair".into(),
        );
        assert_eq!(f.values[0], f16::from_f32(0.1).to_f32());
        assert_ne!(f.values[0], 0.1);
        let back = HeadFeatures::from_bytes(&f.to_bytes().unwrap()).unwrap();
        assert_eq!(back, f);
        assert_eq!(back.hash(), f.hash());
        assert_eq!(f.to_bytes().unwrap(), back.to_bytes().unwrap());
        // Blocks travel with the file and are part of the hash; one block is the old file format.
        let two = f.clone().with_blocks(vec![2, 1]);
        let back2 = HeadFeatures::from_bytes(&two.to_bytes().unwrap()).unwrap();
        assert_eq!(back2.blocks, vec![2, 1]);
        assert_ne!(two.hash(), f.hash());
        assert_eq!(back.blocks, vec![3]);
    }
}
