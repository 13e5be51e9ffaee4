//! `annosat agree`: Krippendorff's α (nominal) of the votes, on all of them and on N-vote
//! subsamples (annosat_core::agreement), as CSV or JSON.

use crate::curves_cmd::Format;
use annosat_core::agreement::alpha_curve;
use anyhow::{bail, Result};
use serde_json::json;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Vote file: wide `item_id,<class…>` counts or long `item_id,annotator_id,label` (auto-detected).
    #[arg(long)]
    votes: PathBuf,
    /// Annotator budgets N (at least 2), comma-separated. Default: every N from 2 to the most votes
    /// an item has.
    #[arg(long, value_delimiter = ',')]
    n: Vec<u32>,
    /// Random subsamples per N; the interval is the 2.5–97.5th percentile over repeats.
    #[arg(long, default_value_t = 50)]
    repeats: u32,
    /// Seed for every random draw.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Output: csv prints `n,metric,mean,lo,hi` (metric `krippendorff_alpha`); json adds the α of
    /// all votes, items per N and standard deviations.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// Drop items with zero votes instead of failing on them.
    #[arg(long)]
    skip_empty_items: bool,
}

pub fn run(a: Args) -> Result<()> {
    if a.repeats == 0 {
        bail!("--repeats must be at least 1");
    }
    let table = crate::util::load_votes(&a.votes, a.skip_empty_items)?;
    let c = alpha_curve(&table, &a.n, a.repeats, a.seed);
    let dropped: Vec<u32> =
        a.n.iter()
            .copied()
            .filter(|n| !c.grid.contains(n))
            .collect();
    if !dropped.is_empty() {
        eprintln!(
            "note: α needs at least 2 votes and at most the most an item has ({}): skipped N = {dropped:?}",
            table.max_total()
        );
    }
    match c.full {
        Some(v) => eprintln!("Krippendorff's α (nominal) of all votes: {v:.4}"),
        None => eprintln!("Krippendorff's α is undefined for these votes (no item has two votes, or every vote is of one class)"),
    }
    if c.grid.is_empty() {
        bail!(
            "no N from 2 to the most votes an item has ({}) was asked for: α needs pairs of votes",
            table.max_total()
        );
    }
    let pts: Vec<_> = (0..c.grid.len()).map(|g| c.point_at(g)).collect();
    let out = match a.format {
        Format::Csv => {
            let f = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
            let mut s = String::from("n,metric,mean,lo,hi\n");
            for p in &pts {
                writeln!(
                    s,
                    "{},krippendorff_alpha,{},{},{}",
                    p.n,
                    f(p.mean),
                    f(p.lo),
                    f(p.hi)
                )?;
            }
            s
        }
        Format::Json => {
            let points: Vec<_> = pts
                .iter()
                .map(|p| json!({"n": p.n, "mean": p.mean, "lo": p.lo, "hi": p.hi, "sd": p.sd}))
                .collect();
            serde_json::to_string_pretty(&json!({
                "metric": "krippendorff_alpha", "level": "nominal", "full": c.full,
                "grid": c.grid, "repeats": c.repeats, "seed": a.seed, "items": c.items, "points": points,
            }))? + "\n"
        }
    };
    print!("{out}");
    Ok(())
}
