//! The curve workers' plan jobs (extrapolate, agree, adaptive) and their signals, kept in the page's
//! `St` so worker answers reach them: the Plan room runs them, and the Target room's headline reads
//! the extrapolation (a shell module, so neither room reaches into the other).

use crate::room_jobs::{JobBoard, JobSt, JobStatus};
use annosat_app::protocol::{Job, JobKind, JobOutcome, PlanJob, PlanOutcome};
use annosat_core::adaptive::AdaptiveResult;
use annosat_core::agreement::Agreement;
use annosat_core::curves::{CurveConfig, Curves, ItemBands, Reference};
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

/// The room's three tools (one runs at a time, in the first curve worker).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Extrapolate,
    Agree,
    Adaptive,
}

/// One finished extrapolation, and what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanResult {
    pub prior: Prior,
    pub check: FitCheck,
    pub curves: Curves,
    /// Item bootstrap of the extrapolated curves (the prior refitted per resample).
    pub bands: Option<ItemBands>,
    pub ms: f64,
    /// M' (None: the true distributions).
    pub votes: Option<u32>,
    /// The seed it was computed with (the page's may have changed since).
    pub seed: u64,
    /// Dirichlets asked for (0: BIC's choice, as the headline and `annosat curves` use).
    pub components: u32,
    /// The headline's run: the file's pilot part and the simulated pilots.
    pub beyond: Option<annosat_core::pilot::Beyond>,
}

/// A finished agreement or adaptive run, its time and seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Done<T> {
    pub value: T,
    pub ms: f64,
    pub seed: u64,
}

/// Votes per item every item starts with in the adaptive simulation (the CLI's default).
pub const DEFAULT_N0: u32 = 3;

/// The agreement curves' N: every N to 20, then every 10th, and the most votes an item has.
pub fn agree_grid(max_votes: u32) -> Vec<u32> {
    let mut g: Vec<u32> = (1..=max_votes.min(20)).collect();
    g.extend((30..max_votes).step_by(10));
    if max_votes > 20 {
        g.push(max_votes);
    }
    g
}

/// The room's signals; `Copy`, part of the page's `St`.
#[derive(Clone, Copy)]
pub struct PlanSt {
    /// M' the user asked for; 0 stands for the true distributions (`inf`).
    pub votes: RwSignal<u32>,
    /// Dirichlets in the prior; 0 lets BIC choose.
    pub components: RwSignal<u32>,
    /// The room's one job channel (one tool runs at a time).
    pub job: JobSt,
    /// The tool the status is about (the one running, or the last one run).
    pub tool: RwSignal<Tool>,
    pub result: RwSignal<Option<Arc<PlanResult>>>,
    /// The Target room's headline extrapolation (100 votes or the truth, BIC's prior).
    pub headline: RwSignal<Option<Arc<PlanResult>>>,
    /// α's level: "nominal", "ordinal" (the classes in the file's order) or "interval".
    pub level: RwSignal<&'static str>,
    pub agreement: RwSignal<Option<Arc<Done<Agreement>>>>,
    pub n0: RwSignal<u32>,
    pub adaptive: RwSignal<Option<Arc<Done<AdaptiveResult>>>>,
    /// M' and seed of the request in flight (what the answer will be for).
    asked: RwSignal<Option<(u32, u64)>>,
    /// Dirichlets of the extrapolation in flight, and whether the Target room's headline asked.
    asked_components: RwSignal<u32>,
    by_headline: RwSignal<bool>,
}

impl PlanSt {
    /// The room's signals, its channel registered on the page's `board`.
    pub fn new(board: JobBoard) -> Self {
        let plan = PlanSt {
            votes: RwSignal::new(DEFAULT_VOTES),
            components: RwSignal::new(0),
            job: JobSt::new(),
            tool: RwSignal::new(Tool::Extrapolate),
            result: RwSignal::new(None),
            headline: RwSignal::new(None),
            level: RwSignal::new("nominal"),
            agreement: RwSignal::new(None),
            n0: RwSignal::new(DEFAULT_N0),
            adaptive: RwSignal::new(None),
            asked: RwSignal::new(None),
            asked_components: RwSignal::new(0),
            by_headline: RwSignal::new(false),
        };
        board.add(
            JobKind::Plan,
            plan.job,
            "Press the button again.",
            move |end| {
                if let Ok((JobOutcome::Planned(outcome), ms)) = end {
                    plan.finished(*outcome, ms)
                }
            },
        );
        plan
    }

