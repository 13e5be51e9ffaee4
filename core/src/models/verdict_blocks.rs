//! An export's test predictions as the verdicts' [`Block`]s: what `annosat sweep` computes the
//! manifest's verdicts from, and what anyone can recompute them from (the manifest, predictions.bin
//! and the dataset's votes).

use super::verdict::{Block, RunPredictions};
use super::Manifest;

/// The blocks of an export. A k-fold sweep is one block (every item, in the folds' order) whose
/// strata are the folds; a seeded-split sweep has one block per split seed. `human(id)` gives an
/// item's reference distribution (the manifest's `reference`); items for which `keep(id)` is false
/// are left out (one source of a pooled export). `pred` is predictions.bin as u16 values.
pub fn blocks_of_export(
    m: &Manifest,
    pred: &[u16],
    human: &dyn Fn(&str) -> Option<Vec<f64>>,
    keep: &dyn Fn(&str) -> bool,
) -> Result<Vec<Block>, String> {
    let k = m.classes.len();
    let kfold = m.config.as_ref().is_some_and(|c| c.folds.is_some());
    // Each part: (stratum, split seed, the kept positions in that split's test list).
    let parts: Vec<(u32, u64, Vec<usize>)> = m
        .splits
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let kept = (0..s.test_items.len())
                .filter(|&i| keep(&s.test_items[i]))
                .collect();
            (si as u32, s.seed, kept)
        })
        .collect();
    let groups: Vec<Vec<&(u32, u64, Vec<usize>)>> = if kfold {
        vec![parts.iter().collect()]
    } else {
        parts.iter().map(|p| vec![p]).collect()
    };
    let mut blocks = Vec::new();
    for g in groups {
        let (mut hum, mut strata) = (Vec::new(), Vec::new());
        for (stratum, split, kept) in &g {
            let s = m.splits.iter().find(|s| s.seed == *split).expect("split");
            for &i in kept {
                let id = &s.test_items[i];
                let h = human(id).ok_or_else(|| format!("no reference votes for item {id:?}"))?;
                if h.len() != k {
                    return Err(format!(
                        "item {id:?}: {} classes, the export has {k}",
                        h.len()
                    ));
                }
                hum.extend(h);
                strata.push(*stratum);
            }
        }
        if strata.is_empty() {
            continue;
        }
        let mut runs: Vec<RunPredictions> = Vec::new();
        for arm in m.arms() {
            for n in m.ns() {
                let mut seeds: Vec<u64> = m.runs.iter().map(|r| r.seed).collect();
                seeds.sort_unstable();
                seeds.dedup();
                for seed in seeds {
                    let mut p = Vec::with_capacity(strata.len() * k);
                    let mut complete = true;
                    for (_, split, kept) in &g {
                        let s = m.splits.iter().find(|s| s.seed == *split).expect("split");
                        let Some(r) = m.runs.iter().find(|r| {
                            r.arm == arm && r.n == n && r.seed == seed && r.split == *split
                        }) else {
                            complete = false;
                            break;
                        };
                        let end = r.offset + s.test_items.len() * k;
                        let vals = pred
                            .get(r.offset..end)
                            .ok_or("predictions.bin is shorter than the manifest says")?;
                        for &i in kept {
                            p.extend(vals[i * k..(i + 1) * k].iter().map(|&v| v as f64 / 65535.0));
                        }
                    }
                    if complete {
                        runs.push(RunPredictions {
                            arm: arm.clone(),
                            seed,
                            n,
                            pred: p,
                        });
                    }
                }
            }
        }
        blocks.push(Block {
            human: hum,
            strata,
            runs,
        });
    }
    Ok(blocks)
}
