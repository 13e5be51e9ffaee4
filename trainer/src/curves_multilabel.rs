//! `annosat curves` on multilabel votes: per-metric curves, saturation points with item and
//! repeat intervals, and per-label JS distance and F1, as CSV or JSON.

use crate::curves_cmd::Format;
use annosat_core::import::multilabel::MultilabelReport;
use annosat_core::multilabel::{self, MlConfig, MlCurves, MlMetric, MlPoint, MultilabelTable};
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
    let last = c.grid.last().copied().unwrap_or(0);
    for m in MlMetric::ALL {
        eprintln!(
            "answer: {}",
            c.saturation(m, a.target).sentence(m.name(), last)
        );
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

fn points_json(
    points: &[MlPoint],
    band: impl Fn(usize) -> (Option<f64>, Option<f64>),
) -> serde_json::Value {
    points
        .iter()
        .enumerate()
        .map(|(g, p)| {
            let (blo, bhi) = band(g);
            json!({"n": p.n, "items": p.items, "mean": p.mean, "sd": p.sd, "lo": p.lo, "hi": p.hi,
                   "items_lo": blo, "items_hi": bhi})
        })
        .collect()
}

pub fn to_json(t: &MultilabelTable, c: &MlCurves, cfg: &MlConfig, x: f64) -> serde_json::Value {
    let last = c.grid.last().copied().unwrap_or(0);
    let mut metrics = serde_json::Map::new();
    let mut saturation = serde_json::Map::new();
    for m in MlMetric::ALL {
        let band = |g| c.bands.as_ref().map_or((None, None), |b| b.band(m, g));
        metrics.insert(m.name().into(), points_json(&c.points(m), band));
        let s = c.saturation(m, x);
        let mut v = serde_json::to_value(s).expect("a saturation point serialises");
        v["sentence"] = json!(s.sentence(m.name(), last));
        saturation.insert(m.name().into(), v);
    }
    let positives: Vec<usize> = (0..t.n_labels())
        .map(|l| {
            (0..t.n_items())
                .filter(|&i| 2 * t.counts(i)[l] >= t.votes(i))
                .count()
        })
        .collect();
    let per_label: Vec<serde_json::Value> = t
        .labels()
        .iter()
        .enumerate()
        .map(|(l, name)| {
            let share = (0..t.n_items()).map(|i| t.shares(i)[l]).sum::<f64>() / t.n_items() as f64;
            let s = c.label_saturation(l, x);
            let mut sat = serde_json::to_value(s).expect("a saturation point serialises");
            sat["sentence"] = json!(s.sentence(&format!("{name} (JS distance)"), last));
            json!({
                "label": name,
                "mean_share": share,
                "majority_items": positives[l],
                "jsd": points_json(&c.label_jsd(l), |_| (None, None)),
                "f1": points_json(&c.label_f1(l), |_| (None, None)),
                "saturation": sat,
            })
        })
        .collect();
    json!({
        "kind": "multilabel",
        "labels": t.labels(),
        "grid": c.grid,
        "repeats": c.repeats,
        "seed": cfg.seed,
        "target": x,
        "items": c.items,
        "bootstrap": c.bands.as_ref().map(|b| json!({"resamples": b.resamples, "blocks": b.blocks, "units": b.units})),
        "metrics": metrics,
        "saturation": saturation,
        "per_label": per_label,
    })
}
