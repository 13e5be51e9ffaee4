//! What the product says per metric — "you need about N annotators per item" — with the interval
//! that covers what the user is uncertain about, and in words where the data cannot answer. One
//! implementation for the CLI (`annosat curves`, `annosat extrapolate`) and the app's Target room.
//!
//! Per metric: the within-data x-point (the smallest N capturing x of the N=1 → N=M improvement)
//! with its interval over items ([`crate::curves::bootstrap`]); whether that point is **bounded
//! by the votes** ([`bounded_by_votes`]: forced by M rather than shown by the data); the
//! smallest N within an absolute tolerance ε; and, where the point is bounded, the extrapolated
//! answer (curves as if every item had [`HEADLINE_REFERENCE_VOTES`] votes, or against the true
//! distributions) with its own interval, which refits the prior on each item resample
//! ([`crate::extrapolate::bootstrap`]) and is joined with the margin for what the votes cannot pin
//! down ([`crate::extrapolate::identification`]); below [`identification::MIN_ITEMS`] items or
//! [`identification::MIN_VOTES`] votes, a sentence saying what is missing instead.

use crate::curves::crossed::{self, AnnotatorSpread};
use crate::curves::saturation::crossing;
use crate::curves::{bounded_by_votes, first_within, Curves, ItemBands, ItemInterval, Metric};
use crate::extrapolate::identification::{self, Margin};
use crate::extrapolate::{check::FitCheck, Prior, ReferenceVotes};
use serde::{Deserialize, Serialize};

/// The reference the headline extrapolates to when the data's own point is bounded (the
/// ChaosNLI convention: 100 votes per item).
pub const HEADLINE_REFERENCE_VOTES: u32 = 100;

/// A point read off a mean curve, with its intervals.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub n: Option<u32>,
    /// Over item resamples (`None` without a bootstrap).
    pub items: Option<ItemInterval>,
}

/// The answer for one metric from one set of curves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricAnswer {
    pub metric: Metric,
    /// Share of the improvement (0–1).
    pub x: f64,
    /// The curve's last N: the votes the items have (M).
    pub votes: u32,
    /// The x-point.
    pub point: Point,
    /// Whether [`MetricAnswer::point`] is forced by the vote count ([`bounded_by_votes`]).
    pub bounded_by_votes: bool,
    /// The absolute tolerance and the smallest N within it.
    pub eps: f64,
    pub within: Point,
    /// The grid was cut below the votes the items have (`--n`): the curve ends at the largest N
    /// asked for, not at the votes, so that is what bounds the point.
    #[serde(default)]
    pub partial_grid: bool,
    /// The votes half the items have at least (the median vote count, read off the items used
    /// per N): what the bounded rule compares with, so ragged data are judged by their typical
    /// item, not their largest.
    #[serde(default)]
    pub typical_votes: u32,
    /// Items with votes (at N = 1): below [`identification::MIN_ITEMS`] nothing is extrapolated.
    #[serde(default)]
    pub items: u32,
    /// The intervals cover which annotators as well as which items ([`MetricAnswer::crossed`]).
    #[serde(default)]
    pub over_annotators: bool,
}

impl MetricAnswer {
    /// The answer `curves` (with `bands`, their item bootstrap) give for `metric`.
    pub fn of(
        curves: &Curves,
        bands: Option<&ItemBands>,
        metric: Metric,
        x: f64,
        eps: f64,
    ) -> Self {
        let votes = curves.grid.last().copied().unwrap_or(0);
        let half = curves.items.first().copied().unwrap_or(0).div_ceil(2);
        let typical = curves
            .grid
            .iter()
            .zip(&curves.items)
            .rev()
            .find(|(_, &i)| i >= half)
            .map(|(&n, _)| n)
            .unwrap_or(votes);
        let n = curves.saturation(metric, x).n;
        let means: Vec<Option<f64>> = curves.points(metric).iter().map(|p| p.mean).collect();
        MetricAnswer {
            metric,
            x,
            votes,
            point: Point {
                n,
                items: bands.map(|b| b.saturation(metric, x)),
            },
            bounded_by_votes: bounded_by_votes(n, typical, HEADLINE_REFERENCE_VOTES),
            eps,
            within: Point {
                n: first_within(&curves.grid, &means, metric, eps),
                items: bands.map(|b| b.within(metric, eps)),
            },
            partial_grid: false,
            typical_votes: typical,
            items: curves.items.first().copied().unwrap_or(0),
            over_annotators: false,
        }
    }

