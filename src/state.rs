//! The page's state: signals for what the user chose (mirrored in the URL) and what the worker
//! sent back, plus the functions that turn a choice into worker requests.

use crate::bridge;
use crate::room_jobs::JobStatus;
use annosat_app::protocol::Format;
use annosat_app::protocol::{Job, JobKind, JobOutcome};
use annosat_app::requests::{Answer, JobEvent};
use annosat_core::answer::{MetricAnswer, HEADLINE_REFERENCE_VOTES};
use annosat_core::bundle::IndexEntry;
use annosat_core::curves::crossed::AnnotatorSpread;
use annosat_core::curves::{
    default_eps, CurveConfig, Curves, ItemBands, ItemDraw, Metric, Reference,
};
use annosat_core::summary::Summary;
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// Repeats per N: the same default as `annosat curves` (the status line says this number).
pub const REPEATS: u32 = 50;
/// The saturation share x (percent) the user may choose.
pub const X_RANGE: std::ops::RangeInclusive<u32> = 50..=99;
/// Held-out share of each item's annotators when the toggle is on (as `--heldout 0.2`).
pub const HELDOUT: f64 = 0.2;
pub const DEFAULT_DATASET: &str = "chaosnli_snli";
pub const UPLOADED: &str = "uploaded";
/// The generated dataset (annosat_core::synth): known true distributions, always labelled synthetic.
pub const SYNTHETIC: &str = "synthetic";

#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Idle,
    /// Work in flight: its stage, share done, and when it started (ms, for the time estimate).
    Busy {
        stage: String,
        done: f64,
        since: f64,
    },
    /// The user pressed Stop: what is shown now.
    Stopped(String),
    Failed(String),
}

/// A user's string (file name, class, id) inside text that has no markup (an `<option>`, a
/// caption): wrapped in Unicode's first-strong isolate and pop-directional isolate, so right-to-left
/// or override characters in it cannot reorder the text around it (in markup, `<bdi>` does this).
pub fn isolate(s: &str) -> String {
    format!("\u{2068}{s}\u{2069}")
}

/// What the per-item view shows at one N.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemsView {
    pub n: u32,
    pub movers: Vec<ItemDraw>,
    pub points: Vec<(f64, f64)>,
    pub total: usize,
}

/// All signals; `Copy`, provided as context.
#[derive(Clone, Copy)]
pub struct St {
    pub index: RwSignal<Vec<IndexEntry>>,
    pub dataset: RwSignal<String>,
    /// The name of the uploaded file shown (set once it has loaded, so a refused file never
    /// names the data on screen), and of the one being read.
    pub upload_name: RwSignal<Option<String>>,
    pub reading_name: RwSignal<Option<String>>,
    pub upload_error: RwSignal<Option<String>>,
    pub summary: RwSignal<Option<Summary>>,
    pub notes: RwSignal<Vec<String>>,
    pub n: RwSignal<u32>,
    pub x: RwSignal<u32>,
    pub heldout: RwSignal<bool>,
    pub seed: RwSignal<u64>,
    pub metric: RwSignal<Metric>,
    pub logx: RwSignal<bool>,
    /// Model workers per job from the URL's `model_workers=K` (0: one per core; see
    /// `model_jobs::pool_size`).
    pub model_workers: RwSignal<usize>,
    /// Item-bootstrap resamples of the curves (the URL's `bootstrap=B`; 0 turns the item
    /// intervals off, as the CLI's `--bootstrap 0`).
    pub bootstrap: RwSignal<u32>,
    pub status: RwSignal<Status>,
    pub curves: RwSignal<Option<Arc<Curves>>>,
    /// The multilabel curves, when the data are multilabel (then `curves` stays empty).
    pub ml: RwSignal<Option<Arc<annosat_core::multilabel::MlReport>>>,
    /// The curves' item bootstrap: every resample's mean curves (from `curves.boot`).
    pub bands: RwSignal<Option<Arc<ItemBands>>>,
    /// The annotators' share of the points' variance, for data that say who voted
    /// (`curves::crossed`): the answers' intervals then cover items and annotators, as the CLI's.
    pub spread: RwSignal<Option<Arc<AnnotatorSpread>>>,
    /// Whether the panels' band is over items (else over repeats).
    pub item_band: RwSignal<bool>,
    /// The absolute tolerance per metric (in `Metric::ALL` order), as `--within`.
    pub eps: RwSignal<[f64; 4]>,
    /// Where a metric's own point is bounded by the votes, the headline extrapolates to this many
    /// votes per item (0: the items' true distributions).
    pub headline_to: RwSignal<u32>,
    pub compute_ms: RwSignal<f64>,
    /// The time to the item bootstrap's intervals (after the mean curves; 0 while they come).
    pub bands_ms: RwSignal<f64>,
    pub items: RwSignal<Option<Arc<ItemsView>>>,
    pub texts: RwSignal<Option<Arc<HashMap<String, String>>>>,
    /// Which room the page shows: target-side curves, models, the reproduction table, or the plan.
    pub room: RwSignal<Room>,
    /// The Plan room's choices and results.
    pub plan: crate::plan_jobs::PlanSt,
    /// The Sources room's choice and result.
    pub sources: crate::rooms::sources::state::SourcesSt,
    /// The synthetic dataset's settings (used when `dataset` is [`SYNTHETIC`]).
    pub synth: RwSignal<annosat_core::synth::SynthConfig>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    Target,
    Models,
    Repro,
    Plan,
    Sources,
}

