//! `annosat agree`: Krippendorff's α of the votes (nominal, ordinal or interval), on all of them and
//! on N-vote subsamples, and how often majority vote and Dawid–Skene label an item from N votes as
//! they do from all (annosat_core::agreement), as CSV or JSON.

use crate::format::Format;
use crate::shared_args::SubsampleArgs;
use annosat_core::agreement::{agreement, AgreeConfig, DsConfig, Level};
use annosat_core::VoteTable;
use anyhow::{bail, Result};
use clap::ValueEnum;
use serde_json::json;

#[derive(Clone, Copy, ValueEnum)]
pub enum LevelArg {
    Nominal,
    Ordinal,
    Interval,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    sub: SubsampleArgs,
    /// α's level of measurement: nominal (classes unordered), ordinal (ranked, in --order) or
    /// interval (the class names are numbers).
    #[arg(long, value_enum, default_value = "nominal")]
    level: LevelArg,
    /// Ordinal: the class names from lowest to highest, comma-separated. Default: the table's class
    /// order (a wide file's header order; a long file's labels sorted, numerically when all are
    /// numbers).
    #[arg(long, value_delimiter = ',')]
    order: Vec<String>,
    /// Dawid–Skene's EM: at most this many rounds …
    #[arg(long, default_value_t = 100)]
    max_iter: u32,
    /// … stopping when the evidence lower bound per vote rose by less than this.
    #[arg(long, default_value_t = 1e-5)]
    tol: f64,
    /// Output: csv prints `n,metric,mean,lo,hi` (metrics `krippendorff_alpha`, Gwet's `gwet_ac1`
    /// and, at the ordinal and interval levels, `gwet_ac2_ordinal`, `gwet_ac2_linear`,
    /// `gwet_ac2_quadratic`, then `majority_match`, `dawid_skene_match`); json adds every
    /// coefficient of all votes, items per N, standard deviations and Dawid–Skene's convergence.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// Drop items with zero votes instead of failing on them.
    #[arg(long)]
    skip_empty_items: bool,
}

/// The level the flags ask for, on `table`'s classes.
pub fn level_of(table: &VoteTable, level: LevelArg, order: &[String]) -> Result<Level> {
    let name = match level {
        LevelArg::Nominal => "nominal",
        LevelArg::Ordinal => "ordinal",
        LevelArg::Interval => "interval",
    };
    Level::from_choice(name, table.classes(), order).map_err(|e| anyhow::anyhow!("{e}"))
}

pub fn run(a: Args) -> Result<()> {
    if a.sub.repeats == 0 {
        bail!("--repeats must be at least 1");
    }
    if a.max_iter == 0 {
        bail!("--max-iter must be at least 1");
    }
    let table = crate::util::load_votes(&a.sub.votes, a.skip_empty_items)?;
    let level = level_of(&table, a.level, &a.order)?;
    let cfg = AgreeConfig {
        level,
        grid: a.sub.n.clone(),
        repeats: a.sub.repeats,
        seed: a.sub.seed,
        ds: DsConfig {
            max_iter: a.max_iter,
            tol: a.tol,
        },
    };
    let result = agreement(&table, &cfg, &mut |_, _| {});
    let (alpha, agg) = (&result.alpha, &result.aggregation);
    let dropped = a.sub.skipped(&agg.grid);
    if !dropped.is_empty() {
        eprintln!(
            "note: no item has more than {} votes: skipped N = {dropped:?}",
            table.max_total()
        );
    }
    let name = cfg.level.name();
    match alpha.full {
        Some(v) => eprintln!("Krippendorff's α ({name}) of all votes: {v:.4}"),
        None => eprintln!("Krippendorff's α is undefined for these votes (no item has two votes, or every vote is of one class)"),
    }
    for c in &result.gwet {
        if let Some(v) = c.full {
            eprintln!("Gwet's {} of all votes: {v:.4}", c.kind.metric_name());
        }
    }
    match &agg.dawid_skene {
        Some(d) => eprintln!(
            "Dawid–Skene on all votes: {} EM rounds, {}; on the subsamples {} of {} fits stopped at --max-iter {}",
            d.full_iterations,
            if d.full_converged { "converged" } else { "stopped at --max-iter before converging" },
            d.unconverged,
            d.runs,
            a.max_iter
        ),
        None => eprintln!("note: no annotator ids in {} (wide counts): Dawid–Skene needs the long form item_id,annotator_id,label; majority vote only", a.sub.votes.display()),
    }
    if agg.grid.is_empty() {
        bail!(
            "none of the N asked for is between 1 and the most votes an item has ({})",
            table.max_total()
        );
    }
    let out = match a.format {
        Format::Csv => result.to_csv(),
        Format::Json => {
            let points: Vec<_> = result
                .rows()
                .iter()
                .map(|(n, m, p)| json!({"n": n, "metric": m, "mean": p.mean, "lo": p.lo, "hi": p.hi, "sd": p.sd}))
                .collect();
            serde_json::to_string_pretty(&json!({
                "level": name, "full": alpha.full,
                "gwet": result.gwet.iter().map(|c| json!({"metric": c.kind.metric_name(), "full": c.full})).collect::<Vec<_>>(),
                "grid": agg.grid, "repeats": a.sub.repeats,
                "seed": a.sub.seed, "items": agg.items, "dawid_skene": agg.dawid_skene, "points": points,
            }))? + "\n"
        }
    };
    print!("{out}");
    Ok(())
}