    /// The point's and the within point's item intervals widened by the annotators' share of
    /// their variance (`curves::crossed`): intervals over items and annotators. `curves` are the
    /// ones this answer was read from.
    pub fn crossed(mut self, spread: &AnnotatorSpread, curves: &Curves) -> Self {
        let m = self.metric;
        let means: Vec<Option<f64>> = curves.points(m).iter().map(|p| p.mean).collect();
        let fr = curves.improvement_fraction(m);
        if let (Some(iv), Some(p)) = (self.point.items, crossing(&curves.grid, &fr, self.x, true)) {
            let var = spread.variance(m, self.x);
            self.point.items = Some(crossed::widen(iv, p, var, &curves.grid));
        }
        if let (Some(iv), Some(p)) = (
            self.within.items,
            crossing(&curves.grid, &means, self.eps, !m.lower_is_better()),
        ) {
            let var = spread.within_variance(m, self.eps);
            self.within.items = Some(crossed::widen(iv, p, var, &curves.grid));
        }
        self.over_annotators = true;
        self
    }

    /// Why these data cannot be extrapolated, in words; `None` where they can: at least
    /// [`identification::MIN_ITEMS`] items and [`identification::MIN_VOTES`] votes per item (below
    /// them no margin was measured, and a prior fitted to a handful of items describes no
    /// population).
    pub fn cannot_extrapolate(&self) -> Option<String> {
        let votes = if self.typical_votes > 0 {
            self.typical_votes
        } else {
            self.votes
        };
        if (self.items as usize) < identification::MIN_ITEMS {
            Some(format!(
                "{} items are too few to say what more votes would show (at least {} are needed)",
                self.items,
                identification::MIN_ITEMS
            ))
        } else if votes < identification::MIN_VOTES {
            Some(format!(
                "{votes} votes per item are too few to say what more would show (at least {} are needed)",
                identification::MIN_VOTES
            ))
        } else {
            None
        }
    }

    /// Against held-out annotators the curve compares with votes it never draws, so it is not
    /// forced to its end by the vote count: nothing is marked bounded.
    pub fn against_heldout(mut self) -> Self {
        self.bounded_by_votes = false;
        self
    }

    /// "your 10 votes", or for ragged data "your votes (median 9, at most 45)".
    fn votes_words(&self) -> String {
        if self.typical_votes == 0 || self.typical_votes == self.votes {
            format!("your {} votes", self.votes)
        } else {
            format!(
                "your votes (median {}, at most {})",
                self.typical_votes, self.votes
            )
        }
    }

    /// Marks a curve whose grid ends below the votes the items have.
    pub fn on_partial_grid(mut self) -> Self {
        self.partial_grid = true;
        self
    }
}

/// The extrapolated answer for one metric, shown where the data's own point is bounded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extrapolated {
    pub reference: ReferenceVotes,
    pub answer: MetricAnswer,
    /// The fit check's total variation (see [`FitCheck::verdict`]): a diagnostic, shown in the
    /// details, not a reason to trust the number.
    pub total_variation: f64,
    /// The identification margin joined into the point's interval (`None`: no bootstrap, or no
    /// margin for these votes).
    #[serde(default)]
    pub margin: Option<Margin>,
    /// Read off the part of the file a pilot gave more votes ([`crate::pilot::choose`]), not
    /// the whole file; `None`: the whole file.
    #[serde(default)]
    pub from: Option<PartOf>,
    /// The data's classes where they are more than any calibration set had
    /// ([`identification::MAX_CLASSES`]): no margin was measured for them, so no number is shown.
    #[serde(default)]
    pub unchecked_classes: Option<u32>,
    /// The prior's fit stopped before converging: it describes no maximum of the likelihood, so
    /// no number is shown.
    #[serde(default)]
    pub unconverged: bool,
}

