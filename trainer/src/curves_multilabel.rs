//! `annosat curves` on multilabel votes: per-metric curves, saturation points with item and
//! repeat intervals, and per-label JS distance and F1, as CSV or JSON.

use crate::format::Format;
use annosat_core::import::multilabel::MultilabelReport;
use annosat_core::multilabel::{self, MlConfig, MlCurves, MlMetric, MlReport, MultilabelTable};
use anyhow::Result;
use serde_json::json;

/// What the multilabel path takes from `annosat curves`' flags.
pub struct MlArgs {
    pub n: Vec<u32>,
    pub repeats: u32,
    pub seed: u64,
    pub bootstrap: u32,
    pub target: f64,
    pub format: Format,
}

pub fn run(table: &MultilabelTable, report: &MultilabelReport, a: &MlArgs) -> Result<()> {
    let grid = if a.n.is_empty() {
        (1..=table.max_votes()).collect()
    } else {
        a.n.clone()
    };
    eprintln!(
        "note: multilabel votes ({:?} layout): {} items, {} labels, {}–{} annotators per item",
        report.format,
        table.n_items(),
        table.n_labels(),
        table.min_votes(),
        table.max_votes()
    );
    let cfg = MlConfig {
        grid: grid.clone(),
        repeats: a.repeats,
        seed: a.seed,
        bootstrap: a.bootstrap,
    };
    let c = multilabel::compute(table, &cfg).map_err(|e| anyhow::anyhow!(e))?;
    let dropped: Vec<u32> = grid
        .iter()
        .copied()
        .filter(|n| !c.grid.contains(n))
        .collect();
    if !dropped.is_empty() {
        eprintln!(
            "note: N above the most annotators an item has ({}) skipped: {dropped:?}",
            table.max_votes()
        );
    }
    if let Some(b) = c.bands.as_ref().filter(|b| b.blocks) {
        eprintln!(
            "note: the item intervals resample {} random blocks of items instead of single items (a block bootstrap, to bound the memory)",
            b.units
        );
    }
    for m in &MlReport::of(table, &c, &cfg, a.target).metrics {
        eprintln!("answer: {}", m.sentence);
    }
    let out = match a.format {
        Format::Csv => to_csv(&c),
        Format::Json => serde_json::to_string_pretty(&to_json(table, &c, &cfg, a.target))? + "\n",
    };
    print!("{out}");
    Ok(())
}

fn cell(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!("{v}"))
}

/// `n,metric,mean,lo,hi` (repeat intervals; undefined values as empty cells).
pub fn to_csv(c: &MlCurves) -> String {
    let mut s = String::from("n,metric,mean,lo,hi\n");
    for m in MlMetric::ALL {
        for p in c.points(m) {
            s += &format!(
                "{},{},{},{},{}\n",
                p.n,
                m.name(),
                cell(p.mean),
                cell(p.lo),
                cell(p.hi)
            );
        }
    }
    s
}

/// The JSON output: the core's [`MlReport`] (what the app shows too), with each metric's points
/// and saturation point keyed by its name.
pub fn to_json(t: &MultilabelTable, c: &MlCurves, cfg: &MlConfig, x: f64) -> serde_json::Value {
    let r = MlReport::of(t, c, cfg, x);
    let mut metrics = serde_json::Map::new();
    let mut saturation = serde_json::Map::new();
    for m in &r.metrics {
        metrics.insert(m.metric.name().into(), json!(m.points));
        let mut v = json!(m.saturation);
        v["sentence"] = json!(m.sentence);
        saturation.insert(m.metric.name().into(), v);
    }
    let per_label: Vec<serde_json::Value> = r
        .per_label
        .iter()
        .map(|l| {
            let mut sat = json!(l.saturation);
            sat["sentence"] = json!(l.sentence);
            json!({"label": l.label, "mean_share": l.mean_share, "majority_items": l.majority_items,
                   "jsd": l.jsd, "f1": l.f1, "saturation": sat})
        })
        .collect();
    json!({
        "kind": "multilabel",
        "labels": r.labels,
        "grid": r.grid,
        "repeats": r.repeats,
        "seed": r.seed,
        "target": r.target,
        "items": r.items,
        "bootstrap": r.bootstrap,
        "metrics": metrics,
        "saturation": saturation,
        "per_label": per_label,
    })
}
