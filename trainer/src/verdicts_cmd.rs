//! `annosat verdicts`: an export's verdicts recomputed from its files and the dataset's votes
//! (annosat_core::models::verdict, the function the sweep stores them with): whether each arm's
//! metrics change with N, with intervals over the test items and splits.

use crate::format::Format;
use annosat_core::models::verdict::{self, VerdictConfig};
use annosat_core::models::{blocks_of_export, reference_of, ArmVerdicts, Manifest};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// An export folder (manifest.json, predictions.bin), e.g. public/models/chaosnli_snli.
    #[arg(long)]
    export: PathBuf,
    /// The dataset's vote file (the reference the export was scored against is rebuilt from it).
    #[arg(long)]
    votes: PathBuf,
    /// Item resamples for the intervals.
    #[arg(long, default_value_t = verdict::DEFAULT_RESAMPLES as u32)]
    bootstrap: u32,
    /// Only the items whose id starts with `<SOURCE>/` (one source of a pooled export).
    #[arg(long = "pooled-source", alias = "source")]
    source: Option<String>,
    /// csv: `arm,metric,verdict,change,change_lo,change_hi,n90,n90_lo,n90_hi,bounded_by`
    /// (`bounded_by`: the votes that force the 90% point, when they do); json: the manifest's
    /// `verdicts` shape.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// Also compare with the verdicts stored in the manifest and fail if they differ.
    #[arg(long = "verify", alias = "check")]
    check: bool,
}

pub fn run(a: Args) -> Result<()> {
    let text = std::fs::read_to_string(a.export.join("manifest.json"))
        .with_context(|| format!("cannot read {}/manifest.json", a.export.display()))?;
    let m = Manifest::parse(&text).map_err(anyhow::Error::msg)?;
    let bytes = std::fs::read(a.export.join("predictions.bin"))
        .with_context(|| format!("cannot read {}/predictions.bin", a.export.display()))?;
    let probs: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let table = crate::util::load_votes(&a.votes, false)?;
    let heldout = m.config.as_ref().is_some_and(|c| c.heldout);
    let reference = if m.config.as_ref().is_some_and(|c| c.truth) {
        // Scored against the true distributions: truth.csv beside the votes.
        let path = a.votes.with_file_name("truth.csv");
        let k = table.num_classes();
        let rows = crate::util::read_truth(&path, table.item_ids(), k)?;
        table
            .item_ids()
            .iter()
            .enumerate()
            .map(|(i, id)| (id.clone(), rows[i * k..(i + 1) * k].to_vec()))
            .collect()
    } else {
        reference_of(&table, heldout)
    };
    let prefix = a.source.as_ref().map(|s| format!("{s}/"));
    let keep = |id: &str| prefix.as_ref().is_none_or(|p| id.starts_with(p.as_str()));
    let blocks = blocks_of_export(&m, &probs, &|id| reference.get(id).cloned(), &keep)
        .map_err(anyhow::Error::msg)?;
    let cfg = VerdictConfig {
        resamples: a.bootstrap as usize,
        ..Default::default()
    };
    let mut v = verdict::verdicts(&blocks, m.classes.len(), &cfg);
    for x in &mut v {
        x.source = a.source.clone();
    }
    if a.check {
        let stored: Vec<&ArmVerdicts> =
            m.verdicts.iter().filter(|s| s.source == a.source).collect();
        if stored.len() != v.len() || stored.iter().zip(&v).any(|(s, c)| *s != c) {
            bail!("the verdicts recomputed from the files differ from the manifest's");
        }
        eprintln!(
            "the manifest's {} arms' verdicts recompute exactly",
            v.len()
        );
    }
    match a.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&v)?),
        Format::Csv => {
            println!("arm,metric,verdict,change,change_lo,change_hi,n90,n90_lo,n90_hi,bounded_by");
            let o = |x: Option<f64>| x.map(|x| format!("{x:.6}")).unwrap_or_default();
            let u = |x: Option<u32>| x.map(|x| x.to_string()).unwrap_or_default();
            for arm in &v {
                for (metric, r) in &arm.metrics {
                    println!(
                        "{},{},{},{},{},{},{},{},{},{}",
                        arm.arm,
                        metric.key(),
                        serde_json::to_value(r.verdict)?.as_str().unwrap_or(""),
                        o(r.change),
                        o(r.change_lo),
                        o(r.change_hi),
                        u(r.n90),
                        u(r.n90_lo),
                        u(r.n90_hi),
                        u(r.bounded_by)
                    );
                }
            }
        }
    }
    Ok(())
}