/// The part of a file an answer comes from: `items` items with `votes` votes each.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PartOf {
    pub items: u32,
    pub votes: u32,
    /// Extrapolated from those votes (else their own curves reach the reference).
    pub extrapolated: bool,
}

impl Extrapolated {
    /// The extrapolated answer for `metric`: read off the extrapolated `curves` (and `bands`, their
    /// item bootstrap with the prior refitted), its interval joined with the identification margin
    /// for the votes the data's typical item has (`data`: the within-data answer) and its
    /// classes (`fit`, the prior the curves were drawn from, which also says whether it
    /// converged). The one place the CLI and the app turn an extrapolation into an answer.
    pub fn of(
        data: &MetricAnswer,
        reference: ReferenceVotes,
        (curves, bands): (&Curves, Option<&ItemBands>),
        total_variation: f64,
        fit: &Prior,
    ) -> Self {
        let classes = fit.classes();
        let mut answer = MetricAnswer::of(curves, bands, data.metric, data.x, data.eps);
        let votes = if data.typical_votes > 0 {
            data.typical_votes
        } else {
            data.votes
        };
        let unchecked = classes > identification::MAX_CLASSES;
        let margin = identification::margin(data.metric, votes)
            .copied()
            .filter(|_| !unchecked);
        if let (Some(m), Some(iv)) = (&margin, answer.point.items) {
            answer.point.items = Some(identification::widen(iv, answer.point.n, m, answer.votes));
        }
        Extrapolated {
            reference,
            answer,
            total_variation,
            margin: margin.filter(|_| bands.is_some()),
            from: None,
            unchecked_classes: unchecked.then_some(classes as u32),
            unconverged: !fit.converged,
        }
    }
}

/// "The metric", in words a user reads.
pub fn label(metric: Metric) -> &'static str {
    match metric {
        Metric::Kl => "Distribution match (KL)",
        Metric::EntropyCorr => "Ranking items by ambiguity (entropy correlation)",
        Metric::Jsd => "Jensen–Shannon distance",
        Metric::MajorityAgreement => "Majority label",
    }
}

fn range(iv: &ItemInterval, grid_end: u32) -> String {
    let end = |n: Option<u32>| n.map_or(format!("more than {grid_end}"), |n| n.to_string());
    match (iv.lo, iv.hi) {
        (Some(lo), Some(hi)) if lo == hi => format!("{lo}"),
        (lo, hi) => format!("{}–{}", end(lo), end(hi)),
    }
}

/// The point's N ("12", or "more than 100" when not reached) and its interval in words
/// ("95% interval over items 10–14", or "over items and annotators" for a crossed interval;
/// empty without a bootstrap).
fn point_text(p: &Point, grid_end: u32, annotators: bool) -> (String, String) {
    let over = if annotators {
        "items and annotators"
    } else {
        "items"
    };
    let n =
        p.n.map_or(format!("more than {grid_end}"), |n| n.to_string());
    let iv = p
        .items
        .as_ref()
        .map(|iv| format!("95% interval over {over} {}", range(iv, grid_end)))
        .unwrap_or_default();
    (n, iv)
}

fn paren(parts: &[&str]) -> String {
    let v: Vec<&str> = parts.iter().copied().filter(|s| !s.is_empty()).collect();
    if v.is_empty() {
        String::new()
    } else {
        format!(" ({})", v.join("; "))
    }
}

impl FitCheck {
    /// One phrase on how far the fitted prior describes the items (by the total variation of the
    /// agreement table).
    pub fn verdict(&self) -> &'static str {
        verdict(self.total_variation)
    }
}

/// [`FitCheck::verdict`] from a total variation.
pub fn verdict(total_variation: f64) -> &'static str {
    if total_variation < 0.05 {
        "the prior reproduces how much these items agree"
    } else if total_variation < 0.15 {
        "the prior reproduces these items' agreement roughly; read the curves with that in mind"
    } else {
        "the prior does not describe these items well: treat the extrapolated curves with caution"
    }
}

fn reference_words(r: ReferenceVotes) -> String {
    match r {
        ReferenceVotes::Votes(m) => format!("if every item had {m} votes"),
        ReferenceVotes::Truth => "against the items' true distributions".into(),
    }
}

