//! Target-side curves on ChaosNLI-SNLI: every N from 1 to 100, 50 repeats, four metrics.
//! Goal: ≤ 50 ms in the browser (see docs/speed.md for the wasm side).

use annosat_core::curves::{compute, CurveConfig};
use annosat_core::{parse_votes, ImportOptions};
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let path = std::env::var("ANNOSAT_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data")
        })
        .join("chaosnli_snli/votes.csv");
    let bytes = std::fs::read(&path).expect("ChaosNLI-SNLI votes.csv (run scripts/fetch-data.sh)");
    let (table, _) = parse_votes(&bytes, &ImportOptions::default()).unwrap();
    let cfg = CurveConfig::default();
    let mut g = c.benchmark_group("curves");
    g.sample_size(20);
    g.bench_function("chaosnli_snli_all_n_50_repeats", |b| {
        b.iter(|| compute(&table, &cfg).unwrap())
    });
    g.bench_function("parse_chaosnli_snli", |b| {
        b.iter(|| parse_votes(&bytes, &ImportOptions::default()).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
