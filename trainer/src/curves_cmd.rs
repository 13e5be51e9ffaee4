//! `annosat curves`: target-side saturation curves as CSV or JSON.

use crate::curve_args::{eps_of, parse_within, Resample};
use crate::curves_headline::{headline_extrapolation, headline_json};
use crate::curves_json::to_json;
use crate::format::Format;
use crate::shared_args::SubsampleArgs;
use annosat_core::answer::{self, MetricAnswer};
use annosat_core::curves::crossed::AnnotatorSpread;
use annosat_core::curves::{CurveConfig, Curves, Metric, Prepared, Reference};
use annosat_core::extrapolate::ReferenceVotes;
use annosat_core::pilot;
use anyhow::{bail, Result};
use serde_json::json;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    sub: SubsampleArgs,
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
    /// Item-bootstrap resamples (items drawn with replacement, the same resample for every N and
    /// metric): every saturation point gets a 95% interval over items, the mean curves a band
    /// (JSON). 0 turns it off.
    #[arg(long, value_name = "B", default_value_t = annosat_core::curves::bootstrap::DEFAULT_RESAMPLES)]
    bootstrap: u32,
    /// What the points' intervals cover: `items` (the item bootstrap), or `crossed` — items and
    /// annotators: the item interval widened by the annotators' share of the variance
    /// (docs/intervals.md, "Over items and annotators"). Default: crossed for a file that says
    /// who voted (a long file or --annotations), items otherwise.
    #[arg(long, value_enum)]
    resample: Option<Resample>,
    /// Absolute tolerances: the smallest N whose mean curve is within ε, per metric, e.g.
    /// `kl=0.05,jsd=0.1` (distances: at most ε; entropy_corr and majority_agreement: at least ε
    /// as a level). Defaults: kl 0.05, jsd 0.1, entropy_corr 0.9, majority_agreement 0.95.
    #[arg(long, value_delimiter = ',', value_name = "METRIC=EPS", value_parser = parse_within)]
    within: Vec<(Metric, f64)>,
    /// Where a metric's own point is bounded by the votes (forced by how many the items have), the
    /// answer is extrapolated to this many votes per item (`inf`: against the true distributions).
    #[arg(long, value_name = "M|inf", default_value = "100", value_parser = crate::curve_args::parse_reference)]
    extrapolate_to: ReferenceVotes,
    /// Never extrapolate: print the bounded points as they are, marked bounded.
    #[arg(long)]
    no_extrapolate: bool,
    /// Read the votes as multilabel (each annotator may tick several labels). Multilabel files are
    /// detected (a 0/1 row per item and annotator, or an annotator with several labels on one item);
    /// this is for a long file in which every annotator happens to tick one label.
    #[arg(long)]
    multilabel: bool,
}

/// The votes as multilabel, when `--multilabel` says so or a single-label read failed the way a
/// multilabel file makes it fail (an annotator with several labels on one item, a 0/1 row per
/// annotator, or an empty label that is a rating with nothing ticked).
fn multilabel_votes(
    a: &Args,
    single: Option<&anyhow::Error>,
) -> Result<
    Option<(
        annosat_core::multilabel::MultilabelTable,
        annosat_core::import::multilabel::MultilabelReport,
    )>,
