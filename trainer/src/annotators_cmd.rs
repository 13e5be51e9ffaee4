//! `annosat annotators`: which of a long file's annotators pull their weight — each read in
//! typical annotators against the others on the items they labelled, with a Dawid–Skene summary
//! (annosat_core::worth::rank; docs/worth.md).

use crate::format::Format;
use crate::worth_cmd::SplitArgs;
use annosat_core::worth::rank;
use anyhow::{bail, Result};
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
        "{} annotators ranked against the others on their own items ({} with fewer than {} items, {} votes, not ranked); {}; below one typical annotator ({} interval under 1): {}",
        r.rows.len(),
        r.unranked,
        rank::MIN_ITEMS,
        r.unranked_votes,
        crate::worth_cmd::covered(r.over_annotators),
        rank::FLAG_METRIC.key(),
        if below.is_empty() {
            "none".to_string()
        } else {
            below.join(", ")
        }
    );
    match a.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&r)?),
        Format::Csv => print!("{}", r.csv()),
    }
    Ok(())
}
