//! What would settle a wide answer: a **pilot** — more votes on a few items — and the answer a
//! file that has had one gives.
//!
//! With M votes per item the extrapolated 90% point's interval holds what M votes cannot pin down
//! ([`crate::extrapolate::identification`]); for entropy correlation and majority agreement at
//! 3–5 votes that is a range, not a number. More votes on *some* items narrow it: the margin
//! shrinks with the votes an item has, and a few hundred items already pin the prior down. So:
//!
//! - [`search`] simulates pilots — `items` of the file's items (a seeded random choice) topped up
//!   to `votes` votes each, the new votes drawn from each item's posterior under the prior fitted
//!   to the whole file, [`SIMULATIONS`] times per size, the widest kept as the promise — and
//!   computes on each the answer the file would then give ([`answer_part`]:
//!   extrapolated from the pilot's votes with its own prior, bootstrap and margin, or read off the
//!   pilot's own curves where it reaches the reference). Candidates run cheapest first (votes to
//!   collect), so [`recommend`] can take the first that narrows a metric to ±[`GOAL`].
//! - [`dense_part`] finds such a pilot in a file (at least [`MIN_ITEMS`] items with at least twice
//!   the typical item's votes) and [`answer_part`] answers from it; [`choose`] shows whichever of
//!   the whole file's answer and the part's is narrower.
//!
//! The loop is checked on real votes: a bundled set cut to few votes takes the recommendation,
//! gets those real votes on the pilot's items and is answered again (`trainer/tests/pilot.rs`,
//! docs/intervals.md).

use crate::answer::{Extrapolated, MetricAnswer, PartOf, Point};
use crate::curves::{self, CurveConfig, ItemInterval, Metric, Reference};
use crate::extrapolate::{
    self, dirichlet_draw, identification, multinomial_draw, pick, Components, ExtrapolateConfig,
    ExtrapolateError, Prior, ReferenceVotes,
};
use crate::sample;
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

/// Fewest items a pilot has, and a part of a file must have to be answered from.
pub const MIN_ITEMS: usize = 50;
/// The width a pilot should narrow an answer to: ±20% of its point.
pub const GOAL: f64 = 0.20;
/// Pilot sizes tried: items, and votes per item, extrapolated from; and items with the
/// reference's own count, read off their own curves (whose width is all over items).
pub const ITEMS: [u32; 3] = [50, 100, 200];
pub const VOTES: [u32; 3] = [10, 20, 40];
pub const FULL_ITEMS: [u32; 3] = [100, 200, 400];
/// Simulated pilots per size; the promise is the widest of them (one real pilot varies as much).
pub const SIMULATIONS: u64 = 3;
/// Item resamples and repeats of each simulated pilot's answer (a prediction of a width, not
/// the answer itself).
pub const RESAMPLES: u32 = 40;
const REPEATS: u32 = 12;
const PURPOSE_PILOT_ITEMS: u64 = 0xE7;
const PURPOSE_PILOT_VOTES: u64 = 0xE8;

/// A set of items with more votes than the rest — a simulated pilot, or the part of a file a
/// pilot gave more votes — and the answer it gives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    pub items: u32,
    pub votes: u32,
    /// Votes to collect beyond the file's (0 for a part the file has).
    pub extra: u64,
    /// Whether the answer is extrapolated from the part's votes (else read off its own curves).
    pub extrapolated: bool,
    /// Per metric, in [`Metric::ALL`] order: the x-point and its interval (margin joined).
    pub points: Vec<Point>,
    /// The share of the improvement the points are for.
    pub x: f64,
}

impl Part {
    /// ± half the interval's width over its point (infinite where an end is open).
    pub fn half_width(&self, metric: Metric) -> f64 {
        half_width(&self.points[metric.index()])
    }
}

/// ± half the interval's width over its point (infinite where the point or an end is missing).
pub fn half_width(p: &Point) -> f64 {
    match (p.n, p.items.as_ref()) {
        (
            Some(n),
            Some(ItemInterval {
                lo: Some(lo),
                hi: Some(hi),
                ..
            }),
        ) => (*hi as f64 - *lo as f64) / 2.0 / n as f64,
        _ => f64::INFINITY,
    }
}