impl Room {
    pub const ALL: [Room; 5] = [
        Room::Target,
        Room::Models,
        Room::Repro,
        Room::Plan,
        Room::Sources,
    ];
    pub fn key(self) -> &'static str {
        match self {
            Room::Target => "target",
            Room::Models => "models",
            Room::Repro => "repro",
            Room::Plan => "plan",
            Room::Sources => "sources",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Room::Target => "Target side",
            Room::Models => "Models",
            Room::Repro => "Reproduction",
            Room::Plan => "Plan",
            Room::Sources => "Sources",
        }
    }
    pub fn parse(s: &str) -> Option<Room> {
        Room::ALL.into_iter().find(|r| r.key() == s)
    }
}

impl St {
    pub fn new() -> St {
        St {
            index: RwSignal::new(Vec::new()),
            dataset: RwSignal::new(DEFAULT_DATASET.into()),
            upload_name: RwSignal::new(None),
            reading_name: RwSignal::new(None),
            upload_error: RwSignal::new(None),
            summary: RwSignal::new(None),
            notes: RwSignal::new(Vec::new()),
            n: RwSignal::new(10),
            x: RwSignal::new(90),
            heldout: RwSignal::new(false),
            seed: RwSignal::new(42),
            metric: RwSignal::new(Metric::Kl),
            logx: RwSignal::new(false),
            model_workers: RwSignal::new(0),
            bootstrap: RwSignal::new(annosat_core::curves::bootstrap::DEFAULT_RESAMPLES),
            status: RwSignal::new(Status::Busy {
                stage: "loading".into(),
                done: 0.0,
                since: crate::clock::now_ms(),
            }),
            ml: RwSignal::new(None),
            curves: RwSignal::new(None),
            bands: RwSignal::new(None),
            spread: RwSignal::new(None),
            item_band: RwSignal::new(true),
            eps: RwSignal::new(Metric::ALL.map(default_eps)),
            headline_to: RwSignal::new(HEADLINE_REFERENCE_VOTES),
            compute_ms: RwSignal::new(0.0),
            bands_ms: RwSignal::new(0.0),
            items: RwSignal::new(None),
            texts: RwSignal::new(None),
            room: RwSignal::new(Room::Target),
            plan: crate::plan_jobs::PlanSt::new(),
            sources: crate::rooms::sources::state::SourcesSt::new(),
            synth: RwSignal::new(annosat_core::synth::SynthConfig::default()),
        }
    }

