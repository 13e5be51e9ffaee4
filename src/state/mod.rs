//! The page's state: signals for what the user chose (mirrored in the URL) and what the worker
//! sent back, plus the functions that turn a choice into worker requests.

use crate::bridge;
use crate::room_jobs::JobStatus;
use annosat_app::protocol::Format;
use annosat_core::answer::HEADLINE_REFERENCE_VOTES;
use annosat_core::bundle::IndexEntry;
use annosat_core::curves::crossed::AnnotatorSpread;
use annosat_core::curves::{CurveConfig, Curves, ItemBands, ItemDraw, Metric, Reference};
use annosat_core::summary::Summary;
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

mod answers;
mod on_answer;
mod parts;
pub use parts::{Ratings, TargetChoices, Took, Upload};

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
    /// The uploaded file's name and refusal.
    pub upload: Upload,
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
    /// The Target room's band, tolerances and headline reference.
    pub target: TargetChoices,
    /// The scale the classes are read on, and the rating curves on it.
    pub ratings: Ratings,
    /// How long the shown curves took.
    pub took: Took,
    pub items: RwSignal<Option<Arc<ItemsView>>>,
    pub texts: RwSignal<Option<Arc<HashMap<String, String>>>>,
    /// Which room the page shows: target-side curves, models, the reproduction table, or the plan.
    pub room: RwSignal<Room>,
    /// Every room tool's job channel, by kind (`room_jobs::JobBoard`).
    pub jobs: crate::room_jobs::JobBoard,
    /// The Plan room's choices and results.
    pub plan: crate::plan_jobs::PlanSt,
    /// The Sources room's choice and result.
    pub sources: crate::rooms::sources::state::SourcesSt,
    /// The comparison of two models (Plan room; the Models room sends it pairs of arms).
    pub compare: crate::compare_jobs::CompareSt,
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
        let jobs = crate::room_jobs::JobBoard::new();
        St {
            index: RwSignal::new(Vec::new()),
            dataset: RwSignal::new(DEFAULT_DATASET.into()),
            upload: Upload::new(),
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
            target: TargetChoices::new(HEADLINE_REFERENCE_VOTES),
            ratings: Ratings::new(),
            took: Took::new(),
            items: RwSignal::new(None),
            texts: RwSignal::new(None),
            room: RwSignal::new(Room::Target),
            jobs,
            plan: crate::plan_jobs::PlanSt::new(jobs),
            sources: crate::rooms::sources::state::SourcesSt::new(jobs),
            compare: crate::compare_jobs::CompareSt::new(jobs),
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

    /// What identifies the data shown: the dataset, and for an upload its name, items and votes
    /// (a result computed on other data is not shown as this data's).
    pub fn data_key(&self) -> String {
        let ds = self.dataset.get();
        if ds != UPLOADED {
            return ds;
        }
        let name = self.upload.name.get().unwrap_or_default();
        let size = self
            .summary
            .with(|s| s.as_ref().map(|s| (s.items, s.total_votes)))
            .unwrap_or_default();
        format!("{ds}|{name}|{}|{}", size.0, size.1)
    }

    /// A download's file name: `annosat-<dataset>-<what>.<ext>` (a chart's PNG or SVG, a CSV).
    pub fn export_name(&self, what: &str, ext: &str) -> String {
        format!("annosat-{}-{what}.{ext}", self.dataset.get_untracked())
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
        let config = self.config();
        // Rating curves are against the items' own ratings: none for a held-out reference.
        let scale = (config.reference == Reference::Full)
            .then(|| self.scale())
            .flatten();
        bridge::compute(config, scale);
    }

    /// The scale the shown data's classes are read on (the user's choice, else what the bundled
    /// dataset declares, else their names); `None`: unordered.
    pub fn scale(&self) -> Option<annosat_core::ratings::Scale> {
        let declared = self.declared_scale();
        self.summary.with_untracked(|s| {
            s.as_ref()
                .and_then(|s| self.ratings.scale(&s.classes, declared))
        })
    }

    /// What the bundled dataset shown declares about its classes (an upload declares nothing).
    pub fn declared_scale(&self) -> Option<annosat_core::ratings::ScaleKind> {
        let ds = self.dataset.get_untracked();
        self.entry(&ds).and_then(|e| e.scale)
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
}
