//! `annosat plan`: the budget planner. For each total budget of votes, heads trained on I items ×
//! N votes (I·N ≤ budget) are scored on the test items against all their votes
//! (annosat_heads::budget), over several model seeds; the frontier is the best N per budget and
//! metric, against a constant predictor.

use crate::curves_cmd::Format;
use annosat_heads::budget::{constant_baseline, grid, train_points, BudgetPoint};
use annosat_heads::mlp::HeadConfig;
use annosat_heads::split::group_split;
use annosat_heads::Dataset;
use anyhow::{bail, Result};
use serde_json::json;
use std::fmt::Write as _;
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
    /// Total budgets in votes, comma-separated. Default: 1, 3 and 10 times the training items.
    #[arg(long, value_delimiter = ',')]
    budgets: Vec<u64>,
    /// Annotators per item to try, comma-separated (items = budget / N).
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,5,10,20,50,100")]
    n: Vec<u32>,
    /// Model seeds per point (the range over them is the interval).
    #[arg(long, default_value_t = 5)]
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

/// The metrics the planner reports, with the direction that is better.
const METRICS: [(&str, bool); 4] = [
    ("kl", true),
    ("jsd", true),
    ("entropy_corr", false),
    ("accuracy", false),
];

fn value(p: &BudgetPoint, metric: &str) -> f64 {
    let m = &p.metrics;
    match metric {
        "kl" => m.kl,
        "jsd" => m.jsd,
        "entropy_corr" => m.entropy_corr.unwrap_or(f64::NAN),
        _ => m.accuracy,
    }
}

pub fn run(a: Args) -> Result<()> {
    if a.seeds == 0 {
        bail!("--seeds must be at least 1");
    }
    let table = crate::util::load_votes(&a.votes, false)?;
    let head = crate::sweep::load_features(&a.head_features)?;
    let prep = Dataset::new(crate::util::dataset_name(&a.votes), &table, head, false)?;
    let train_items = group_split(table.num_items(), a.split_seed, None)[0].len();
    let budgets: Vec<u64> = if a.budgets.is_empty() {
        [1, 3, 10].iter().map(|f| f * train_items as u64).collect()
    } else {
        a.budgets.clone()
    };
    let points = grid(&budgets, &a.n, train_items, table.max_total(), a.min_items);
    if points.is_empty() {
        bail!(
            "no (items, N) fits: each budget / N must be between --min-items {} and the {train_items} training items, N at most {} votes",
            a.min_items,
            table.max_total()
        );
    }
    let hc = HeadConfig::default();
    let bar = crate::util::progress(a.seeds, "seeds");
    let mut all = Vec::new();
    for seed in 0..a.seeds {
        all.extend(train_points(
            &prep,
            &hc,
            &points,
            a.split_seed,
            seed,
            &mut |_, _| {},
        )?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let base = constant_baseline(&prep, a.split_seed);
    // (budget, items, n, metric) → values over seeds.
    let stats = |b: u64, i: usize, n: u32, metric: &str| -> (f64, f64, f64) {
        let v: Vec<f64> = all
            .iter()
            .filter(|p| p.budget == b && p.items == i && p.n == n)
            .map(|p| value(p, metric))
            .filter(|x| !x.is_nan())
            .collect();
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (mean, lo, hi)
    };
    let mut frontier = Vec::new();
    for &b in &budgets {
        let here: Vec<&(u64, usize, u32)> = points.iter().filter(|p| p.0 == b).collect();
        if here.is_empty() {
            eprintln!("note: budget {b}: no (items, N) fits; skipped");
            continue;
        }
        for (metric, lower) in METRICS {
            let scored: Vec<(usize, u32, (f64, f64, f64))> = here
                .iter()
                .map(|p| (p.1, p.2, stats(b, p.1, p.2, metric)))
                .filter(|(_, _, s)| s.0.is_finite())
                .collect();
            let best = scored.iter().min_by(|x, y| {
                let (a, b) = (x.2 .0, y.2 .0);
                if lower {
                    a.total_cmp(&b)
                } else {
                    b.total_cmp(&a)
                }
            });
            if let Some(&(items, n, (mean, lo, hi))) = best {
                let close = scored
                    .iter()
                    .filter(|s| s.1 != n && (lo..=hi).contains(&s.2 .0))
                    .map(|s| format!("{} × {}", s.0, s.1))
                    .collect();
                frontier.push(Best {
                    budget: b,
                    metric,
                    items,
                    n,
                    mean,
                    lo,
                    hi,
                    close,
                });
            }
        }
    }
    for line in sentences(&frontier, &base) {
        eprintln!("{line}");
    }
    let out = match a.format {
        Format::Csv => {
            let mut s = String::from("budget,items,n,metric,mean,lo,hi\n");
            for &(b, i, n) in &points {
                for (metric, _) in METRICS {
                    let (m, lo, hi) = stats(b, i, n, metric);
                    writeln!(s, "{b},{i},{n},{metric},{m},{lo},{hi}")?;
                }
            }
            s
        }
        Format::Json => {
            serde_json::to_string_pretty(&json!({
                "split_seed": a.split_seed, "seeds": a.seeds, "train_items": train_items,
                "constant": base,
                "frontier": frontier.iter().map(|f| json!({
                    "budget": f.budget, "metric": f.metric, "items": f.items, "n": f.n,
                    "mean": f.mean, "lo": f.lo, "hi": f.hi, "within_range": f.close,
                })).collect::<Vec<_>>(),
                "points": all,
            }))? + "\n"
        }
    };
    print!("{out}");
    Ok(())
}

/// One sentence per budget: the N that is best for distribution match (KL) and for ranking items
/// by ambiguity (entropy correlation), with the range over seeds, the other points whose mean lies
/// inside that range (the seeds cannot tell them apart), and the constant predictor.
fn sentences(frontier: &[Best], base: &annosat_heads::eval::Metrics) -> Vec<String> {
    let mut out = Vec::new();
    let mut budgets: Vec<u64> = frontier.iter().map(|f| f.budget).collect();
    budgets.dedup();
    let plural = |n: u32| if n == 1 { "annotator" } else { "annotators" };
    let ties = |f: &Best| {
        if f.close.is_empty() {
            String::new()
        } else {
            format!("; within that range: {}", f.close.join(", "))
        }
    };
    for b in budgets {
        let find = |m: &str| frontier.iter().find(|f| f.budget == b && f.metric == m);
        let (Some(kl), Some(ec)) = (find("kl"), find("entropy_corr")) else {
            continue;
        };
        out.push(format!(
            "With {b} votes, {} items × {} {} minimises KL ({:.4}; seeds {:.4}–{:.4}{}; constant predictor {:.4}); for ranking items by ambiguity (entropy correlation), {} × {} ({:.3}; seeds {:.3}–{:.3}{}).",
            kl.items, kl.n, plural(kl.n), kl.mean, kl.lo, kl.hi, ties(kl), base.kl,
            ec.items, ec.n, ec.mean, ec.lo, ec.hi, ties(ec)
        ));
    }
    out
}

/// The best point of one budget for one metric.
struct Best {
    budget: u64,
    metric: &'static str,
    items: usize,
    n: u32,
    mean: f64,
    lo: f64,
    hi: f64,
    /// Other points of the budget whose mean lies within [lo, hi], as "I × N".
    close: Vec<String>,
}