/// The headline for one metric: the within-data point where the data can show it; the
/// extrapolated one (labelled so, with its interval and the fit check's verdict) where the
/// within-data point is bounded by the votes, plus one line saying so; or, bounded with no
/// extrapolation, that in words.
pub fn headline(a: &MetricAnswer, ext: Option<&Extrapolated>) -> String {
    let pct = (a.x * 100.0).round();
    let name = label(a.metric);
    if !a.bounded_by_votes {
        let (n, iv) = point_text(&a.point, a.votes, a.over_annotators);
        return format!(
            "{name}: {n} annotators per item capture {pct}% of the improvement{}.",
            paren(&[&iv])
        );
    }
    if a.partial_grid {
        return format!(
            "{name}: bounded by the largest N asked for ({}) — the curve ends there, so its {pct}% point ({}) is forced by where it ends; ask for every N to see the answer.",
            a.votes,
            a.point.n.map_or("not reached".into(), |n| format!("N = {n}"))
        );
    }
    let own = match a.point.n {
        Some(n) => format!(
            "your data's own point, {n}, is bounded by {}",
            a.votes_words()
        ),
        None => format!(
            "your data's own curve does not get there within {}",
            a.votes_words()
        ),
    };
    match ext {
        Some(e) => extrapolated_headline(a, e),
        None => match a.cannot_extrapolate() {
            Some(why) => format!("{name}: {own}; {why}."),
            None => format!("{name}: {own}; the extrapolation beyond them gives the answer."),
        },
    }
}

/// The headline while the extrapolation for a bounded metric is on its way (the app shows it
/// until the answer comes, instead of a sentence that changes under the reader).
pub fn pending_headline(a: &MetricAnswer) -> String {
    format!(
        "{}: computing the answer beyond {}…",
        label(a.metric),
        a.votes_words()
    )
}

/// The extrapolated headline, one sentence: the number and its interval where the interval is
/// within ±25% of it, else the range in words; what it assumes (extrapolated, bounded by the
/// votes); and how often such intervals held the real point on sets left out of their
/// calibration. The fit check is a diagnostic shown beside it, not a reason to trust it. The
/// Plan room shows it whether or not `a` is bounded.
pub fn extrapolated_headline(a: &MetricAnswer, e: &Extrapolated) -> String {
    let name = label(a.metric);
    let pct = (a.x * 100.0).round();
    let end = e.answer.votes;
    let to = match e.reference {
        ReferenceVotes::Votes(m) => m.to_string(),
        ReferenceVotes::Truth => "the items' true distributions".into(),
    };
    let from = match e.from {
        Some(p) if p.extrapolated => format!(
            "extrapolated from the {} items with {} votes to {to}",
            p.items, p.votes
        ),
        Some(p) => format!("read off the {} items with {} votes", p.items, p.votes),
        None => format!("extrapolated from {} to {to}", a.votes_words()),
    };
    let held = e
        .margin
        .filter(|m| m.held_out_checks > 0)
        .map(|m| {
            format!(
                " (held the truth in {} of {} checks)",
                m.held_out_covered, m.held_out_checks
            )
        })
        .unwrap_or_default();
    if let Some(k) = e.unchecked_classes {
        return unchecked_words(a, k);
    }
    if e.unconverged {
        return format!(
            "{name}, {pct}%: no number beyond {}: the prior fitted to your items did not converge.",
            a.votes_words()
        );
    }
    let Some(n) = e.answer.point.n else {
        return format!("{name}, {pct}%: not reached by {end} annotators per item, {from}{held}.");
    };
    match &e.answer.point.items {
        Some(iv) if identification::is_wide(n, iv) => format!(
            "{name}, {pct}%: between {} annotators per item, {from}{held}.",
            between(iv, end)
        ),
        Some(iv) => format!(
            "{name}, {pct}%: about {n} annotators per item (95% interval {}), {from}{held}.",
            range(iv, end)
        ),
        None => format!("{name}, {pct}%: about {n} annotators per item, {from}{held}."),
    }
}

/// No number for data with more classes than the calibration had: why, in words.
fn unchecked_words(a: &MetricAnswer, classes: u32) -> String {
    format!(
        "{}, {}%: no number beyond {}: no set the extrapolation was checked on had {classes} classes (at most {}).",
        label(a.metric),
        (a.x * 100.0).round(),
        a.votes_words(),
        identification::MAX_CLASSES
    )
}