    pub fn config(&self) -> CurveConfig {
        CurveConfig {
            grid: Vec::new(),
            repeats: REPEATS,
            seed: self.seed.get_untracked(),
            alpha: None,
            reference: if self.heldout.get_untracked() {
                Reference::HeldOut { fraction: HELDOUT }
            } else {
                Reference::Full
            },
            bootstrap: self.bootstrap.get_untracked(),
        }
    }

    /// Every metric's answer from the curves shown (x and ε as chosen); empty before curves.
    pub fn answers(&self) -> Vec<MetricAnswer> {
        let x = self.x.get() as f64 / 100.0;
        let (eps, bands) = (self.eps.get(), self.bands.get());
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
        self.answers_of(&[metric], x, self.eps.get_untracked(), bands)
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
        let to = self.headline_to.get();
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
        let to = self.headline_to.get();
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
            self.eps.get_untracked(),
            self.bands.get_untracked(),
        );
        // Too few items or votes: the headline says so in words, and nothing is extrapolated.
        let bounded = answers.iter().any(|a| a.bounded_by_votes)
            && answers
                .first()
                .is_some_and(|a| a.cannot_extrapolate().is_none());
        let (to, seed) = (self.headline_to.get_untracked(), self.seed.get_untracked());
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

    /// What identifies the data shown: the dataset, and for an upload its name, items and votes
    /// (a result computed on other data is not shown as this data's).
    pub fn data_key(&self) -> String {
        let ds = self.dataset.get();
        if ds != UPLOADED {
            return ds;
        }
        let name = self.upload_name.get().unwrap_or_default();
        let size = self
            .summary
            .with(|s| s.as_ref().map(|s| (s.items, s.total_votes)))
            .unwrap_or_default();
        format!("{ds}|{name}|{}|{}", size.0, size.1)
    }

    pub fn entry(&self, name: &str) -> Option<IndexEntry> {
        self.index
            .with_untracked(|i| i.iter().find(|e| e.name == name).cloned())
    }

    /// Marks work in flight (keeping its start time while the stage stays the same).
    fn busy(&self, stage: &str, done: f64) {
        let since = match self.status.get_untracked() {
            Status::Busy {
                stage: s, since, ..
            } if s == stage => since,
            _ => crate::clock::now_ms(),
        };
        self.status.set(Status::Busy {
            stage: stage.into(),
            done,
            since,
        });
    }

    /// Sends a dataset (bytes, or the user's `File`) to the workers; `upload` marks a user file
    /// (errors shown beside the upload, and the dataset shown so far stays).
    pub fn load(&self, format: Format, payload: wasm_bindgen::JsValue, upload: bool) {
        self.status.set(Status::Idle);
        self.busy("parse", 0.0);
        bridge::load(format, payload, upload);
    }

    pub fn compute(&self) {
        self.status.set(Status::Idle);
        self.busy("compute", 0.0);
        if self.is_multilabel() {
            let votes = self
                .summary
                .with_untracked(|s| s.as_ref().map_or(1, |s| s.votes_max));
            let config = annosat_core::multilabel::MlConfig {
                grid: (1..=votes.max(1)).collect(),
                repeats: REPEATS,
                seed: self.seed.get_untracked(),
                bootstrap: self.bootstrap.get_untracked(),
            };
            bridge::multilabel(config, self.x.get_untracked() as f64 / 100.0);
            return;
        }
        bridge::compute(self.config());
    }

    /// Whether the data shown are multilabel votes (the Target room then shows their curves).
    pub fn is_multilabel(&self) -> bool {
        self.summary
            .with_untracked(|s| s.as_ref().is_some_and(|s| s.multilabel))
    }

    pub fn request_items(&self) {
        bridge::items(self.config(), self.n.get_untracked());
    }

