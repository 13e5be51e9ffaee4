//! `annosat annotators`: which of a long file's annotators pull their weight — each read in
//! typical annotators against the others on the items they labelled, with a Dawid–Skene summary
//! (annosat_core::worth::rank; docs/worth.md).

use crate::format::Format;
use crate::worth_cmd::SplitArgs;
use annosat_core::worth::{rank, WorthMetric};
use anyhow::{bail, Result};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The votes in long format (`item_id,annotator_id,label`): who gave each vote.
    #[arg(long)]
    votes: PathBuf,
    #[command(flatten)]
    split: SplitArgs,
    /// csv: one row per ranked annotator (`id,items,below_one,ds_accuracy`, then `nu,lo,hi` per
    /// metric); json: `{rows: […], unranked, unranked_votes}`.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
}

pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.votes, false)?;
    if table.annotations().is_empty() {
        bail!(
            "{} has no annotator ids: ranking annotators needs a long file (item_id,annotator_id,label)",
            a.votes.display()
        );
    }
    let bar = crate::util::progress(100, "annotators");
    let r = rank::rank(&table, &a.split.config(), &mut |d| {
        bar.set_position((d * 100.0) as u64)
    })?;
    bar.finish_and_clear();
    let below: Vec<&str> = r
        .rows
        .iter()
        .filter(|x| x.below_one)
        .map(|x| x.id.as_str())
        .collect();
    eprintln!(
        "{} annotators ranked against the others on their own items ({} with fewer than {} items, {} votes, not ranked); intervals over items; below one typical annotator ({} interval under 1): {}",
        r.rows.len(),
        r.unranked,
        rank::MIN_ITEMS,
        r.unranked_votes,
        rank::FLAG_METRIC.key(),
        if below.is_empty() {
            "none".to_string()
        } else {
            below.join(", ")
        }
    );
    match a.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&r)?),
        Format::Csv => print!("{}", csv(&r)),
    }
    Ok(())
}

/// The ranking as CSV, lowest first.
fn csv(r: &rank::Ranking) -> String {
    let mut out = String::from("id,items,below_one,ds_accuracy");
    for m in WorthMetric::ALL {
        let k = m.key();
        let _ = write!(out, ",{k}_nu,{k}_lo,{k}_hi");
    }
    out.push('\n');
    let cell = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.4}"));
    for row in &r.rows {
        let _ = write!(
            out,
            "{},{},{},{:.4}",
            row.id, row.items, row.below_one, row.ds_accuracy
        );
        for m in WorthMetric::ALL {
            let w = row.worth.iter().find(|w| w.metric == m);
            let _ = write!(
                out,
                ",{},{},{}",
                cell(w.and_then(|w| w.nu)),
                cell(w.and_then(|w| w.lo)),
                cell(w.and_then(|w| w.hi))
            );
        }
        out.push('\n');
    }
    out
}
