//! `annosat ratings`: rating curves for a vote file whose classes are a scale — how precisely N
//! raters' mean rating estimates the item's, how reliable the N-rater mean is, whether N raters
//! rank the items as all of them do, and the Wasserstein distance on the scale
//! (`annosat_core::ratings`, docs/ratings.md).

use crate::format::Format;
use crate::shared_args::{ScaleArgs, SubsampleArgs};
use annosat_core::curves::CurveConfig;
use annosat_core::extrapolate::{Components, ReferenceVotes};
use annosat_core::ratings::{self, RatingCurves, RatingMetric};
use anyhow::{bail, Result};

/// Posterior tables the extrapolated rating curves' repeats are spread over (`extrapolate`'s
/// default `--draws`).
const EXTRAPOLATION_DRAWS: u32 = 10;
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    sub: SubsampleArgs,
    #[command(flatten)]
    scale: ScaleArgs,
    /// Output: csv prints `n,metric,mean,lo,hi` (undefined values as empty cells); json adds the
    /// standard deviation, items per N, the closed-form RMSE, the single-rater ICC, the
    /// Spearman–Brown prediction and kRR, the k-rater reliability of two disjoint groups (`krr`,
    /// its `n` is k).
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// The headline's precision: raters per item for the mean rating within ± this many scale
    /// points (RMSE against all the raters there could be).
    #[arg(long, default_value_t = ratings::DEFAULT_PRECISION)]
    precision: f64,
    /// The headline's reliability: raters per item for the N-rater mean's ICC to reach this.
    #[arg(long, default_value_t = ratings::DEFAULT_RELIABILITY)]
    reliability: f64,
    /// Item resamples for the headlines' and the curves' 95% intervals over items (0: none).
    #[arg(long, value_name = "B", default_value_t = annosat_core::curves::bootstrap::DEFAULT_RESAMPLES)]
    bootstrap: u32,
    /// The share of each curve's improvement (from N = 1 to its end) whose N is reported, as
    /// `curves --target`.
    #[arg(long, default_value_t = 0.9)]
    target: f64,
    /// A budget to plan: this many ratings in all, spread evenly over --items items; says how
    /// precise and how reliable each item's mean would be (with intervals over items).
    #[arg(long, value_name = "RATINGS")]
    budget: Option<u64>,
    /// The items the --budget is spread over (default: the file's items).
    #[arg(long, value_name = "I")]
    items: Option<usize>,
    /// The rating curves a file would give with M ratings per item, through the prior `annosat
    /// extrapolate` fits (10 posterior tables share the repeats; docs/ratings.md).
    #[arg(long, value_name = "M", value_parser = crate::curve_args::parse_reference)]
    reference_votes: Option<annosat_core::extrapolate::ReferenceVotes>,
}

pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.sub.votes, false)?;
    let Some((scale, note)) = a.scale.scale(table.classes())? else {
        bail!(
            "the classes ({}) are not a scale: give --scale ordinal with --order (lowest first), or --scale interval for numbered classes",
            table.classes().join(", ")
        );
    };
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let cfg = CurveConfig {
        grid: a.sub.n.clone(),
        repeats: a.sub.repeats,
        seed: a.sub.seed,
        bootstrap: a.bootstrap,
        ..Default::default()
    };
    if !(a.precision > 0.0 && a.precision.is_finite()) {
        bail!("--precision must be a positive number of scale points");
    }
    if !(0.0 < a.reliability && a.reliability < 1.0) {
        bail!("--reliability must be between 0 and 1");
    }
    let c = match a.reference_votes {
        None => ratings::compute(&table, &scale, &cfg, &mut |_| {})?,
        Some(ReferenceVotes::Votes(m)) if m >= 2 => {
            let prior =
                annosat_core::extrapolate::fit(&table, Components::Auto { max: 4 }, a.sub.seed)?;
            eprintln!(
                "note: extrapolated: the rating curves of tables drawn from the fitted prior ({} Dirichlet component(s)) with {m} ratings per item; the band covers the repeats and the items' uncertain distributions, not which items were rated",
                prior.components.len()
            );
            ratings::extrapolated(&table, &scale, &prior, (m, EXTRAPOLATION_DRAWS), &cfg)?
        }
        Some(_) => {
            bail!("--reference-votes for ratings takes a number of ratings per item, at least 2")
        }
    };
    let basis = ratings::RatingBasis::of(&table, &scale, a.bootstrap, a.sub.seed);
    let answers = [
        basis.answer(ratings::RatingGoal::Precision, a.precision),
        basis.answer(ratings::RatingGoal::Reliability, a.reliability),
    ];
    for x in &answers {
        eprintln!("answer: {}", x.sentence);
    }
    let items = a.items.unwrap_or(table.num_items()) as u64;
    let budget = a.budget.map(|b| basis.budget(items, b));
    if let Some(b) = &budget {
        eprintln!("plan: {}", b.sentence);
    }
    // Without --n the curves stop where 80% of the items still have the ratings (as `curves`).
    let most = table.max_total();
    let last = c.grid.last().copied().unwrap_or(0);
    if a.sub.n.is_empty() && last < most && a.reference_votes.is_none() {
        eprintln!(
            "note: N runs to {last}, the count 80% of items reach (up to {most}; --n goes further); every item's reference is all of its ratings"
        );
    }
    if !(a.target > 0.0 && a.target <= 1.0) {
        bail!("--target must be in (0, 1], e.g. 0.9 for 90%");
    }
    let saturation: Vec<ratings::RatingSaturation> = RatingMetric::SHOWN
        .iter()
        .map(|&m| ratings::saturation(&c, m, a.target))
        .collect();
    for s in &saturation {
        eprintln!("saturation: {}", s.sentence);
    }
    let within: Vec<ratings::RatingSaturation> = RatingMetric::SHOWN
        .iter()
        .map(|&m| ratings::within(&c, m, m.level(a.precision, a.reliability)))
        .collect();
    for w in &within {
        eprintln!("within: {}", w.sentence);
    }
    let skipped = a.sub.skipped(&c.grid);
    if !skipped.is_empty() {
        eprintln!("N above the most ratings an item has skipped: {skipped:?}");
    }
    match a.format {
        Format::Csv => print!("{}", c.to_csv()),
        Format::Json => {
            let mut j = to_json(&c);
            j["answers"] = json!(answers);
            j["saturation"] = json!(saturation);
            j["within"] = json!(within);
            if let Some(b) = budget {
                j["budget"] = json!(b);
            }
            println!("{}", serde_json::to_string_pretty(&j)?)
        }
    }
    Ok(())
}

pub fn to_json(c: &RatingCurves) -> serde_json::Value {
    // Each point with its 95% interval over items (`items_lo`, `items_hi`) where it has one.
    let mut metrics: serde_json::Map<String, serde_json::Value> = RatingMetric::ALL
        .iter()
        .map(|&m| {
            let points: Vec<serde_json::Value> = (0..c.grid.len())
                .map(|g| {
                    let mut p = json!(c.point(m, g));
                    if let Some((lo, hi)) = c.item_band(m, g) {
                        p["items_lo"] = json!(lo);
                        p["items_hi"] = json!(hi);
                    }
                    p
                })
                .collect();
            (m.name().to_string(), json!(points))
        })
        .collect();
    // kRR's points are at k raters per group (from N = 2k drawn ratings).
    metrics.insert("krr".into(), json!(c.krr_points()));
    let expected_rmse: Vec<f64> = c.expected_mse.iter().map(|v| v.sqrt()).collect();
    let spearman_brown: Vec<Option<f64>> = c.grid.iter().map(|&n| c.spearman_brown(n)).collect();
    json!({
        "kind": "ratings",
        "scale": c.scale,
        "grid": c.grid,
        "repeats": c.repeats,
        "seed": c.seed,
        "items": c.items,
        "metrics": metrics,
        "expected_rmse": expected_rmse,
        "icc1": c.icc1,
        "spearman_brown": spearman_brown,
    })
}
