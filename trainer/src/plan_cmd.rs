//! `annosat plan`: the budget planner. For each total budget of votes, heads trained on I items ×
//! N votes (I·N ≤ budget) are scored on the test items against all their votes
//! (annosat_heads::budget), over several model seeds; the frontier is the best N per budget and
//! metric, against a constant predictor.

use crate::format::Format;
use annosat_heads::budget::{plan, BudgetConfig};
use annosat_heads::Dataset;
use anyhow::Result;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Vote file of the items the features describe (same items, same order).
    #[arg(long)]
    votes: PathBuf,
    /// Head features of those items: a `features.safetensors` from an export (e.g.
    /// public/models/chaosnli_snli/features.safetensors).
    #[arg(long)]
    head_features: PathBuf,
    /// Total budgets in votes, comma-separated (or in money with --price). Default: 1, 3 and 10
    /// times the training items.
    #[arg(long, value_delimiter = ',')]
    budgets: Vec<f64>,
    /// Price of one vote: --budgets are then amounts of money, each buying ⌊budget / price⌋ votes.
    #[arg(long)]
    price: Option<f64>,
    /// Annotators per item to try, comma-separated (items = budget / N).
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,5,10,20,50,100")]
    n: Vec<u32>,
    /// Model seeds per point (the range over them is the interval).
    #[arg(long = "model-seeds", alias = "seeds", default_value_t = 5)]
    seeds: u64,
    /// The item split (80/10/10) all points share.
    #[arg(long, default_value_t = 42)]
    split_seed: u64,
    /// Fewest training items a point may have.
    #[arg(long, default_value_t = 20)]
    min_items: usize,
    /// csv: `budget,items,n,metric,mean,lo,hi` (lo/hi: the lowest and highest over seeds); json
    /// adds every seed's metrics, the constant predictor and the frontier.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
}

pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.votes, false)?;
    let head = crate::sweep::load_features(&a.head_features)?;
    let prep = Dataset::new(crate::util::dataset_name(&a.votes), &table, head, false)?;
    let budgets = votes_for(&a.budgets, a.price)?;
    let cfg = BudgetConfig {
        budgets,
        ns: a.n.clone(),
        seeds: a.seeds,
        split_seed: a.split_seed,
        min_items: a.min_items,
    };
    let bar = crate::util::progress(1, "training");
    let report = plan(&prep, &cfg, &mut |d, n| {
        bar.set_length(n as u64);
        bar.set_position(d as u64);
    })?;
    bar.finish_and_clear();
    for b in report.skipped() {
        eprintln!("note: budget {b}: no (items, N) fits; skipped");
    }
    for line in report.sentences() {
        eprintln!("{line}");
    }
    if let Some(line) = report.target_sentence() {
        eprintln!("{line}");
    }
    let out = match a.format {
        Format::Csv => report.to_csv(),
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
    };
    print!("{out}");
    Ok(())
}

/// Budgets in votes: as given, or money / price (rounded down) with a line saying so.
fn votes_for(budgets: &[f64], price: Option<f64>) -> Result<Vec<u64>> {
    let mut out = Vec::new();
    for &b in budgets {
        if !(b.is_finite() && b > 0.0) {
            anyhow::bail!("a budget must be a positive number (got {b})");
        }
        let votes = match price {
            None if b.fract() != 0.0 => {
                anyhow::bail!("budget {b} is not a whole number of votes (money needs --price)")
            }
            None => b as u64,
            Some(p) if p.is_finite() && p > 0.0 => {
                let v = (b / p).floor() as u64;
                eprintln!("budget {b} at {p} per vote: {v} votes");
                v
            }
            Some(p) => anyhow::bail!("--price must be a positive number (got {p})"),
        };
        out.push(votes);
    }
    Ok(out)
}
