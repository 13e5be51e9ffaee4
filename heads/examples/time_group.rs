//! Benchmark helper (not a test): trains one sweep group natively — every arm × N of an export, for
//! one (split seed, model seed), for a fixed number of epochs — and prints the best of three times.
//! `scripts/bench-models-wasm.sh` runs it on one core beside the same job in the browser's model worker.
//!
//!   time_group <features.safetensors> <votes.csv> <manifest.json> <split> <seed> <epochs>
//!   (`split`: the split seed, or for a k-fold export the fold)

use annosat_core::models::Manifest;
use annosat_heads::arms::Arm;
use annosat_heads::{train_group, Dataset, HeadFeatures};
use std::time::Instant;

/// As in the trainer (trainer/src/main.rs): glibc's allocator returns and re-faults the optimiser's
/// buffers every step, which would time the kernel, not the training.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let [features, votes, manifest, split, seed, epochs] = a.as_slice() else {
        anyhow::bail!("usage: time_group <features.safetensors> <votes.csv> <manifest.json> <split> <seed> <epochs>");
    };
    let head = HeadFeatures::from_bytes(&std::fs::read(features)?)?;
    let (table, _) = annosat_core::parse_votes(&std::fs::read(votes)?, &Default::default())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let m = Manifest::parse(&std::fs::read_to_string(manifest)?).map_err(anyhow::Error::msg)?;
    let cfg = m
        .config
        .ok_or_else(|| anyhow::anyhow!("the manifest has no config"))?;
    let mut data = Dataset::new(cfg.dataset.clone(), &table, head, cfg.heldout)?;
    // A k-fold export's groups are folds (`split` is the fold index), as the page retrains them.
    data.folds = cfg.folds;
    let arms: Vec<Arm> = cfg.arms.iter().filter_map(|s| Arm::parse(s)).collect();
    let mut hc = cfg.head.clone();
    let e: usize = epochs.parse()?;
    (hc.epochs, hc.patience) = (e, e);
    let heads = arms.iter().filter(|a| a.trained()).count() * cfg.ns.len();
    let mut times = Vec::new();
    for _ in 0..3 {
        let t0 = Instant::now();
        train_group(
            &data,
            &cfg.ns,
            &hc,
            &arms,
            split.parse()?,
            seed.parse()?,
            |_| {},
        )?;
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    let best = times.iter().cloned().fold(f64::INFINITY, f64::min);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{heads} heads, {e} epochs, {threads} thread(s): best of 3 {best:.0} ms ({times:.0?})"
    );
    Ok(())
}
