//! `annosat ratings`: rating curves for a vote file whose classes are a scale — how precisely N
//! raters' mean rating estimates the item's, how reliable the N-rater mean is, whether N raters
//! rank the items as all of them do, and the Wasserstein distance on the scale
//! (`annosat_core::ratings`, docs/ratings.md).

use crate::format::Format;
use crate::shared_args::{ScaleArgs, SubsampleArgs};
use annosat_core::curves::CurveConfig;
use annosat_core::ratings::{self, RatingCurves, RatingMetric};
use anyhow::{bail, Result};
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    sub: SubsampleArgs,
    #[command(flatten)]
    scale: ScaleArgs,
    /// Output: csv prints `n,metric,mean,lo,hi` (undefined values as empty cells); json adds the
    /// standard deviation, items per N, the closed-form RMSE, the single-rater ICC and the
    /// Spearman–Brown prediction.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
}

pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.sub.votes, false)?;
    let Some((scale, note)) = a.scale.scale(table.classes())? else {
        bail!(
            "the classes ({}) are not a scale: give --scale ordinal with --order (lowest first), or --scale interval for numbered classes",
            table.classes().join(", ")
        );
    };
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let cfg = CurveConfig {
        grid: a.sub.n.clone(),
        repeats: a.sub.repeats,
        seed: a.sub.seed,
        ..Default::default()
    };
    let c = ratings::compute(&table, &scale, &cfg, &mut |_| {})?;
    let skipped: Vec<u32> = a
        .sub
        .n
        .iter()
        .copied()
        .filter(|n| !c.grid.contains(n))
        .collect();
    if !skipped.is_empty() {
        eprintln!("N above the most ratings an item has skipped: {skipped:?}");
    }
    match a.format {
        Format::Csv => print!("{}", c.to_csv()),
        Format::Json => println!("{}", serde_json::to_string_pretty(&to_json(&c))?),
    }
    Ok(())
}

pub fn to_json(c: &RatingCurves) -> serde_json::Value {
    let metrics: serde_json::Map<String, serde_json::Value> = RatingMetric::ALL
        .iter()
        .map(|&m| (m.name().to_string(), json!(c.points(m))))
        .collect();
    let expected_rmse: Vec<f64> = c.expected_mse.iter().map(|v| v.sqrt()).collect();
    let spearman_brown: Vec<Option<f64>> = c.grid.iter().map(|&n| c.spearman_brown(n)).collect();
    json!({
        "kind": "ratings",
        "scale": c.scale,
        "grid": c.grid,
        "repeats": c.repeats,
        "seed": c.seed,
        "items": c.items,
        "metrics": metrics,
        "expected_rmse": expected_rmse,
        "icc1": c.icc1,
        "spearman_brown": spearman_brown,
    })
}