/// "20 and 55", "20 and over 100".
fn between(iv: &ItemInterval, grid_end: u32) -> String {
    let end = |n: Option<u32>| n.map_or(format!("over {grid_end}"), |n| n.to_string());
    format!("{} and {}", end(iv.lo), end(iv.hi))
}

/// One short line per metric for a list beside the headline: "kl: N = 26 (items 24–27),
/// extrapolated to 100 votes per item; within the data 8, bounded by your 10 votes".
pub fn short(a: &MetricAnswer, ext: Option<&Extrapolated>) -> String {
    let pct = (a.x * 100.0).round();
    let at = |p: &Point, end: u32, annotators: bool| {
        let n = p.n.map_or(format!("more than {end}"), |n| n.to_string());
        let over = if annotators {
            "items and annotators"
        } else {
            "items"
        };
        match &p.items {
            Some(iv) => format!("N = {n} ({over} {})", range(iv, end)),
            None => format!("N = {n}"),
        }
    };
    let name = a.metric.name();
    if !a.bounded_by_votes {
        return format!(
            "{name}: {pct}% by {}",
            at(&a.point, a.votes, a.over_annotators)
        );
    }
    // "by N = 8", or that the curve never gets there.
    let own = a
        .point
        .n
        .map_or("not reached".to_string(), |n| format!("by N = {n}"));
    if a.partial_grid {
        return format!(
            "{name}: {pct}% {own}, bounded by the largest N asked for ({})",
            a.votes
        );
    }
    match ext {
        Some(e) if e.unchecked_classes.is_some() || e.unconverged => format!(
            "{name}: {pct}% {own} within the data, bounded by {}; no number beyond them",
            a.votes_words()
        ),
        Some(e) => {
            let to = match e.reference {
                ReferenceVotes::Votes(m) => format!("{m} votes per item"),
                ReferenceVotes::Truth => "the true distributions".into(),
            };
            format!(
                "{name}: {pct}% by {}, extrapolated to {to}; within the data {own}, bounded by {}",
                at(&e.answer.point, e.answer.votes, e.answer.over_annotators),
                a.votes_words()
            )
        }
        None => format!(
            "{name}: {pct}% {own} within the data, bounded by {}",
            a.votes_words()
        ),
    }
}

