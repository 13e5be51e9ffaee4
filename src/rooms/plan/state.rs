//! The Plan room's signals and its requests (kept in the page's `St`, so worker answers reach them).

use annosat_core::curves::{CurveConfig, Curves, Reference};
use annosat_core::extrapolate::{
    check::FitCheck, Components, ExtrapolateConfig, Prior, ReferenceVotes,
};
use leptos::prelude::*;
use std::sync::Arc;

/// Votes per item extrapolated to when the user has not chosen: enough to see past a typical
/// collection (and ChaosNLI's 100).
pub const DEFAULT_VOTES: u32 = 100;
/// Posterior tables the repeats are spread over (as `annosat extrapolate`'s default).
pub const DRAWS: u32 = 10;

/// One finished extrapolation, and what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanResult {
    pub prior: Prior,
    pub check: FitCheck,
    pub curves: Curves,
    pub ms: f64,
    /// M' (None: the true distributions).
    pub votes: Option<u32>,
    /// The seed it was computed with (the page's may have changed since).
    pub seed: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PlanStatus {
    Idle,
    Busy { done: f64, since: f64 },
    Stopped,
    Failed(String),
}

/// The room's signals; `Copy`, part of the page's `St`.
#[derive(Clone, Copy)]
pub struct PlanSt {
    /// M' the user asked for; 0 stands for the true distributions (`inf`).
    pub votes: RwSignal<u32>,
    /// Dirichlets in the prior; 0 lets BIC choose.
    pub components: RwSignal<u32>,
    pub status: RwSignal<PlanStatus>,
    pub result: RwSignal<Option<Arc<PlanResult>>>,
    /// M' and seed of the request in flight (what the answer will be for).
    asked: RwSignal<Option<(u32, u64)>>,
}

impl PlanSt {
    pub fn new() -> Self {
        PlanSt {
            votes: RwSignal::new(DEFAULT_VOTES),
            components: RwSignal::new(0),
            status: RwSignal::new(PlanStatus::Idle),
            result: RwSignal::new(None),
            asked: RwSignal::new(None),
        }
    }

    /// What the worker is asked: the page's repeats and seed, every N up to M' (to 100 with the
    /// true distributions).
    pub fn config(&self, repeats: u32, seed: u64) -> ExtrapolateConfig {
        let votes = self.votes.get_untracked();
        let c = self.components.get_untracked();
        ExtrapolateConfig {
            reference_votes: if votes == 0 {
                ReferenceVotes::Truth
            } else {
                ReferenceVotes::Votes(votes)
            },
            curves: CurveConfig {
                grid: Vec::new(),
                repeats,
                seed,
                alpha: None,
                reference: Reference::Full,
            },
            draws: DRAWS.min(repeats),
            components: if c == 0 {
                Components::Auto { max: 4 }
            } else {
                Components::Fixed(c as usize)
            },
        }
    }

    pub fn start(&self, repeats: u32, seed: u64) {
        let votes = self.votes.get_untracked();
        self.asked.set(Some((votes, seed)));
        self.status.set(PlanStatus::Busy {
            done: 0.0,
            since: crate::state::now_ms(),
        });
        crate::bridge::extrapolate(self.config(repeats, seed));
    }

    pub fn progress(&self, done: f64) {
        let since = match self.status.get_untracked() {
            PlanStatus::Busy { since, .. } => since,
            _ => crate::state::now_ms(),
        };
        self.status.set(PlanStatus::Busy { done, since });
    }

    pub fn finished(&self, prior: Prior, check: FitCheck, curves: Curves, ms: f64) {
        let (votes, seed) = self.asked.get_untracked().unwrap_or((0, 0));
        self.result.set(Some(Arc::new(PlanResult {
            prior,
            check,
            curves,
            ms,
            votes: (votes > 0).then_some(votes),
            seed,
        })));
        self.status.set(PlanStatus::Idle);
    }

    /// The workers were replaced while this room's work ran (its own Stop sets Stopped first).
    pub fn interrupted(&self) {
        if matches!(self.status.get_untracked(), PlanStatus::Busy { .. }) {
            self.status.set(PlanStatus::Failed(
                "The extrapolation was stopped: the workers were restarted for other work (a Stop, new data, or a worker that failed). Press Extrapolate again.".into(),
            ));
        }
    }

    /// New data: what was extrapolated belonged to the old.
    pub fn clear(&self) {
        self.result.set(None);
        if matches!(self.status.get_untracked(), PlanStatus::Busy { .. }) {
            self.status.set(PlanStatus::Idle);
        }
    }
}

impl Default for PlanSt {
    fn default() -> Self {
        Self::new()
    }
}
