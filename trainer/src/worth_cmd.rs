//! `annosat worth`: what another vote source (an LLM panel, experts, a second crowd) is worth in
//! human annotators, per metric, with intervals over items and reference splits
//! (annosat_core::worth; the definition is in ARCHITECTURE.md and docs/worth.md).

use crate::curve_args::Resample;
use crate::format::Format;
use annosat_core::worth::{self, WorthConfig};
use anyhow::{Context, Result};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The human vote file (wide counts or long `item_id,annotator_id,label`).
    #[arg(long)]
    votes: PathBuf,
    /// The human votes in long format (e.g. the dataset's annotations.csv): the reference is then
    /// split by annotator, so no person is on both sides.
    #[arg(long)]
    annotations: Option<PathBuf>,
    /// The other source's votes on the same items: a vote file in the same formats and classes, a
    /// `gold.csv` (`item_id,gold`: one expert label per item), or the judge-votes format (one `<judge>.jsonl` per judge with `uid`, `label`, `parse_fail`; a
    /// folder of them is a panel).
    #[arg(long)]
    source: PathBuf,
    #[command(flatten)]
    split: SplitArgs,
    /// Whether the human classes are a scale: then the source's mean rating is measured too
    /// (`mean_rating_se`, `mean_rating_corr`; docs/worth.md).
    #[command(flatten)]
    scale: crate::shared_args::ScaleArgs,
    /// For a source with annotator ids (long format, judge files): random subsets per panel size j
    /// for the panel's curve ν(j) (0: no panel view).
    #[arg(long, default_value_t = 10)]
    panel_subsets: u32,
    /// csv: `metric,nu,lo,hi,bound,source_level`; json: `{worth: {<metric>: {nu, lo, hi, bound}}, …}`.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
}

/// How the human side is split and resampled: the arguments `worth` and `annotators` share.
#[derive(clap::Args)]
pub struct SplitArgs {
    /// Share of each item's human votes (or of the annotators) kept as the reference.
    #[arg(long, default_value_t = 0.5)]
    reference_share: f64,
    /// Item resamples per reference split, for the intervals.
    #[arg(long, default_value_t = 200)]
    bootstrap: u32,
    /// Reference splits (seeds `--split-seed`, +1, …).
    #[arg(long = "split-seeds", alias = "splits", default_value_t = 3)]
    splits: u32,
    #[arg(long, default_value_t = 42)]
    split_seed: u64,
    /// Repeats of the human subsampling per split.
    #[arg(long, default_value_t = 20)]
    repeats: u32,
    /// What the intervals cover: `items` (items and reference splits) or `crossed` (annotators
    /// too: widened by a replacement jackknife over groups of human annotators, docs/worth.md).
    /// Default: crossed where the human file says who voted.
    #[arg(long, value_enum)]
    resample: Option<Resample>,
}

impl SplitArgs {
    pub fn config(&self) -> WorthConfig {
        WorthConfig {
            reference_share: self.reference_share,
            seed: self.split_seed,
            splits: self.splits,
            repeats: self.repeats,
            bootstrap: self.bootstrap,
            alpha: None,
            over_annotators: self.resample != Some(Resample::Items),
            scale: None,
        }
    }

    /// Refuses `--resample crossed` for human votes that do not say who voted.
    pub fn check(&self, humans: &annosat_core::VoteTable) -> Result<()> {
        if self.resample == Some(Resample::Crossed) && humans.annotations().is_empty() {
            anyhow::bail!("--resample crossed needs to know who gave each human vote: a long file (item_id,annotator_id,label) or --annotations");
        }
        Ok(())
    }
}

/// What the intervals cover, for the stderr line.
pub fn covered(over_annotators: bool) -> &'static str {
    if over_annotators {
        "intervals over items, splits and annotators (--resample items for items and splits only)"
    } else {
        "intervals over items and splits"
    }
}

