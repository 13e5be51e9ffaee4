//! The fuzz targets' bodies, one function per target (the `fuzz_targets/` binaries only call them,
//! and `tests/regressions.rs` runs them on every seed and every input a fuzzer ever crashed on).
//!
//! Each does with an input that parsed everything the app and the CLI do next with it, so a table
//! or manifest that decodes but breaks an invariant is found here, not by a user: a bundle that
//! decodes into a table with the wrong number of counts, say, is refused by the decoder
//! (`VoteTable::check`) instead of panicking later in the curve code.

use annosat_core::curves::{compute, item_draws};
use annosat_core::import::{parse_texts_csv, parse_votes, ImportOptions};
use annosat_core::models::{captured_at, paired, ExportsIndex, Manifest, ModelMetric, Repro};
use annosat_core::summary::Summary;
use annosat_core::{CurveConfig, Reference, VoteTable};

/// Work per input stays small so the fuzzer keeps its pace: curves only for small tables.
const MAX_CELLS: usize = 4_096;
const MAX_VOTES: u64 = 2_000;

/// A table from the importer or the bundle decoder: its invariants, the summary, and (when small)
/// the curves and per-item draws the app computes next, with the full and the held-out reference.
pub fn exercise_table(t: &VoteTable) {
    t.check().expect("a parsed table keeps its invariants");
    let s = Summary::of(t);
    assert_eq!(s.items, t.num_items());
    let cells = t.num_items() * t.num_classes();
    if cells == 0 || cells > MAX_CELLS || s.total_votes > MAX_VOTES {
        return;
    }
    for reference in [Reference::Full, Reference::HeldOut { fraction: 0.5 }] {
        let cfg = CurveConfig {
            repeats: 2,
            reference,
            ..Default::default()
        };
        if let Ok(c) = compute(t, &cfg) {
            for &n in c.grid.iter().take(3) {
                let _ = item_draws(t, &cfg, n, 0);
            }
        }
    }
}

/// A manifest: every view the Models room builds from one.
pub fn exercise_manifest(m: &Manifest) {
    let arms = m.arms();
    let ns = m.ns();
    for metric in ModelMetric::ALL {
        for arm in arms.iter().take(4) {
            let points = m.curve(arm, metric);
            let _ = captured_at(&points, 0.9);
            for &n in ns.iter().take(4) {
                let _ = m.pooled_at(arm, n);
                for other in arms.iter().take(4) {
                    let _ = paired(m, arm, other, n, metric);
                }
            }
        }
    }
}

/// Target `import_csv`: the CSV vote import (wide and long; `,` `;` tab and Excel's `sep=` line)
/// as uploads reach it, with and without skipping zero-vote items, and the texts-file reader.
pub fn import_csv(data: &[u8]) {
    for skip in [false, true] {
        let opts = ImportOptions {
            skip_zero_vote_items: skip,
            // The app's item limit, small enough to be reached.
            max_items: skip.then_some(3),
        };
        match parse_votes(data, &opts) {
            Ok((table, report)) => {
                for col in &report.texts {
                    assert_eq!(col.values.len(), table.num_items(), "one text per item");
                }
                exercise_table(&table);
            }
            // Messages stay short whatever the input (quoted values are cut).
            Err(e) => {
                let len = e.to_string().len();
                assert!(len < 2_000, "a message of {len} bytes");
            }
        }
    }
    let _ = parse_texts_csv(data);
}

/// Target `bundle_decode`: the dataset files the app's worker fetches (`annosat bundle`).
pub fn bundle_decode(data: &[u8]) {
    if let Ok(b) = annosat_core::bundle::decode(data) {
        exercise_table(&b.table);
    }
}

/// Target `manifest`: the model-export readers (a manifest, the exports index, the reproduction
/// table).
pub fn manifest(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = Manifest::parse(text) {
        exercise_manifest(&m);
    }
    let _ = serde_json::from_str::<ExportsIndex>(text);
    let _ = serde_json::from_str::<Repro>(text);
}
