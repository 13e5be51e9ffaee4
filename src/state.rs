//! The page's state: signals for what the user chose (mirrored in the URL) and what the worker
//! sent back, plus the functions that turn a choice into worker requests.

use crate::bridge;
use annosat_app::protocol::{Format, Request, Response};
use annosat_core::bundle::IndexEntry;
use annosat_core::curves::{CurveConfig, Curves, ItemDraw, Metric, Reference};
use annosat_core::summary::Summary;
use leptos::prelude::*;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;

/// Repeats per N: the same default as `annosat curves`.
pub const REPEATS: u32 = 50;
/// Held-out share of each item's annotators when the toggle is on (as `--heldout 0.2`).
pub const HELDOUT: f64 = 0.2;
pub const DEFAULT_DATASET: &str = "chaosnli_snli";
pub const UPLOADED: &str = "uploaded";
/// The generated dataset (annosat_core::synth): known true distributions, always labelled synthetic.
pub const SYNTHETIC: &str = "synthetic";

#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Idle,
    Busy { stage: String, done: f64 },
    Failed(String),
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
    pub upload_name: RwSignal<Option<String>>,
    pub upload_error: RwSignal<Option<String>>,
    pub summary: RwSignal<Option<Summary>>,
    pub notes: RwSignal<Vec<String>>,
    pub n: RwSignal<u32>,
    pub x: RwSignal<u32>,
    pub heldout: RwSignal<bool>,
    pub seed: RwSignal<u64>,
    pub metric: RwSignal<Metric>,
    pub logx: RwSignal<bool>,
    pub status: RwSignal<Status>,
    pub curves: RwSignal<Option<Arc<Curves>>>,
    pub compute_ms: RwSignal<f64>,
    pub items: RwSignal<Option<Arc<ItemsView>>>,
    pub texts: RwSignal<Option<Arc<HashMap<String, String>>>>,
    /// Which room the page shows: target-side curves, models, or the reproduction table.
    pub room: RwSignal<Room>,
    /// The synthetic dataset's settings (used when `dataset` is [`SYNTHETIC`]).
    pub synth: RwSignal<annosat_core::synth::SynthConfig>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    Target,
    Models,
    Repro,
}

impl Room {
    pub const ALL: [Room; 3] = [Room::Target, Room::Models, Room::Repro];
    pub fn key(self) -> &'static str {
        match self {
            Room::Target => "target",
            Room::Models => "models",
            Room::Repro => "repro",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Room::Target => "Target side",
            Room::Models => "Models",
            Room::Repro => "Reproduction",
        }
    }
    pub fn parse(s: &str) -> Option<Room> {
        Room::ALL.into_iter().find(|r| r.key() == s)
    }
}

thread_local! {
    static LATEST_LOAD: Cell<u64> = const { Cell::new(0) };
    static LATEST_COMPUTE: Cell<u64> = const { Cell::new(0) };
    static LATEST_ITEMS: Cell<u64> = const { Cell::new(0) };
    static LOAD_IS_UPLOAD: Cell<bool> = const { Cell::new(false) };
}

impl St {
    pub fn new() -> St {
        St {
            index: RwSignal::new(Vec::new()),
            dataset: RwSignal::new(DEFAULT_DATASET.into()),
            upload_name: RwSignal::new(None),
            upload_error: RwSignal::new(None),
            summary: RwSignal::new(None),
            notes: RwSignal::new(Vec::new()),
            n: RwSignal::new(10),
            x: RwSignal::new(90),
            heldout: RwSignal::new(false),
            seed: RwSignal::new(42),
            metric: RwSignal::new(Metric::Kl),
            logx: RwSignal::new(false),
            status: RwSignal::new(Status::Busy {
                stage: "loading".into(),
                done: 0.0,
            }),
            curves: RwSignal::new(None),
            compute_ms: RwSignal::new(0.0),
            items: RwSignal::new(None),
            texts: RwSignal::new(None),
            room: RwSignal::new(Room::Target),
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
        }
    }

    pub fn entry(&self, name: &str) -> Option<IndexEntry> {
        self.index
            .with_untracked(|i| i.iter().find(|e| e.name == name).cloned())
    }

    /// Sends a dataset (bytes, or the user's `File`) to the worker; `upload` marks a user file
    /// (errors shown inline).
    pub fn load(&self, format: Format, payload: wasm_bindgen::JsValue, upload: bool) {
        LOAD_IS_UPLOAD.with(|c| c.set(upload));
        self.status.set(Status::Busy {
            stage: "parse".into(),
            done: 0.0,
        });
        let id = bridge::load(format, payload);
        LATEST_LOAD.with(|c| c.set(id));
    }

    pub fn compute(&self) {
        let config = self.config();
        self.status.set(Status::Busy {
            stage: "compute".into(),
            done: 0.0,
        });
        let id = bridge::compute(config);
        LATEST_COMPUTE.with(|c| c.set(id));
    }

    pub fn request_items(&self) {
        let (config, n) = (self.config(), self.n.get_untracked());
        let id = bridge::ask(|id| Request::Items { id, config, n });
        LATEST_ITEMS.with(|c| c.set(id));
    }

    /// Keeps N within 1..=max, touching the signal only on a real change: every panel redraws
    /// when N changes, and plotters measures each label through the DOM, so redundant redraws cost.
    fn clamp_n(&self, max: u32) {
        let n = self.n.get_untracked();
        if n != n.clamp(1, max) {
            self.n.set(n.clamp(1, max));
        }
    }

    /// Applies one worker response; stale answers (older ids) are dropped.
    pub fn on_response(&self, r: Response) {
        let latest = |c: &'static std::thread::LocalKey<Cell<u64>>| c.with(|c| c.get());
        match r {
            Response::Ready => {}
            Response::Progress { id, stage, done } => {
                if id == latest(&LATEST_LOAD) || id == latest(&LATEST_COMPUTE) {
                    self.status.set(Status::Busy { stage, done });
                }
            }
            Response::Loaded { id, summary, notes } => {
                if id != latest(&LATEST_LOAD) {
                    return;
                }
                if LOAD_IS_UPLOAD.with(|c| c.get()) {
                    self.dataset.set(UPLOADED.into());
                    self.texts.set(None);
                    self.upload_error.set(None);
                }
                self.clamp_n(summary.votes_max.max(1));
                self.summary.set(Some(summary));
                self.notes.set(notes);
                if latest(&LATEST_COMPUTE) < id {
                    self.compute();
                }
            }
            Response::Curves { id, curves, ms } => {
                if id == latest(&LATEST_COMPUTE) {
                    self.clamp_n(*curves.grid.last().unwrap_or(&1));
                    self.curves.set(Some(Arc::new(curves)));
                    self.compute_ms.set(ms);
                    self.status.set(Status::Idle);
                    self.request_items();
                }
            }
            Response::Items {
                id,
                n,
                movers,
                points,
                total,
            } => {
                if id == latest(&LATEST_ITEMS) {
                    self.items.set(Some(Arc::new(ItemsView {
                        n,
                        movers,
                        points,
                        total,
                    })));
                }
            }
            Response::Error { id, message } => {
                if id == latest(&LATEST_LOAD) && LOAD_IS_UPLOAD.with(|c| c.get()) {
                    // A bad upload: say why, keep showing what was there, restore the worker's data.
                    self.upload_error.set(Some(message));
                    self.status.set(Status::Idle);
                    bridge::reload_good();
                } else if id == latest(&LATEST_LOAD) || id == latest(&LATEST_COMPUTE) {
                    self.status.set(Status::Failed(message));
                }
            }
        }
    }
}
