//! `annosat compare`: can a human evaluation with I items and N votes per item tell model B from
//! model A, per metric — the power grid, the best split per budget and the budget with the power
//! asked for (`annosat_core::power`, docs/compare.md).

use crate::format::Format;
use crate::shared_args::ScaleArgs;
use annosat_core::power::{
    self, predictions, report, words, Input, PowerConfig, PowerMetric, PowerReport,
};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Vote file: wide `item_id,<class…>` counts or long `item_id,annotator_id,label`.
    #[arg(long)]
    votes: PathBuf,
    /// Model A: a prediction file (CSV `item_id,<class…>` probabilities or `item_id,label`; JSONL
    /// `{"item_id", "probs": {class: p}}` or `{"item_id", "label"}`), or an arm of a model
    /// export as `EXPORT_DIR:ARM` or `EXPORT_DIR:ARM@N` (default N: the arm's largest).
    #[arg(long)]
    a: String,
    /// Model B, as --a.
    #[arg(long)]
    b: String,
    #[command(flatten)]
    scale: ScaleArgs,
    /// Votes per item, the grid's columns, comma-separated. Past an item's votes they are drawn
    /// from the extrapolation's posterior (said on stderr and in the CSV's past_file).
    #[arg(long, value_delimiter = ',', default_values_t = report::DEFAULT_N)]
    n: Vec<u32>,
    /// Items per evaluation, the grid's rows, comma-separated. Past the file's items, items repeat.
    #[arg(long = "item-counts", value_delimiter = ',', default_values_t = report::DEFAULT_ITEMS)]
    item_counts: Vec<u32>,
    /// Simulated evaluations (item resamples) per cell, and for the file's own interval and p.
    #[arg(long, value_name = "B", default_value_t = 1000)]
    bootstrap: u32,
    /// Vote draws per item in each N's pool.
    #[arg(long, default_value_t = 32)]
    draws: u32,
    /// The test's level.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The power the budget answer asks for.
    #[arg(long, default_value_t = 0.8)]
    power: f64,
    /// An improvement of B over A to detect, in the metric's units, as METRIC=ε (repeatable;
    /// e.g. kl=0.01): adds power_effect, each evaluation's difference moved to ε.
    #[arg(long, value_parser = parse_effect)]
    effect: Vec<(PowerMetric, f64)>,
    /// Seed of every draw; the same seed gives the same numbers here and in the app.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// csv: `metric,items,votes,budget,past_file,diff,diff_lo,diff_hi,p_median,power,wrong_sign,effect,
    /// power_effect`; json: the whole report with its sentences.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
}

fn parse_effect(s: &str) -> Result<(PowerMetric, f64), String> {
    let (m, e) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: give METRIC=ε, e.g. kl=0.01"))?;
    let m = PowerMetric::parse(m).ok_or_else(|| {
        let keys: Vec<&str> = PowerMetric::ALL.iter().map(|m| m.key()).collect();
        format!("{m:?} is not a metric; one of {}", keys.join(", "))
    })?;
    let e: f64 = e
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite() && *e >= 0.0)
        .ok_or_else(|| format!("{e:?}: ε is a non-negative number"))?;
    Ok((m, e))
}

/// A prediction file, or `DIR:ARM[@N]` of a model export.
fn read_model(spec: &str) -> Result<predictions::Predictions> {
    if let Some((dir, arm)) = spec.rsplit_once(':') {
        let dir = Path::new(dir);
        if dir.join("manifest.json").is_file() {
            let (arm, n) = match arm.split_once('@') {
                Some((a, n)) => (a, Some(n.parse::<u32>().context("the N after @")?)),
                None => (arm, None),
            };
            let text = std::fs::read_to_string(dir.join("manifest.json"))?;
            let m = annosat_core::models::Manifest::parse(&text).map_err(anyhow::Error::msg)?;
            let bytes = std::fs::read(dir.join("predictions.bin"))
                .with_context(|| format!("cannot read {}/predictions.bin", dir.display()))?;
            let pred: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect();
            return predictions::of_export(&m, &pred, arm, n).map_err(anyhow::Error::msg);
        }
    }
    let bytes = std::fs::read(spec).with_context(|| format!("cannot read {spec}"))?;
    predictions::parse(spec, &bytes).map_err(anyhow::Error::msg)
}

pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.votes, true)?;
    let (ma, mb) = (read_model(&a.a)?, read_model(&a.b)?);
    let paired = predictions::pair(&table, &ma, &mb).map_err(anyhow::Error::msg)?;
    for note in &paired.notes {
        eprintln!("note: {note}");
    }
    let scale = a.scale.scale(paired.table.classes())?;
    if let Some((_, Some(note))) = &scale {
        eprintln!("{note}");
    }
    let scale = scale.map(|s| s.0);
    let mut cfg = PowerConfig {
        items: a.item_counts.clone(),
        n: a.n.clone(),
        resamples: a.bootstrap,
        draws: a.draws,
        alpha: a.alpha,
        power: a.power,
        effects: a.effect.clone(),
        seed: a.seed,
    };
    cfg.items.sort_unstable();
    cfg.items.dedup();
    cfg.n.sort_unstable();
    cfg.n.dedup();
    cfg.check().map_err(anyhow::Error::msg)?;
    if scale.is_none() {
        if let Some((m, _)) = cfg.effects.iter().find(|(m, _)| m.needs_scale()) {
            bail!(
                "--effect {}: that metric needs classes on a scale (--scale)",
                m.key()
            );
        }
    }
    let inp = Input {
        table: &paired.table,
        a: &paired.a,
        b: &paired.b,
        scale: scale.as_ref(),
    };
    let start = std::time::Instant::now();
    let report = compute(inp, &cfg)?;
    let secs = start.elapsed().as_secs_f64();
    for line in words::lines(&report) {
        eprintln!("{line}");
    }
    eprintln!(
        "time: {secs:.2} s for {} cells × {} evaluations",
        cfg.items.len() * cfg.n.len(),
        cfg.resamples
    );
    match a.format {
        Format::Csv => print!("{}", report.to_csv()),
        Format::Json => {
            let v = serde_json::json!({
                "report": report,
                "lines": words::lines(&report),
            });
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
    }
    Ok(())
}

/// The report on one thread, N column by column, with a progress bar.
fn compute(inp: Input, cfg: &PowerConfig) -> Result<PowerReport> {
    let pb = crate::util::progress(power::run::cells(cfg) as u64, "cells");
    let r = power::compare(inp, cfg, &mut |done, _| pb.set_position(done as u64));
    pb.finish_and_clear();
    r.map_err(anyhow::Error::msg)
}