    /// The user's Stop: the workers are replaced and the last good dataset goes back into them.
    pub fn stop(&self) {
        let stage = match self.status.get_untracked() {
            Status::Busy { stage, .. } => stage,
            _ => return,
        };
        bridge::cancel();
        let shown = self.curves.with_untracked(|c| c.is_some());
        self.status.set(Status::Stopped(if stage == "parse" {
            "Stopped: the file was not loaded; the dataset before it is still shown.".into()
        } else if stage == "intervals" {
            "Stopped: the curves are shown without their item intervals.".into()
        } else if stage == "annotators" {
            "Stopped: the intervals shown cover items only, not which annotators.".into()
        } else if shown {
            "Stopped: the curves shown are from before the last change.".into()
        } else {
            "Stopped before the curves were computed.".into()
        }));
    }

    /// A room job's Stop: the workers are replaced; the target side's work in flight, if any,
    /// goes with them and its status line says so.
    pub fn stop_job(&self, job: crate::room_jobs::JobSt) {
        if matches!(self.status.get_untracked(), Status::Busy { .. }) {
            self.stop();
        } else {
            bridge::cancel();
        }
        job.set(JobStatus::Stopped);
    }

    /// Largest N the current data allows (the curves' last grid N, else the most votes an item
    /// has); `None` before any data.
    fn max_n(&self) -> Option<u32> {
        self.curves
            .with_untracked(|c| c.as_ref().and_then(|c| c.grid.last().copied()))
            .or_else(|| {
                self.summary
                    .with_untracked(|s| s.as_ref().map(|s| s.votes_max))
            })
            .map(|m| m.max(1))
    }

    /// The one way N is set (slider, number box, URL, new data): kept within 1..=max, touching the
    /// signal only on a real change (every panel redraws when N changes, and plotters measures each
    /// label through the DOM, so redundant redraws cost).
    pub fn set_n(&self, v: u32) {
        let v = v.clamp(1, self.max_n().unwrap_or(u32::MAX));
        if self.n.get_untracked() != v {
            self.n.set(v);
        }
    }

    /// The one way x% is set (its box and the URL): kept within [`X_RANGE`].
    pub fn set_x(&self, v: u32) {
        let v = v.clamp(*X_RANGE.start(), *X_RANGE.end());
        if self.x.get_untracked() != v {
            self.x.set(v);
        }
    }

    /// For data that say who voted (and curves against all votes with their item intervals),
    /// asks the first worker for the annotators' share of the points' variance; the status
    /// stays busy ("annotators") until it is in, so the answers shown are the CLI's.
    fn request_spread(&self) {
        let ids = self
            .summary
            .with_untracked(|s| s.as_ref().is_some_and(|s| s.annotators.is_some()));
        let config = self.config();
        if !ids || config.reference != Reference::Full || config.bootstrap == 0 {
            return;
        }
        self.busy("annotators", 0.0);
        bridge::job(Job::Spread(config));
    }

    /// One job's news, routed to the channel that asked (`protocol::Job`).
    fn on_job(&self, kind: JobKind, event: JobEvent) {
        let job = match kind {
            JobKind::Plan => self.plan.job,
            JobKind::Worth => self.sources.job,
            JobKind::Rank => self.sources.rank,
            // The Target room's own work: its status line.
            JobKind::Spread => {
                match event {
                    JobEvent::Progress(done) => self.busy("annotators", done),
                    JobEvent::Done {
                        outcome: JobOutcome::Spread(s),
                        ..
                    } => {
                        self.spread.set(s.map(|s| Arc::new(*s)));
                        self.status.set(Status::Idle);
                    }
                    JobEvent::Failed(message) => self.status.set(Status::Failed(format!(
                        "The intervals over annotators were not computed: {message}"
                    ))),
                    JobEvent::Done { .. } | JobEvent::Stopped => {}
                }
                return;
            }
        };
        match event {
            JobEvent::Progress(done) => job.progress(done),
            JobEvent::Failed(message) if kind == JobKind::Worth => self.sources.failed(message),
            JobEvent::Failed(message) => job.set(JobStatus::Failed(message)),
            JobEvent::Stopped => job.interrupted(match kind {
                JobKind::Worth => "Press Measure again.",
                _ => "Press the button again.",
            }),
            JobEvent::Done { outcome, ms } => match outcome {
                JobOutcome::Planned(outcome) => {
                    self.plan.finished(*outcome, ms);
                    // A Plan room tool that held the worker is done: the headline's turn, if it
                    // waits.
                    self.extrapolate_headline(false);
                }
                JobOutcome::Worthed { report, notes } => self.sources.finished(*report, notes, ms),
                JobOutcome::Ranked(r) => self.sources.ranked(*r, ms),
                JobOutcome::Spread(_) => {}
            },
        }
    }

