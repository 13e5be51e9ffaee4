//! The Target room's answers from the page's state: every metric's answer from the curves shown
//! (with the intervals over annotators where the data say who voted), the headline's
//! extrapolation and when to ask for it — the core's builders, as the CLI calls them.

use super::{St, REPEATS};
use annosat_core::answer::MetricAnswer;
use annosat_core::curves::{ItemBands, Metric};
use leptos::prelude::*;
use std::sync::Arc;

impl St {
    /// Every metric's answer from the curves shown (x and ε as chosen); empty before curves.
    pub fn answers(&self) -> Vec<MetricAnswer> {
        let x = self.x.get() as f64 / 100.0;
        let (eps, bands) = (self.target.eps.get(), self.bands.get());
        self.spread.track();
        self.curves.track();
        self.heldout.track();
        self.answers_of(&Metric::ALL, x, eps, bands)
    }

    /// Whether `metric`'s own point is bounded by the votes (one metric's answer, for its panel).
    pub fn bounded(&self, metric: Metric) -> bool {
        let x = self.x.get() as f64 / 100.0;
        let bands = self.bands.get();
        self.curves.track();
        self.heldout.track();
        self.answers_of(&[metric], x, self.target.eps.get_untracked(), bands)
            .first()
            .is_some_and(|a| a.bounded_by_votes)
    }

    fn answers_of(
        &self,
        metrics: &[Metric],
        x: f64,
        eps: [f64; 4],
        bands: Option<Arc<ItemBands>>,
    ) -> Vec<MetricAnswer> {
        // Against held-out annotators nothing is bounded by the votes (`MetricAnswer::against_heldout`).
        let heldout = self.heldout.get_untracked();
        let spread = self.spread.get_untracked();
        self.curves.with_untracked(|c| {
            c.as_ref().map_or(Vec::new(), |c| {
                metrics
                    .iter()
                    .map(|&m| {
                        let a = MetricAnswer::of(c, bands.as_deref(), m, x, eps[m as usize]);
                        match &spread {
                            _ if heldout => a.against_heldout(),
                            Some(s) if bands.is_some() => a.crossed(s, c),
                            _ => a,
                        }
                    })
                    .collect()
            })
        })
    }

    /// The extrapolation behind the headline, when the Plan room's result is one for the
    /// headline's reference and the page's seed.
    pub fn headline_result(&self) -> Option<Arc<crate::plan_jobs::PlanResult>> {
        let to = self.target.headline_to.get();
        let seed = self.seed.get();
        let fits = |r: &Arc<crate::plan_jobs::PlanResult>| {
            r.votes.unwrap_or(0) == to && r.seed == seed && r.bands.is_some() && r.components == 0
        };
        // The headline's own run, or the Plan room's when it asked for the same.
        self.plan
            .headline
            .get()
            .filter(fits)
            .or_else(|| self.plan.result.get().filter(fits))
    }

    /// Every metric's extrapolated answer from the headline's extrapolation, when it is in
    /// (`Extrapolated::of`, the CLI's builder); with the result it was read from.
    pub fn extrapolated(
        &self,
    ) -> Option<(
        Arc<crate::plan_jobs::PlanResult>,
        Vec<annosat_core::answer::Extrapolated>,
    )> {
        use annosat_core::extrapolate::ReferenceVotes;
        let answers = self.answers();
        let r = self.headline_result()?;
        let to = self.target.headline_to.get();
        let reference = if to == 0 {
            ReferenceVotes::Truth
        } else {
            ReferenceVotes::Votes(to)
        };
        let ext = annosat_core::pilot::shown(
            &answers,
            (reference, &r.prior),
            (&r.curves, r.bands.as_ref(), r.check.total_variation),
            &r.beyond.clone().unwrap_or_default(),
        );
        Some((r, ext))
    }

    /// Where a metric's own point is bounded by the votes, asks the first worker for the
    /// extrapolation the headline needs (unless it is there or on its way); `again` also after
    /// a Stop or a failure.
    pub fn extrapolate_headline(&self, again: bool) {
        let x = self.x.get_untracked() as f64 / 100.0;
        let answers = self.answers_of(
            &Metric::ALL,
            x,
            self.target.eps.get_untracked(),
            self.bands.get_untracked(),
        );
        // Too few items or votes: the headline says so in words, and nothing is extrapolated.
        let bounded = answers.iter().any(|a| a.bounded_by_votes)
            && answers
                .first()
                .is_some_and(|a| a.cannot_extrapolate().is_none());
        let (to, seed) = (
            self.target.headline_to.get_untracked(),
            self.seed.get_untracked(),
        );
        let fits = |r: &Option<Arc<crate::plan_jobs::PlanResult>>| {
            r.as_ref().is_some_and(|r| {
                r.votes.unwrap_or(0) == to
                    && r.seed == seed
                    && r.bands.is_some()
                    && r.components == 0
            })
        };
        let have = self.plan.headline.with_untracked(fits) || self.plan.result.with_untracked(fits);
        // Idle, or busy with an earlier headline run for another reference or seed (replaced);
        // another tool of the Plan room, a Stop or a failure wait for the user's button.
        let quiet = matches!(
            self.plan.job.status.get_untracked(),
            crate::room_jobs::JobStatus::Idle
        ) || self.plan.headline_running();
        if bounded && !have && !self.plan.asked_for(to, seed) && (quiet || again) {
            self.plan.start_headline(to, REPEATS, seed, answers);
        }
    }
}