    /// What the worker is asked: the page's repeats and seed, every N up to M' (to 100 with the
    /// true distributions).
    pub fn config(&self, repeats: u32, seed: u64) -> ExtrapolateConfig {
        Self::config_for(
            self.votes.get_untracked(),
            self.components.get_untracked(),
            repeats,
            seed,
        )
    }

    /// The extrapolation of M' = `votes` (0: the true distributions) with `c` Dirichlets (0: BIC),
    /// with the item bootstrap's default resamples — the Plan room's and the Target room's
    /// headline's alike, so one result serves both.
    pub fn config_for(votes: u32, c: u32, repeats: u32, seed: u64) -> ExtrapolateConfig {
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
                bootstrap: annosat_core::curves::bootstrap::DEFAULT_RESAMPLES,
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
        self.send(
            Tool::Extrapolate,
            votes,
            seed,
            PlanJob::Extrapolate(self.config(repeats, seed)),
        );
        self.asked_components.set(self.components.get_untracked());
    }

    /// The Target room's headline extrapolation: M' = `votes` (0: the true distributions), the
    /// prior BIC chooses. Its result goes to `headline`, not to the room's own `result`.
    pub fn start_headline(
        &self,
        votes: u32,
        repeats: u32,
        seed: u64,
        answers: Vec<annosat_core::answer::MetricAnswer>,
    ) {
        self.send(
            Tool::Extrapolate,
            votes,
            seed,
            PlanJob::Headline(Self::config_for(votes, 0, repeats, seed), answers),
        );
        self.by_headline.set(true);
    }

    /// A headline extrapolation is in flight (for whatever reference and seed).
    pub fn headline_running(&self) -> bool {
        self.by_headline.get_untracked() && self.job.busy()
    }

    /// The extrapolation in flight is for M' = `votes` and `seed`.
    pub fn asked_for(&self, votes: u32, seed: u64) -> bool {
        self.tool.get_untracked() == Tool::Extrapolate
            && self.asked.get_untracked() == Some((votes, seed))
            && self.job.busy()
    }

    /// Agreement vs N on a table whose most votes per item is `max_votes`, at the level chosen
    /// (the worker builds it from its table's classes).
    pub fn start_agree(&self, max_votes: u32, repeats: u32, seed: u64) {
        let job = PlanJob::Agree {
            level: self.level.get_untracked().to_string(),
            grid: agree_grid(max_votes),
            repeats,
            seed,
        };
        self.send(Tool::Agree, 0, seed, job);
    }

    /// The adaptive simulation with `annosat adaptive`'s defaults for the table and `n0`.
    pub fn start_adaptive(&self, n0: u32, seed: u64) {
        self.send(Tool::Adaptive, 0, seed, PlanJob::Adaptive { n0, seed });
    }

    fn send(&self, tool: Tool, votes: u32, seed: u64, job: PlanJob) {
        self.asked.set(Some((votes, seed)));
        self.by_headline.set(false);
        self.asked_components.set(0);
        self.tool.set(tool);
        self.job.send(Job::Plan(job));
    }

    pub fn finished(&self, outcome: PlanOutcome, ms: f64) {
        let (votes, seed) = self.asked.get_untracked().unwrap_or((0, 0));
        match outcome {
            PlanOutcome::Extrapolated {
                prior,
                check,
                curves,
                bands,
                beyond,
            } => {
                let r = Some(Arc::new(PlanResult {
                    prior: *prior,
                    check: *check,
                    curves,
                    bands,
                    ms,
                    votes: (votes > 0).then_some(votes),
                    seed,
                    components: self.asked_components.get_untracked(),
                    beyond: beyond.map(|b| *b),
                }));
                // The headline's own run does not replace what the Plan room shows.
                if self.by_headline.get_untracked() {
                    self.headline.set(r)
                } else {
                    self.result.set(r)
                }
            }
            PlanOutcome::Agreement(value) => {
                self.agreement.set(Some(Arc::new(Done { value, ms, seed })))
            }
            PlanOutcome::Adaptive(value) => {
                self.adaptive.set(Some(Arc::new(Done { value, ms, seed })))
            }
        }
        self.job.set(JobStatus::Idle);
    }

    /// New data: what was extrapolated belonged to the old.
    pub fn clear(&self) {
        self.result.set(None);
        self.headline.set(None);
        self.agreement.set(None);
        self.adaptive.set(None);
        // A message about the old data (failed, stopped, busy) does not belong to the new.
        self.job.set(JobStatus::Idle);
    }
}
