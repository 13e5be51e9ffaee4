//! `annosat extrapolate`: the curves `annosat curves` would print if every item had M' votes,
//! estimated from the votes there are (annosat_core::extrapolate: one Dirichlet prior fitted to all
//! items, posterior tables drawn from it); `--check` measures how far that can be trusted on data
//! that have the votes.

use crate::curve_args::{eps_of, parse_reference};
use crate::curves_json::to_json_with;
use crate::format::Format;
use crate::shared_args::SubsampleArgs;
use annosat_core::curves::{CurveConfig, Reference};
use annosat_core::extrapolate::{self, check, Components, ExtrapolateConfig, ReferenceVotes};
use anyhow::{bail, Result};
use serde_json::json;
use std::fmt::Write as _;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    sub: SubsampleArgs,
    /// M': the votes per item the curves are for. The output compares with `annosat curves` on data
    /// that have M' votes per item (at N = M' both compare p_M' with itself). `inf` compares p_N,
    /// N votes drawn with replacement, with the items' true distributions instead.
    #[arg(long, value_name = "M|inf", value_parser = parse_reference)]
    reference_votes: ReferenceVotes,
    /// Posterior tables (plausible true distributions for every item) the repeats are spread over.
    #[arg(long, default_value_t = 10)]
    draws: u32,
    /// Add-α pseudo-count for `kl`, as in `annosat curves`. Default 1/K.
    #[arg(long)]
    alpha: Option<f64>,
    /// Output: csv prints `n,metric,mean,lo,hi` as `annosat curves` does; json adds the fitted prior,
    /// the fit check, items per N and saturation points.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// Validate instead of extrapolating: the items with at least M' votes, cut to M' (a seeded
    /// subsample), give the actual curves; cut further to each of these vote counts (e.g. 5,10,20)
    /// and extrapolated back to M', they give the estimate. Prints
    /// `metric,m,n,actual,extrapolated,relative_error` for every N below M'.
    #[arg(long, value_delimiter = ',', value_name = "M")]
    check: Vec<u32>,
    /// With --check: validations with the seeds seed, seed+1, … (each cuts the votes anew). The
    /// CSV gives the first seed's curve rows; `--format json` gives every seed's, and the 90%
    /// points (actual, extrapolated, its item interval, whether it contains the actual one).
    #[arg(long, default_value_t = 1, value_name = "S")]
    check_seeds: u32,
    /// Dirichlets in the prior: `auto` lets BIC choose among 1–4 (a mixture where items are, say,
    /// either clear or split), or a number fixes it (1: one Dirichlet).
    #[arg(long, default_value = "auto", value_parser = parse_components)]
    components: Components,
    /// Drop items with zero votes instead of failing on them.
    #[arg(long)]
    skip_empty_items: bool,
    /// Item-bootstrap resamples: each refits the prior on items drawn with replacement, draws its
    /// own posterior table and 4 repeats, so the saturation points' intervals over items hold the
    /// prior's uncertainty too (JSON `saturation.<metric>.items`). 0 turns it off.
    #[arg(long, value_name = "B", default_value_t = annosat_core::curves::bootstrap::DEFAULT_RESAMPLES)]
    bootstrap: u32,
}

fn parse_components(s: &str) -> Result<Components, String> {
    match s {
        "auto" => Ok(Components::Auto { max: 4 }),
        n => n
            .parse()
            .map(Components::Fixed)
            .map_err(|_| format!("{s:?}: expected auto or a number of Dirichlets (1–8)")),
    }
}

pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.sub.votes, a.skip_empty_items)?;
    let cfg = ExtrapolateConfig {
        reference_votes: a.reference_votes,
        curves: CurveConfig {
            grid: a.sub.n.clone(),
            repeats: a.sub.repeats,
            seed: a.sub.seed,
            alpha: a.alpha,
            reference: Reference::Full,
            bootstrap: a.bootstrap,
        },
        draws: a.draws.min(a.sub.repeats.max(1)),
        components: a.components,
    };
    if !a.check.is_empty() {
        let ReferenceVotes::Votes(r) = a.reference_votes else {
            bail!("--check compares with real votes: give a number of votes per item as --reference-votes, not inf");
        };
        if let Some(&m) = a.check.iter().find(|&&m| m < 2 || m >= r) {
            bail!(
                "--check {m}: each vote count to extrapolate from must be at least 2 and below --reference-votes ({r})"
            );
        }
        let per = a.sub.repeats as u64
            + a.bootstrap as u64 * extrapolate::bootstrap::REPEATS_PER_RESAMPLE as u64;
        let bar =
            crate::util::progress(a.check.len() as u64 * per * a.check_seeds as u64, "repeats");
        let (mut rows, mut points) = (Vec::new(), Vec::new());
        for s in 0..a.check_seeds as u64 {
            let scfg = ExtrapolateConfig {
                curves: CurveConfig {
                    seed: a.sub.seed + s,
                    ..cfg.curves.clone()
                },
                ..cfg.clone()
            };
            let base = s * a.check.len() as u64 * per;
            let c = check::trust_check(&table, &scfg, &a.check, 0.9, &mut |d, _| {
                bar.set_position(base + d as u64)
            })?;
            rows.extend(c.rows);
            points.extend(c.points);
        }
        bar.finish_and_clear();
        for p in &points {
            let f = |v: Option<u32>| v.map_or("–".to_string(), |v| v.to_string());
            eprintln!(
                "90% point {} from {} votes (seed {}): actual {}, extrapolated {} (items {}–{}){}",
                p.metric.name(),
                p.m,
                p.seed,
                f(p.actual),
                f(p.extrapolated),
                f(p.lo),
                f(p.hi),
                match p.contained {
                    Some(true) => ", contained",
                    Some(false) => ", not contained",
                    None => "",
                }
            );
        }
        if let Format::Json = a.format {
            let v = json!({"rows": rows, "points": points});
            print!("{}", serde_json::to_string_pretty(&v)? + "\n");
            return Ok(());
        }
        let fmt = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v}"));
        let mut out = String::from("metric,m,n,actual,extrapolated,relative_error\n");
        for r in rows.iter().filter(|r| r.seed == a.sub.seed) {
            writeln!(
                out,
                "{},{},{},{},{},{}",
                r.metric.name(),
                r.m,
                r.n,
                fmt(r.actual),
                fmt(r.extrapolated),
                fmt(r.relative_error)
            )?;
        }
        print!("{out}");
        return Ok(());
    }
    // The same table `annosat curves` reads its answer against (ragged items cut, cap.rs).
    let table = match annosat_core::curves::cap::cap_votes(&table, None) {
        Some((capped, cap)) => {
            eprintln!("note: {}", cap.note());
            capped
        }
        None => table,
    };
    let bar = crate::util::progress(
        a.sub.repeats as u64
            + a.bootstrap as u64 * extrapolate::bootstrap::REPEATS_PER_RESAMPLE as u64,
        "repeats",
    );
    let ext = extrapolate::extrapolate(&table, &cfg, &mut |d, _| bar.set_position(d as u64))?;
    bar.finish_and_clear();
    eprintln!("prior: {}", ext.fit.describe(table.classes()));
    eprintln!(
        "fit check ({} items with 2+ votes; share of items, data vs the fitted prior for the same vote counts):",
        ext.check.items
    );
    for b in &ext.check.bins {
        eprintln!(
            "  {:<22} {:>6.1}%  {:>6.1}%",
            b.label,
            100.0 * b.observed,
            100.0 * b.expected
        );
    }
    eprintln!(
        "  total variation {:.3} (0: the prior reproduces how much items agree; large: it does not describe these items)",
        ext.check.total_variation
    );
    let out = match a.format {
        Format::Csv => ext.curves.to_csv(),
        Format::Json => {
            let mut v = to_json_with(
                &ext.curves,
                ext.bands.as_ref(),
                &cfg.curves,
                0.9,
                &eps_of(&[]),
            );
            v["reference_votes"] = match a.reference_votes {
                ReferenceVotes::Votes(m) => json!(m),
                ReferenceVotes::Truth => json!("inf"),
            };
            v["draws"] = json!(cfg.draws);
            v["prior"] = serde_json::to_value(&ext.fit)?;
            v["fit_check"] = serde_json::to_value(&ext.check)?;
            serde_json::to_string_pretty(&v)? + "\n"
        }
    };
    print!("{out}");
    Ok(())
}
