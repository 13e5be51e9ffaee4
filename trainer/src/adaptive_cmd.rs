//! `annosat adaptive`: simulated vote collection in rounds on the items' real votes; adaptive
//! policies against uniform allocation at the same total budget (annosat_core::adaptive).

use crate::format::Format;
use annosat_core::adaptive::{simulate, AdaptiveConfig, Policy};
use annosat_core::Metric;
use anyhow::{bail, Result};
use serde_json::json;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Vote file: wide counts or long `item_id,annotator_id,label` (auto-detected).
    #[arg(long)]
    votes: PathBuf,
    /// Votes every item starts with (at least 2 for entropy_variance, whose prior is fitted to
    /// them).
    #[arg(long, default_value_t = 3)]
    n0: u32,
    /// Total budgets, in votes per item on average, comma-separated. Default: n0+1 up to
    /// 2·n0+10, or as far as the items' votes go.
    #[arg(long = "n", alias = "budgets", value_delimiter = ',')]
    budgets: Vec<u32>,
    /// Items given one more vote per round. Default: a tenth of the items.
    #[arg(long = "round-items", alias = "batch")]
    batch: Option<u32>,
    /// Policies, comma-separated: uniform, disagreement, entropy_variance (uniform is always run:
    /// the others are compared with it).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "uniform,disagreement,entropy_variance"
    )]
    policies: Vec<String>,
    /// Simulations per policy; intervals are the 2.5–97.5th percentiles over them.
    #[arg(long, default_value_t = 20)]
    repeats: u32,
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// csv prints `budget,policy,metric,mean,lo,hi,diff_mean,diff_lo,diff_hi` (diff: the policy
    /// minus uniform, paired by repeat); json adds standard deviations and the settings.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
}

pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.votes, true)?;
    let mut policies = vec![Policy::Uniform];
    for name in &a.policies {
        let Some(p) = Policy::ALL.into_iter().find(|p| p.name() == name.trim()) else {
            bail!("unknown policy {name:?}: uniform, disagreement or entropy_variance");
        };
        if !policies.contains(&p) {
            policies.push(p);
        }
    }
    let mut cfg = AdaptiveConfig::defaults(&table, a.n0, a.seed);
    cfg.policies = policies;
    cfg.repeats = a.repeats;
    if !a.budgets.is_empty() {
        cfg.budgets = a.budgets.clone();
    }
    if let Some(b) = a.batch {
        cfg.batch = b;
    }
    let bar = crate::util::progress(
        (cfg.policies.len() * cfg.repeats as usize) as u64,
        "simulations",
    );
    let r = simulate(&table, &cfg, &mut |done, _| bar.set_position(done))?;
    bar.finish_and_clear();
    eprintln!(
        "{} items with at least {} votes; {} votes per round; {} simulations per policy",
        r.items, r.config.n0, r.config.batch, r.config.repeats
    );
    for line in r.summary() {
        eprintln!("{line}");
    }
    let out = match a.format {
        Format::Csv => r.to_csv(),
        Format::Json => {
            let mut rows = Vec::new();
            for b in 0..r.config.budgets.len() {
                for (p, policy) in r.config.policies.iter().enumerate() {
                    for m in Metric::ALL {
                        let (v, d) = (r.point(p, m, b), r.difference(p, 0, m, b));
                        rows.push(
                            json!({"budget": v.n, "policy": policy.name(), "metric": m.name(),
                            "mean": v.mean, "lo": v.lo, "hi": v.hi, "sd": v.sd,
                            "diff": {"mean": d.mean, "lo": d.lo, "hi": d.hi, "sd": d.sd}}),
                        );
                    }
                }
            }
            serde_json::to_string_pretty(&json!({
                "n0": r.config.n0, "batch": r.config.batch, "repeats": r.config.repeats,
                "seed": r.config.seed, "items": r.items, "summary": r.summary(), "points": rows,
            }))? + "\n"
        }
    };
    print!("{out}");
    Ok(())
}
