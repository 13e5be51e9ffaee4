//! `annosat curves`: target-side saturation curves as CSV or JSON.

use annosat_core::curves::{CurveConfig, Curves, Metric, Prepared, Reference};
use anyhow::{bail, Result};
use clap::ValueEnum;
use serde_json::json;
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Csv,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// Vote file: wide `item_id,<class…>` counts or long `item_id,annotator_id,label` (auto-detected).
    #[arg(long)]
    votes: PathBuf,
    /// Annotator budgets N, comma-separated (e.g. 1,3,10,100). Default: every N from 1 to the largest
    /// number of votes an item has. N above that is skipped with a note.
    #[arg(long, value_delimiter = ',')]
    n: Vec<u32>,
    /// Random subsamples per N; the interval is the 2.5–97.5th percentile over repeats.
    #[arg(long, default_value_t = 50)]
    repeats: u32,
    /// Seed for every random draw; the same seed gives the same numbers here and in the app.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Add-α pseudo-count for `kl` = KL(p_full ‖ p̃_N), so missed classes stay finite. Default 1/K.
    #[arg(long)]
    alpha: Option<f64>,
    /// Evaluate against held-out annotators: this fraction of each item's votes (e.g. 0.2) is the
    /// reference and N is drawn from the rest.
    #[arg(long, value_name = "FRACTION")]
    heldout: Option<f64>,
    /// Output: csv prints `n,metric,mean,lo,hi` (undefined values as empty cells); json adds the
    /// standard deviation, items per N and saturation points.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// Share of the N=1 → N=max improvement that defines saturation in the JSON output (0–1).
    #[arg(long, default_value_t = 0.9)]
    target: f64,
    /// The same votes in long format (`item_id,annotator_id,label`, e.g. a dataset's annotations.csv):
    /// with it, --heldout holds out whole annotators instead of a share of each item's votes.
    #[arg(long)]
    annotations: Option<PathBuf>,
    /// Drop items with zero votes instead of failing on them.
    #[arg(long)]
    skip_empty_items: bool,
}

/// The curves with the repeats split over the CPU's threads and merged (`Curves::merge`): repeat r
/// always draws from random stream r, so the result is the same bytes for any number of threads
/// (the app's workers split the same way). A bar on the terminal (stderr; hidden when it is not
/// one) counts repeats: a 200 MB file takes minutes.
fn compute_parallel(table: &annosat_core::VoteTable, cfg: &CurveConfig) -> Result<Curves> {
    if cfg.repeats == 0 {
        // The core's own message for it.
        return Ok(annosat_core::curves::compute(table, cfg)?);
    }
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(cfg.repeats as usize);
    // The split, grid and per-item constants once, shared by the threads (read-only).
    let prepared = Prepared::new(table, cfg)?;
    let bar = crate::util::progress(cfg.repeats as u64, "repeats");
    let r = cfg.repeats as usize;
    let parts: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let (a, b) = ((i * r / threads) as u32, ((i + 1) * r / threads) as u32);
                let (bar, prepared) = (bar.clone(), &prepared);
                s.spawn(move || {
                    // Progress says how many of this part's repeats are done (a few at a time).
                    let mut done = 0;
                    prepared.repeats(a..b, &mut |d, _| {
                        bar.inc((d - done) as u64);
                        done = d;
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a curve thread panicked"))
            .collect()
    });
    bar.finish_and_clear();
    let parts = parts.into_iter().collect::<Result<Vec<_>, _>>()?;
    Curves::merge(parts).map_err(|e| anyhow::anyhow!(e))
}

pub fn run(a: Args) -> Result<()> {
    let mut table = crate::util::load_votes(&a.votes, a.skip_empty_items)?;
    if let Some(path) = &a.annotations {
        let long = crate::util::load_votes(path, false)?;
        table = table
            .attach_annotations(&long)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    }
    if !(a.target > 0.0 && a.target <= 1.0) {
        bail!("--target must be in (0, 1], e.g. 0.9 for 90%");
    }
    let reference = match a.heldout {
        Some(fraction) => Reference::HeldOut { fraction },
        None => Reference::Full,
    };
    let cfg = CurveConfig {
        grid: a.n.clone(),
        repeats: a.repeats,
        seed: a.seed,
        alpha: a.alpha,
        reference,
    };
    let curves = compute_parallel(&table, &cfg)?;
    let dropped: Vec<u32> =
        a.n.iter()
            .copied()
            .filter(|n| !curves.grid.contains(n))
            .collect();
    if !dropped.is_empty() {
        let max = curves.grid.last().copied().unwrap_or(0);
        eprintln!(
            "note: N above the most votes an item has to draw from ({max}) skipped: {dropped:?}"
        );
    }
    report_left_out(&table, &curves);
    let out = match a.format {
        Format::Csv => curves.to_csv(),
        Format::Json => serde_json::to_string_pretty(&to_json(&curves, &cfg, a.target))? + "\n",
    };
    print!("{out}");
    Ok(())
}

fn report_left_out(table: &annosat_core::VoteTable, c: &Curves) {
    if c.heldout_excluded > 0 {
        eprintln!(
            "note: {} item(s) with fewer than 2 votes cannot be split and were left out",
            c.heldout_excluded
        );
    }
    let all = table.num_items() as u32 - c.heldout_excluded;
    let short: Vec<String> = c
        .grid
        .iter()
        .zip(&c.items)
        .filter(|(_, &i)| i < all)
        .map(|(n, i)| format!("N={n}: {}", all - i))
        .collect();
    // Long lists (ragged data over a long grid) keep their ends: the JSON output has every N.
    let listed = if short.len() > 8 {
        format!(
            "{}, … {} more …, {}",
            short[..3].join(", "),
            short.len() - 6,
            short[short.len() - 3..].join(", ")
        )
    } else {
        short.join(", ")
    };
    if !short.is_empty() {
        eprintln!("note: items with fewer than N votes are left out at that N ({listed}; --format json lists items per N)");
    }
}

pub(crate) fn to_json(c: &Curves, cfg: &CurveConfig, target: f64) -> serde_json::Value {
    let mut metrics = serde_json::Map::new();
    let mut saturation = serde_json::Map::new();
    for m in Metric::ALL {
        let fr = c.improvement_fraction(m);
        let pts: Vec<_> = c
            .points(m)
            .into_iter()
            .zip(fr)
            .map(|(p, f)| json!({"n": p.n, "mean": p.mean, "lo": p.lo, "hi": p.hi, "sd": p.sd, "fraction": f}))
            .collect();
        metrics.insert(m.name().into(), pts.into());
        saturation.insert(
            m.name().into(),
            serde_json::to_value(c.saturation(m, target)).unwrap_or_default(),
        );
    }
    json!({
        "grid": c.grid, "repeats": c.repeats, "seed": cfg.seed, "alpha": c.alpha,
        "reference": cfg.reference, "items": c.items, "heldout_excluded": c.heldout_excluded,
        "metrics": metrics, "saturation": saturation,
    })
}