/// The ε line for one metric: the smallest N within ε of the reference, from the same curves as
/// the headline (the extrapolated ones where the within-data point is bounded).
pub fn within_line(a: &MetricAnswer, ext: Option<&Extrapolated>) -> String {
    let (w, grid_end, how, crossed) = match ext.filter(|_| a.bounded_by_votes) {
        Some(e) => (
            &e.answer.within,
            e.answer.votes,
            format!("{}, extrapolated", reference_words(e.reference)),
            e.answer.over_annotators,
        ),
        None => (&a.within, a.votes, String::new(), a.over_annotators),
    };
    let goal = if a.metric.lower_is_better() {
        format!("within {} of the reference", a.eps)
    } else {
        format!("at least {}", a.eps)
    };
    let (n, iv) = point_text(w, grid_end, crossed);
    match w.n {
        Some(_) => format!(
            "{} {goal} by N = {n}{}.",
            a.metric.name(),
            paren(&[&iv, &how])
        ),
        None => format!(
            "{} is not {goal} by N = {grid_end}{}.",
            a.metric.name(),
            paren(&[&how])
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::curves::bootstrap::closed as iv;

    fn answer(n: u32, votes: u32) -> MetricAnswer {
        MetricAnswer {
            metric: Metric::Kl,
            x: 0.9,
            votes,
            point: Point {
                n: Some(n),
                items: Some(iv(n - 1, n + 1)),
            },
            bounded_by_votes: bounded_by_votes(Some(n), votes, HEADLINE_REFERENCE_VOTES),
            eps: 0.05,
            within: Point {
                n: Some(n),
                items: Some(iv(n, n + 2)),
            },
            partial_grid: false,
            typical_votes: votes,
            items: 800,
            over_annotators: false,
        }
    }

    #[test]
    fn bounded_when_the_point_lies_past_a_fifth_of_the_votes() {
        assert!(bounded_by_votes(Some(9), 10, 100));
        assert!(bounded_by_votes(Some(3), 10, 100));
        assert!(!bounded_by_votes(Some(2), 10, 100));
        assert!(!bounded_by_votes(Some(10), 50, 100));
        assert!(bounded_by_votes(Some(11), 50, 100));
        assert!(bounded_by_votes(None, 50, 100));
        // Data with the reference's votes are the convention's answer.
        assert!(!bounded_by_votes(Some(61), 100, 100));
    }

    #[test]
    fn headlines_say_what_the_data_can_answer() {
        let free = answer(8, 100);
        assert_eq!(
            headline(&free, None),
            "Distribution match (KL): 8 annotators per item capture 90% of the improvement (95% interval over items 7–9)."
        );
        let bounded = answer(9, 10);
        let text = headline(&bounded, None);
        assert!(text.contains("bounded by your 10 votes"), "{text}");
        let margin = Margin {
            metric: Metric::Kl,
            votes: 10,
            lo: 0.9,
            hi: 1.1,
            checks: 30,
            sets: 6,
            held_out_checks: 30,
            held_out_covered: 28,
        };
        let e = Extrapolated {
            reference: ReferenceVotes::Votes(100),
            answer: answer(21, 100),
            total_variation: 0.02,
            margin: Some(margin),
            from: None,
            unchecked_classes: None,
            unconverged: false,
        };
        let text = headline(&bounded, Some(&e));
        assert_eq!(
            text,
            "Distribution match (KL), 90%: about 21 annotators per item (95% interval 20–22), extrapolated from your 10 votes to 100 (held the truth in 28 of 30 checks)."
        );
        assert!(text.split_whitespace().count() <= 30, "{text}");
        // Wider than ±25% of its point: the range in words.
        let mut wide = e.clone();
        wide.answer.point.items = Some(iv(14, 30));
        assert_eq!(
            headline(&bounded, Some(&wide)),
            "Distribution match (KL), 90%: between 14 and 30 annotators per item, extrapolated from your 10 votes to 100 (held the truth in 28 of 30 checks)."
        );
        // The longest label with an open end still fits in 30 words.
        let mut ec = wide.clone();
        ec.answer.metric = Metric::EntropyCorr;
        ec.answer.point.items = Some(ItemInterval {
            hi: None,
            hi_n: None,
            ..iv(14, 30)
        });
        let ec_bounded = MetricAnswer {
            metric: Metric::EntropyCorr,
            ..bounded.clone()
        };
        let text = headline(&ec_bounded, Some(&ec));
        assert!(
            text.contains("between 14 and over 100 annotators per item"),
            "{text}"
        );
        assert!(text.split_whitespace().count() <= 30, "{text}");
        // More classes than any calibration set: no number, and why.
        let many = Extrapolated {
            unchecked_classes: Some(12),
            ..e.clone()
        };
        let text = headline(&bounded, Some(&many));
        assert!(text.contains("no number beyond your 10 votes"), "{text}");
        assert!(!text.contains("about 21"), "{text}");
        // A prior that did not converge: no number either.
        let stuck = Extrapolated {
            unconverged: true,
            ..e.clone()
        };
        let text = headline(&bounded, Some(&stuck));
        assert!(text.contains("did not converge"), "{text}");
        // Too few items: no number past the votes, and why.
        let few = MetricAnswer {
            items: 2,
            ..bounded.clone()
        };
        let text = headline(&few, None);
        assert!(
            text.contains("2 items are too few to say what more votes would show"),
            "{text}"
        );
        assert_eq!(
            short(&bounded, Some(&e)),
            "kl: 90% by N = 21 (items 20–22), extrapolated to 100 votes per item; within the data by N = 9, bounded by your 10 votes"
        );
        assert_eq!(short(&free, None), "kl: 90% by N = 8 (items 7–9)");
        let w = within_line(&bounded, Some(&e));
        assert_eq!(w, "kl within 0.05 of the reference by N = 21 (95% interval over items 21–23; if every item had 100 votes, extrapolated).");
    }
}