/// `table`'s items chosen for a pilot (seeded), topped up to `votes` votes each with votes drawn
/// from their posterior under `fit`; the other items are left out.
pub fn simulate(table: &VoteTable, fit: &Prior, items: u32, votes: u32, seed: u64) -> VoteTable {
    let k = table.num_classes();
    let chosen = choose_items(table.num_items(), items as usize, seed);
    let (mut counts, mut ids) = (Vec::with_capacity(chosen.len() * k), Vec::new());
    let (mut theta, mut shapes, mut extra) = (vec![0.0; k], vec![0.0; k], vec![0u32; k]);
    for &i in &chosen {
        let c = table.counts(i);
        let mut rng = sample::stream(seed, PURPOSE_PILOT_VOTES, i as u64, votes as u64);
        let alpha = &fit.components[pick(&fit.responsibilities(c), &mut rng)].alpha;
        for (s, (&a, &n)) in shapes.iter_mut().zip(alpha.iter().zip(c)) {
            *s = a + n as f64;
        }
        dirichlet_draw(&shapes, &mut rng, &mut theta);
        multinomial_draw(
            &theta,
            votes.saturating_sub(table.total(i)),
            &mut rng,
            &mut extra,
        );
        counts.extend(c.iter().zip(&extra).map(|(a, b)| a + b));
        ids.push(table.item_ids()[i].clone());
    }
    VoteTable::new(table.classes().to_vec(), ids, counts)
}

/// `take` of `n` indices, a seeded partial shuffle (all of them, in order, if `take ≥ n`).
fn choose_items(n: usize, take: usize, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut rng = sample::stream(seed, PURPOSE_PILOT_ITEMS, 0, 0);
    for j in 0..take.min(n) {
        let r = j + sample::below(&mut rng, (n - j) as u32) as usize;
        idx.swap(j, r);
    }
    idx.truncate(take.min(n));
    idx.sort_unstable();
    idx
}

/// The part of `table` a pilot gave more votes: the items with at least `v` votes, cut to `v`,
/// where `v` is the most votes [`MIN_ITEMS`] items reach — when that is at least twice the
/// typical item's (`typical`). `None` for a file without such a part.
pub fn dense_part(table: &VoteTable, typical: u32) -> Option<VoteTable> {
    let mut totals: Vec<u32> = (0..table.num_items()).map(|i| table.total(i)).collect();
    totals.sort_unstable_by(|a, b| b.cmp(a));
    let v = *totals.get(MIN_ITEMS - 1)?;
    if v < 2 * typical.max(1) {
        return None;
    }
    let keep: Vec<usize> = (0..table.num_items())
        .filter(|&i| table.total(i) >= v)
        .collect();
    let mut counts = Vec::with_capacity(keep.len() * table.num_classes());
    for &i in &keep {
        let c = table.counts(i);
        if table.total(i) == v {
            counts.extend_from_slice(c);
        } else {
            let mut rng = sample::stream(0, PURPOSE_PILOT_VOTES, i as u64, u64::MAX);
            counts.extend(sample::subsample_counts(c, v, &mut rng).expect("more votes"));
        }
    }
    let ids = keep.iter().map(|&i| table.item_ids()[i].clone()).collect();
    Some(VoteTable::new(table.classes().to_vec(), ids, counts))
}