pub fn run(a: Args) -> Result<()> {
    let mut humans = crate::util::load_votes(&a.votes, false)?;
    if let Some(p) = &a.annotations {
        let long = crate::util::load_votes(p, false)?;
        humans = humans
            .attach_annotations(&long)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("{} does not match {}", p.display(), a.votes.display()))?;
    }
    let source = load_source(&a.source)?;
    a.split.check(&humans)?;
    let mut cfg = a.split.config();
    if let Some((scale, note)) = a.scale.scale(humans.classes())? {
        if let Some(note) = note {
            eprintln!("note: {note}");
        }
        cfg.scale = Some(scale);
    }
    let subsets = a.panel_subsets;
    let r = worth::report(&humans, &source, &cfg, subsets, &mut |_| {})
        .with_context(|| format!("{} against {}", a.source.display(), a.votes.display()))?;
    let (w, panel) = (&r.worth, &r.panel);
    // With annotator ids whole annotators are held out, so an item's share of reference votes
    // varies with who labelled it: the line says which split was used.
    let reference = if humans.annotations().is_empty() {
        format!(
            "{:.0}% of each item's human votes",
            a.split.reference_share * 100.0
        )
    } else {
        format!(
            "the votes of {:.0}% of the human annotators (whole annotators held out, so each item's share varies)",
            a.split.reference_share * 100.0
        )
    };
    eprintln!(
        "{} items in both files ({} only in the human file, {} only in the source, {} left out); reference: {reference}, pool up to {} votes; {} splits × {} item resamples; {}",
        w.items,
        w.only_humans.len(),
        w.only_source.len(),
        w.left_out.len(),
        w.pool,
        a.split.splits,
        a.split.bootstrap,
        covered(w.over_annotators)
    );
    if let Some(c) = &r.crowd {
        eprintln!("the source is {}", c.words());
    }
    for m in &w.metrics {
        eprintln!("  {}: {}", m.metric.key(), m.words(w.pool));
    }
    if let Some(p) = panel {
        eprintln!(
            "panel of {} annotators: ν by panel size j (mean over {} random subsets each):",
            p.annotators.len(),
            a.panel_subsets
        );
        for (metric, pts) in &p.curve {
            let line: Vec<String> = pts
                .iter()
                .map(|q| match q.nu {
                    Some(nu) => format!("j={} {nu:.1}", q.j),
                    None => format!("j={} ({} below, {} above the curve)", q.j, q.below, q.above),
                })
                .collect();
            eprintln!("  {}: {}", metric.key(), line.join(", "));
        }
    }
    match a.format {
        Format::Json => {
            let mut out = serde_json::Map::new();
            let mut by = serde_json::Map::new();
            for m in &w.metrics {
                by.insert(
                    m.metric.key().into(),
                    serde_json::json!({"nu": m.nu, "lo": m.lo, "hi": m.hi, "bound": m.bound, "source_level": m.source, "human": m.human}),
                );
            }
            out.insert("worth".into(), by.into());
            out.insert("items".into(), w.items.into());
            out.insert("pool".into(), w.pool.into());
            out.insert("only_humans".into(), w.only_humans.len().into());
            out.insert("only_source".into(), w.only_source.len().into());
            out.insert("j_over_e".into(), serde_json::json!(w.j_over_e));
            out.insert("closed_form_nu".into(), serde_json::json!(w.closed_form_nu));
            out.insert("over_annotators".into(), w.over_annotators.into());
            // A source with worker ids that is not a panel: how its workers spread.
            out.insert("crowd".into(), serde_json::json!(r.crowd));
            if let Some(p) = &panel {
                let mut curve = serde_json::Map::new();
                for (metric, pts) in &p.curve {
                    curve.insert(metric.key().into(), serde_json::to_value(pts)?);
                }
                out.insert("panel".into(), curve.into());
                let mut each = serde_json::Map::new();
                for (id, ms) in p.annotators.iter().zip(&p.each) {
                    let mut by = serde_json::Map::new();
                    for m in ms {
                        by.insert(
                            m.metric.key().into(),
                            serde_json::json!({"nu": m.nu, "lo": m.lo, "hi": m.hi, "bound": m.bound}),
                        );
                    }
                    each.insert(id.clone(), by.into());
                }
                out.insert("annotators".into(), each.into());
            }
            println!("{}", serde_json::to_string_pretty(&out)?);
        }
        Format::Csv => print!("{}", r.csv()),
    }
    Ok(())
}

/// A vote file, a gold file, or a judge panel (a folder of `.jsonl` files, or one), read by the
/// core's one source reader (the app's Sources room reads through it too).
fn load_source(path: &std::path::Path) -> Result<annosat_core::VoteTable> {
    use annosat_core::import::source::{is_judge_file, read_source};
    let paths: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_judge_file(&p.to_string_lossy()))
            .collect();
        v.sort();
        if v.is_empty() {
            anyhow::bail!("{} holds no .jsonl judge files", path.display());
        }
        v
    } else {
        vec![path.to_path_buf()]
    };
    let mut files = Vec::new();
    for f in &paths {
        let name = f
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        files.push((
            name,
            std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?,
        ));
    }
    let read = read_source(&files)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{} is not a vote source", path.display()))?;
    for n in &read.notes {
        eprintln!("{n}");
    }
    Ok(read.table)
}