> {
    use annosat_core::import::{self, ImportErrorKind};
    let kind = single
        .and_then(|e| e.downcast_ref::<annosat_core::ImportError>())
        .map(|e| &e.kind);
    let detected = matches!(kind, Some(ImportErrorKind::Multilabel { .. }));
    let empty_label = matches!(kind, Some(ImportErrorKind::EmptyLabel));
    if !a.multilabel && !detected && !empty_label {
        return Ok(None);
    }
    let bytes = std::fs::read(&a.sub.votes)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", a.sub.votes.display()))?;
    match import::multilabel::parse_multilabel(&bytes) {
        Ok((t, r)) if !empty_label || t.has_several_labels_in_a_rating() => Ok(Some((t, r))),
        Ok(_) => Ok(None),
        Err(e) if a.multilabel || detected => Err(anyhow::anyhow!(
            "{} is not a valid multilabel vote file: {e}",
            a.sub.votes.display()
        )),
        Err(_) => Ok(None),
    }
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
    let single = if a.multilabel {
        None
    } else {
        Some(crate::util::load_votes(&a.sub.votes, a.skip_empty_items))
    };
    let failed = single.as_ref().and_then(|r| r.as_ref().err());
    if let Some((table, report)) = multilabel_votes(&a, failed)? {
        if a.heldout.is_some()
            || a.annotations.is_some()
            || !a.within.is_empty()
            || a.alpha.is_some()
        {
            bail!("--heldout, --annotations, --within and --alpha are for single-label votes; multilabel curves compare N annotators with all of them");
        }
        if !(a.target > 0.0 && a.target <= 1.0) {
            bail!("--target must be in (0, 1], e.g. 0.9 for 90%");
        }
        return crate::curves_multilabel::run(
            &table,
            &report,
            &crate::curves_multilabel::MlArgs {
                n: a.sub.n.clone(),
                repeats: a.sub.repeats,
                seed: a.sub.seed,
                bootstrap: a.bootstrap,
                target: a.target,
                format: a.format,
            },
        );
    }
    let mut table = single.expect("read unless --multilabel, which returned above")?;
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
    // Numbered classes are likely a rating scale: said, with where its own metrics are.
    if let Some(scale) = annosat_core::ratings::Scale::detect(table.classes()) {
        eprintln!(
            "note: the classes read as a {} scale; `annosat ratings` gives its rating metrics (mean-rating error, reliability, rank correlation, Wasserstein), these curves treat the classes as unordered",
            scale.range()
        );
    }
    // Against all votes, ragged items are read against the count most items reach (cap.rs).
    let file = table.clone();
    if reference == Reference::Full {
        if let Some((capped, cap)) = annosat_core::curves::cap::cap_votes(&table, None) {
            eprintln!("note: {}", cap.note());
            table = capped;
        }
    }
    let cfg = CurveConfig {
        grid: a.sub.n.clone(),
        repeats: a.sub.repeats,
        seed: a.sub.seed,
        alpha: a.alpha,
        reference,
        bootstrap: a.bootstrap,
    };
    let curves = compute_parallel(&table, &cfg)?;
    let dropped = a.sub.skipped(&curves.grid);
    if !dropped.is_empty() {
        let max = curves.grid.last().copied().unwrap_or(0);
        eprintln!(
            "note: N above the most votes an item has to draw from ({max}) skipped: {dropped:?}"
        );
    }
    report_left_out(&table, &curves);
    let eps = eps_of(&a.within);
    let bands = curves.item_bands();
    if let Some(b) = bands.as_ref().filter(|b| b.blocks) {
        eprintln!(
            "note: {} items over {} N: the item intervals resample {} random blocks of items instead of single items (a block bootstrap, to bound the work)",
            curves.items.first().copied().unwrap_or(0),
            curves.grid.len(),
            b.units
        );
    }
    // With --n ending below the votes, the curves end where the grid does: nothing to extrapolate.
    let partial =
        curves.grid.last().copied().unwrap_or(0) < table.max_total() && !a.sub.n.is_empty();
    let spread = annotator_spread(&a, &file, &cfg)?;
    let answers: Vec<MetricAnswer> = Metric::ALL
        .iter()
        .map(|&m| {
            let mut ans = MetricAnswer::of(&curves, bands.as_ref(), m, a.target, eps[m as usize]);
            if let Some(s) = &spread {
                ans = ans.crossed(s, &curves);
            }
            if a.heldout.is_some() {
                ans = ans.against_heldout();
            }
            if partial {
                ans = ans.on_partial_grid();
            }
            ans
        })
        .collect();
    let extrapolate = answers.iter().any(|x| x.bounded_by_votes)
        && !a.no_extrapolate
        && !partial
        && answers[0].cannot_extrapolate().is_none();
    let (extrapolated, beyond) = if extrapolate {
        headline_extrapolation((&file, &table), &cfg, a.extrapolate_to, &answers)
    } else {
        None
    }
    .unzip();
    for ans in &answers {
        let e = extrapolated.as_ref().map(|e| &e[ans.metric as usize]);
        eprintln!("answer: {}", answer::headline(ans, e));
        let pilot = e
            .filter(|_| ans.bounded_by_votes)
            .zip(beyond.as_ref())
            .and_then(|(e, b)| pilot::pilot_line(e, &b.pilots));
        if let Some(line) = pilot {
            eprintln!("        {line}");
        }
        eprintln!("        {}", answer::within_line(ans, e));
    }
    let out = match a.format {
        Format::Csv => curves.to_csv(),
        Format::Json => {
            let mut v = to_json(&curves, &cfg, a.target, &eps);
            // The points' intervals as shown: over items and annotators with --resample crossed.
            for ans in &answers {
                v["saturation"][ans.metric.name()]["items"] = json!(ans.point.items);
            }
            if !v["bootstrap"].is_null() {
                v["bootstrap"]["over"] = json!(if spread.is_some() {
                    "items and annotators"
                } else {
                    "items"
                });
            }
            v["headline"] = headline_json(&answers, extrapolated.as_deref(), beyond.as_ref());
            serde_json::to_string_pretty(&v)? + "\n"
        }
    };
    print!("{out}");
    Ok(())
}

/// The annotators' share of the points' variance (`curves::crossed`), measured on `file` as
/// read (with who voted) where the intervals are crossed: by default for a file with annotator
/// ids, curves against all votes and a bootstrap; `--resample crossed` is refused where it
/// cannot apply. Says on stderr which intervals are shown.
fn annotator_spread(
    a: &Args,
    file: &annosat_core::VoteTable,
    cfg: &CurveConfig,
) -> Result<Option<AnnotatorSpread>> {
    let ids = !file.annotations().is_empty() && file.annotator_ids().len() >= 2;
    let applies = a.heldout.is_none() && a.bootstrap > 0;
    match a.resample {
        Some(Resample::Items) => return Ok(None),
        Some(Resample::Crossed) if !applies => {
            bail!("--resample crossed widens the item intervals of curves against all votes: it needs --bootstrap above 0 and no --heldout")
        }
        Some(Resample::Crossed) if !ids => {
            bail!("--resample crossed needs to know who gave each vote: a long file (item_id,annotator_id,label) or --annotations")
        }
        None if !(ids && applies) => return Ok(None),
        _ => {}
    }
    let bar = crate::util::progress(1000, "annotators");
    let spread = AnnotatorSpread::measure(file, cfg, None, &mut |d| {
        bar.set_position((d * 1000.0) as u64)
    })?;
    bar.finish_and_clear();
    if let Some(s) = &spread {
        eprintln!(
            "note: the points' intervals cover items and annotators ({} annotators, {} left out in turn; --resample items for items only; docs/intervals.md); the curves' bands cover items",
            file.annotator_ids().len(),
            if s.groups as usize == file.annotator_ids().len() {
                "each".to_string()
            } else {
                format!("in {} groups", s.groups)
            }
        );
    }
    Ok(spread)
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