/// The answer `part` (every item with the same `votes`) gives for every metric at `x` (with
/// `eps`): read off its own curves and item bootstrap where its votes reach the reference,
/// else extrapolated from them with its own prior (fitted, or refitted from `start`), bootstrap
/// and identification margin — the same builder as the whole file's ([`Extrapolated::of`]).
pub fn answer_part(
    (part, start): (&VoteTable, Option<&Prior>),
    reference: ReferenceVotes,
    curves_cfg: &CurveConfig,
    (x, eps): (f64, &[f64; 4]),
    progress: &mut impl FnMut(usize, usize),
) -> Result<Part, ExtrapolateError> {
    let votes = part.min_total();
    let cfg = CurveConfig {
        grid: Vec::new(),
        reference: Reference::Full,
        ..curves_cfg.clone()
    };
    let own = curves::compute(part, &cfg)?;
    let bands = own.item_bands();
    let data: Vec<MetricAnswer> = Metric::ALL
        .iter()
        .map(|&m| MetricAnswer::of(&own, bands.as_ref(), m, x, eps[m.index()]))
        .collect();
    let within = matches!(reference, ReferenceVotes::Votes(r) if votes >= r);
    let points = if within {
        data.iter().map(|a| a.point).collect()
    } else {
        let xcfg = ExtrapolateConfig {
            reference_votes: reference,
            curves: cfg.clone(),
            draws: 10.min(cfg.repeats.max(1)),
            components: Components::Auto { max: 4 },
        };
        let e = extrapolate::extrapolate_from(part, &xcfg, start, progress)?;
        data.iter()
            .map(|a| {
                Extrapolated::of(a, reference, (&e.curves, e.bands.as_ref()), 0.0, &e.fit)
                    .answer
                    .point
            })
            .collect()
    };
    Ok(Part {
        items: part.num_items() as u32,
        votes,
        extra: 0,
        extrapolated: !within,
        points,
        x,
    })
}

/// Simulated pilots for a file whose answer (`shown`, per metric in [`Metric::ALL`] order) is
/// wider than ±25% somewhere, cheapest first, until each wide metric has one within ±[`GOAL`]
/// (or every size was tried). `table` is the file as the curves read it, `fit` the prior fitted
/// to it; `progress(done, total)` counts pilots.
pub fn search(
    table: &VoteTable,
    fit: &Prior,
    shown: &[Extrapolated],
    curves_cfg: &CurveConfig,
    progress: &mut impl FnMut(usize, usize),
) -> Vec<Part> {
    let Some(first) = shown.first() else {
        return Vec::new();
    };
    let reference = first.reference;
    let mut totals: Vec<u32> = (0..table.num_items()).map(|i| table.total(i)).collect();
    totals.sort_unstable();
    let typical = totals.get(totals.len() / 2).copied().unwrap_or(1).max(1);
    let wide: Vec<Metric> = shown
        .iter()
        .filter(|e| is_wide(&e.answer.point) && e.unchecked_classes.is_none() && !e.unconverged)
        .map(|e| e.answer.metric)
        .collect();
    if wide.is_empty() || table.num_items() < MIN_ITEMS {
        return Vec::new();
    }
    let mut sizes: Vec<(u32, u32)> = Vec::new();
    let top = match reference {
        ReferenceVotes::Votes(m) => Some(m),
        ReferenceVotes::Truth => None,
    };
    let extrapolated = VOTES.iter().flat_map(|&v| ITEMS.map(|p| (p, v)));
    let full = top.into_iter().flat_map(|m| FULL_ITEMS.map(|p| (p, m)));
    for (p, v) in extrapolated.chain(full) {
        if v > typical && (p as usize) <= table.num_items() && top.is_none_or(|m| v <= m) {
            sizes.push((p, v));
        }
    }
    sizes.sort_by_key(|&(p, v)| (p as u64 * (v - typical) as u64, v));
    sizes.dedup();
    let cfg = CurveConfig {
        repeats: REPEATS,
        bootstrap: RESAMPLES,
        ..curves_cfg.clone()
    };
    let eps: [f64; 4] = std::array::from_fn(|m| first_eps(shown, Metric::ALL[m]));
    let x = first.answer.x;
    let mut runs: Vec<Part> = Vec::new();
    for (done, &(p, v)) in sizes.iter().enumerate() {
        progress(done, sizes.len());
        let open: Vec<Metric> = wide
            .iter()
            .copied()
            .filter(|&m| !runs.iter().any(|r| r.half_width(m) <= GOAL))
            .collect();
        if open.is_empty() {
            break;
        }
        // Extrapolated from v votes, a metric cannot get narrower than its margin at v: sizes
        // whose margin alone is wider than the goal for every metric still open are skipped.
        let floor = |m: Metric| identification::margin(m, v).map_or(0.0, |g| (g.hi - g.lo) / 2.0);
        if top.is_none_or(|r| v < r) && open.iter().all(|&m| floor(m) > GOAL) {
            continue;
        }
        let sims: Vec<Part> = (0..SIMULATIONS)
            .filter_map(|s| {
                let seed = cfg.seed.wrapping_add(s);
                let sim = simulate(table, fit, p, v, seed);
                let before: u64 = choose_items(table.num_items(), p as usize, seed)
                    .iter()
                    .map(|&i| table.total(i) as u64)
                    .sum();
                let after: u64 = (0..sim.num_items()).map(|i| sim.total(i) as u64).sum();
                let cfg = CurveConfig {
                    seed,
                    ..cfg.clone()
                };
                let part = answer_part(
                    (&sim, Some(fit)),
                    reference,
                    &cfg,
                    (x, &eps),
                    &mut |_, _| {},
                );
                part.ok().map(|part| Part {
                    extra: after - before,
                    ..part
                })
            })
            .collect();
        runs.extend(widest(sims));
    }
    progress(sizes.len(), sizes.len());
    runs
}

