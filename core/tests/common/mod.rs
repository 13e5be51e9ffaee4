//! What the core's integration tests share: where the datasets are, and the synthetic population
//! the coverage tests hold their intervals against.
#![allow(dead_code)]

use annosat_core::curves::{self, CurveConfig, Curves};
use annosat_core::synth::{generate, SynthConfig};
use annosat_core::VoteTable;
use std::path::PathBuf;

/// `ANNOSAT_DATA`, else `../shared/data` beside the checkout, else the download cache.
pub fn data_dir() -> PathBuf {
    if let Ok(d) = std::env::var("ANNOSAT_DATA") {
        return PathBuf::from(d);
    }
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    if shared.exists() {
        return shared;
    }
    let cache =
        PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/annosat/data");
    assert!(
        cache.exists(),
        "no datasets found: run scripts/fetch-data.sh (or set ANNOSAT_DATA)"
    );
    cache
}

/// A coverage test's crowd: `items` items of 3 classes from a symmetric Dirichlet(0.8) prior, `votes`
/// votes each from a pool of `annotators`.
pub fn crowd(items: usize, votes: u32, annotators: usize) -> SynthConfig {
    SynthConfig {
        items,
        classes: 3,
        concentration: 0.8,
        votes,
        annotators,
        ..Default::default()
    }
}

/// The curves of the population a coverage test's datasets are drawn from (`population`), 4
/// repeats per N.
pub fn population_curves(base: &SynthConfig, annotators: Option<usize>) -> Curves {
    let cfg = CurveConfig {
        repeats: 4,
        ..Default::default()
    };
    curves::compute(&population(base, annotators), &cfg).unwrap()
}

/// The population a coverage test's datasets are drawn from: five 20,000-item draws of `base`'s
/// generator (seeds 1,000–1,004) as one table, each item labelled by `annotators` of a pool that
/// large (`None`: `base`'s own pool).
pub fn population(base: &SynthConfig, annotators: Option<usize>) -> VoteTable {
    let (mut counts, mut ids) = (Vec::new(), Vec::new());
    for s in 0..5u64 {
        let syn = generate(&SynthConfig {
            items: 20_000,
            annotators: annotators.unwrap_or(base.annotators),
            seed: 1_000 + s,
            ..base.clone()
        })
        .unwrap();
        for i in 0..syn.table.num_items() {
            counts.extend_from_slice(syn.table.counts(i));
            ids.push(format!("{s}-{i}"));
        }
    }
    let classes = (0..base.classes).map(|c| format!("c{c}")).collect();
    VoteTable::new(classes, ids, counts)
}