    /// Applies one answer from the workers (always fresh: `Requests` dropped stale ones).
    pub fn on_answer(&self, a: Answer) {
        match a {
            // A part that finished its draws early starts resampling before the page has the
            // mean curves: its progress counts once the page shows them.
            Answer::Progress { stage, done } if stage == "intervals" => {
                if matches!(self.status.get_untracked(), Status::Busy { stage, .. } if stage == "intervals")
                {
                    self.busy("intervals", done)
                }
            }
            Answer::Progress { stage, done } => self.busy(&stage, done),
            Answer::Job { kind, event } => self.on_job(kind, event),
            Answer::Loaded {
                summary,
                notes,
                upload,
                computing,
            } => {
                if upload {
                    self.upload_name.set(self.reading_name.get_untracked());
                    self.dataset.set(UPLOADED.into());
                    self.texts.set(None);
                    self.upload_error.set(None);
                }
                // The curves, per-item draws and extrapolation shown were the previous data's.
                self.curves.set(None);
                self.ml.set(None);
                self.bands.set(None);
                self.spread.set(None);
                self.plan.clear();
                self.sources.clear();
                self.items.set(None);
                self.summary.set(Some(summary));
                self.set_n(self.n.get_untracked());
                self.notes.set(notes);
                if computing {
                    self.busy("compute", 0.0);
                } else {
                    self.compute();
                }
            }
            // The mean curves are drawn at once; the item intervals come after (the status says
            // so, with their progress, and the page is idle only when they are in).
            Answer::MeanCurves { curves, ms } => {
                self.bands.set(None);
                self.spread.set(None);
                self.curves.set(Some(Arc::new(curves)));
                self.set_n(self.n.get_untracked());
                self.compute_ms.set(ms);
                self.bands_ms.set(0.0);
                self.busy("intervals", 0.0);
                self.request_items();
            }
            Answer::Curves { curves, ms } => {
                self.bands.set(curves.item_bands().map(Arc::new));
                if self.curves.with_untracked(|c| c.is_none()) {
                    self.curves.set(Some(Arc::new(curves)));
                    self.set_n(self.n.get_untracked());
                    self.compute_ms.set(ms);
                    self.request_items();
                }
                self.bands_ms.set(ms);
                self.status.set(Status::Idle);
                self.extrapolate_headline(false);
                self.request_spread();
            }
            Answer::MlReport { report, ms } => {
                self.ml.set(Some(Arc::new(*report)));
                self.set_n(self.n.get_untracked());
                self.compute_ms.set(ms);
                self.status.set(Status::Idle);
            }
            Answer::Items {
                n,
                movers,
                points,
                total,
            } => {
                self.items.set(Some(Arc::new(ItemsView {
                    n,
                    movers,
                    points,
                    total,
                })));
            }
            // A bad upload: say why beside it and keep showing what was there.
            Answer::UploadFailed { message } => {
                self.upload_error.set(Some(message));
                self.status.set(Status::Idle);
            }
            Answer::Failed { message } => self.status.set(Status::Failed(message)),
        }
    }
}