/// Per metric, the point of the simulation whose interval is widest.
fn widest(sims: Vec<Part>) -> Option<Part> {
    let mut out = sims.first()?.clone();
    for m in Metric::ALL {
        if let Some(w) = sims
            .iter()
            .max_by(|a, b| a.half_width(m).total_cmp(&b.half_width(m)))
        {
            out.points[m.index()] = w.points[m.index()];
        }
        out.extra = out
            .extra
            .max(sims.iter().map(|s| s.extra).max().unwrap_or(0));
    }
    Some(out)
}

fn first_eps(shown: &[Extrapolated], metric: Metric) -> f64 {
    shown
        .iter()
        .find(|e| e.answer.metric == metric)
        .map_or(curves::default_eps(metric), |e| e.answer.eps)
}

/// The pilot to recommend for `metric`: the cheapest simulated one that narrows it to
/// ±[`GOAL`], else the one that narrows it most (when narrower than the answer now, `now`).
pub fn recommend(runs: &[Part], metric: Metric, now: f64) -> Option<&Part> {
    runs.iter()
        .find(|r| r.half_width(metric) <= GOAL)
        .or_else(|| {
            runs.iter()
                .filter(|r| r.half_width(metric) < now)
                .min_by(|a, b| a.half_width(metric).total_cmp(&b.half_width(metric)))
        })
}

/// Whether an answer is too wide to read as "about N" (±25%, [`identification::is_wide`]), or
/// has no point or no closed interval.
pub fn is_wide(p: &Point) -> bool {
    match (p.n, p.items.as_ref()) {
        (Some(n), Some(iv)) => identification::is_wide(n, iv),
        _ => true,
    }
}

/// Whether `runs` say something about a shown answer: it is wide and has a number, and they were
/// simulated for its share x.
fn wants_pilot(e: &Extrapolated, runs: &[Part]) -> bool {
    let other_x = runs.iter().any(|r| r.x != e.answer.x);
    let no_number = e.unchecked_classes.is_some() || e.unconverged;
    !runs.is_empty() && is_wide(&e.answer.point) && !other_x && !no_number
}

/// The pilot to run for a shown answer: `None` where it is not wide, no pilot tried narrows it,
/// or the pilots were simulated for another share x.
pub fn advice<'a>(e: &Extrapolated, runs: &'a [Part]) -> Option<&'a Part> {
    if !wants_pilot(e, runs) {
        return None;
    }
    recommend(runs, e.answer.metric, half_width(&e.answer.point))
}

/// The pilot line under a wide answer: "A pilot of 20 votes on 100 items (1,500 more votes)
/// would narrow it to about ±18%.", or that none of the sizes tried would; `None` where the
/// answer is not wide (or no pilot was simulated for it).
pub fn pilot_line(e: &Extrapolated, runs: &[Part]) -> Option<String> {
    if !wants_pilot(e, runs) {
        return None;
    }
    let Some(r) = advice(e, runs) else {
        let most = runs.iter().max_by_key(|r| r.extra)?;
        return Some(format!(
            "No pilot tried, up to {} votes on {} items, would narrow it.",
            most.votes, most.items
        ));
    };
    let hw = r.half_width(e.answer.metric);
    let goal = if hw <= GOAL { "" } else { "only " };
    Some(format!(
        "A pilot of {} votes on {} items ({} more votes) would {goal}narrow it to about ±{:.0}%.",
        r.votes,
        r.items,
        thousands(r.extra),
        100.0 * hw
    ))
}

fn thousands(n: u64) -> String {
    crate::import::thousands(n as usize)
}

/// What the product shows for one metric of a file with a pilot part: the whole file's answer
/// (`main`) or the part's, whichever interval is narrower.
pub fn choose(main: Extrapolated, part: Option<&Part>) -> Extrapolated {
    let Some(p) = part.filter(|p| p.x == main.answer.x) else {
        return main;
    };
    let metric = main.answer.metric;
    if p.half_width(metric) >= half_width(&main.answer.point) {
        return main;
    }
    let mut shown = main;
    shown.answer.point = p.points[metric.index()];
    shown.from = Some(PartOf {
        items: p.items,
        votes: p.votes,
        extrapolated: p.extrapolated,
    });
    if !p.extrapolated {
        shown.margin = None;
    }
    shown
}

/// What the headline needs beyond the whole file's extrapolation: the answer of the file's pilot
/// part, if it has one, and the simulated pilots for answers still wider than ±25%.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Beyond {
    pub dense: Option<Part>,
    pub pilots: Vec<Part>,
}

/// Every metric's answer as the product shows it: the whole file's extrapolation
/// ([`Extrapolated::of`]), or its pilot part's where that is narrower ([`choose`]). The one
/// place the CLI and the app build the extrapolated answers.
pub fn shown(
    data: &[MetricAnswer],
    (reference, fit): (ReferenceVotes, &Prior),
    (curves, bands, total_variation): (&curves::Curves, Option<&curves::ItemBands>, f64),
    beyond: &Beyond,
) -> Vec<Extrapolated> {
    data.iter()
        .map(|a| {
            let main = Extrapolated::of(a, reference, (curves, bands), total_variation, fit);
            choose(main, beyond.dense.as_ref())
        })
        .collect()
}

/// [`Beyond`] for a file: `file` as read (its pilot part keeps its votes), `table` as the curves
/// read it (ragged items cut), `e` its extrapolation, `data` the within-data answers (x and ε);
/// `progress(done, total)` counts simulated pilots.
pub fn beyond(
    file: &VoteTable,
    table: &VoteTable,
    e: &extrapolate::Extrapolation,
    data: &[MetricAnswer],
    (reference, curves_cfg): (ReferenceVotes, &CurveConfig),
    progress: &mut impl FnMut(usize, usize),
) -> Beyond {
    let Some(first) = data.first() else {
        return Beyond::default();
    };
    let typical = if first.typical_votes > 0 {
        first.typical_votes
    } else {
        first.votes
    };
    let eps: [f64; 4] = std::array::from_fn(|m| {
        data.iter()
            .find(|a| a.metric == Metric::ALL[m])
            .map_or(curves::default_eps(Metric::ALL[m]), |a| a.eps)
    });
    let dense = dense_part(file, typical).and_then(|p| {
        answer_part(
            (&p, None),
            reference,
            curves_cfg,
            (first.x, &eps),
            &mut |_, _| {},
        )
        .ok()
    });
    let mut out = Beyond {
        dense,
        pilots: Vec::new(),
    };
    let now = shown(
        data,
        (reference, &e.fit),
        (&e.curves, e.bands.as_ref(), e.check.total_variation),
        &out,
    );
    out.pilots = search(table, &e.fit, &now, curves_cfg, progress);
    out
}

#[cfg(test)]
mod tests;
