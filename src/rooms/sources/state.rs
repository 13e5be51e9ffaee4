//! The Sources room's signals and its one job (kept in the page's `St`, so worker answers reach
//! them): which source is measured, the measurement in flight, its result.

use annosat_app::protocol::WorthJob;
use annosat_core::worth::{Report, WorthConfig};
use leptos::prelude::*;
use std::sync::Arc;

/// The source chosen: one the dataset ships with (its key in the index), or the user's files.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    Bundled(String),
    /// The files' names and texts.
    Uploaded(Arc<Vec<(String, String)>>),
}

impl Choice {
    /// What the URL keeps: a bundled source's key (an upload is not kept, as uploaded votes are not).
    pub fn key(&self) -> Option<&str> {
        match self {
            Choice::Bundled(k) => Some(k),
            Choice::Uploaded(_) => None,
        }
    }
}

/// A finished measurement, with what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub report: Report,
    pub notes: Vec<String>,
    pub ms: f64,
    pub config: WorthConfig,
    pub subsets: u32,
    /// The source's name as shown ("the original dataset's 5 annotators", "judges (3 files)").
    pub source: String,
    /// The dataset it was measured on: until new data replace the result, another dataset's
    /// picker must not show it.
    pub dataset: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SourcesStatus {
    Idle,
    /// Reading the user's files in the page, before the job is sent.
    Reading,
    Busy {
        done: f64,
        since: f64,
    },
    Stopped,
    Failed(String),
}

/// The room's signals; `Copy`, part of the page's `St`.
#[derive(Clone, Copy)]
pub struct SourcesSt {
    pub choice: RwSignal<Option<Choice>>,
    /// A bundled source's key from the URL, applied once the dataset's index entry is known.
    pub wanted: RwSignal<Option<String>>,
    pub status: RwSignal<SourcesStatus>,
    pub result: RwSignal<Option<Arc<Measured>>>,
    /// Reference splits and item resamples per split (`--split-seeds`, `--bootstrap`).
    pub splits: RwSignal<u32>,
    pub bootstrap: RwSignal<u32>,
    /// What the job in flight is for (its result is stored with it).
    asked: RwSignal<Option<Asked>>,
}

/// What a measurement was asked: kept while it runs, stored in its [`Measured`].
#[derive(Debug, Clone, PartialEq)]
struct Asked {
    config: WorthConfig,
    subsets: u32,
    source: String,
    dataset: String,
}

/// The CLI's defaults (`annosat worth`): a panel's random subsets per size, human repeats.
pub const SUBSETS: u32 = 10;

impl SourcesSt {
    pub fn new() -> Self {
        let d = WorthConfig::default();
        SourcesSt {
            choice: RwSignal::new(None),
            wanted: RwSignal::new(None),
            status: RwSignal::new(SourcesStatus::Idle),
            result: RwSignal::new(None),
            splits: RwSignal::new(d.splits),
            bootstrap: RwSignal::new(d.bootstrap),
            asked: RwSignal::new(None),
        }
    }

    /// `annosat worth`'s settings with the room's splits and resamples and the page's seed as the
    /// first split seed (`--split-seed`).
    pub fn config(&self, seed: u64) -> WorthConfig {
        WorthConfig {
            seed,
            splits: self.splits.get_untracked(),
            bootstrap: self.bootstrap.get_untracked(),
            ..WorthConfig::default()
        }
    }

    /// Sends the measurement of `files` (named `source` in the room) on `dataset`'s votes to the
    /// first curve worker.
    pub fn start(&self, files: Vec<(String, String)>, source: String, seed: u64, dataset: String) {
        let config = self.config(seed);
        self.asked.set(Some(Asked {
            config: config.clone(),
            subsets: SUBSETS,
            source,
            dataset,
        }));
        self.status.set(SourcesStatus::Busy {
            done: 0.0,
            since: crate::clock::now_ms(),
        });
        crate::bridge::worth(WorthJob {
            config,
            subsets: SUBSETS,
            files,
        });
    }

    pub fn progress(&self, done: f64) {
        let since = match self.status.get_untracked() {
            SourcesStatus::Busy { since, .. } => since,
            _ => crate::clock::now_ms(),
        };
        self.status.set(SourcesStatus::Busy { done, since });
    }

    pub fn finished(&self, report: Report, notes: Vec<String>, ms: f64) {
        let Some(Asked {
            config,
            subsets,
            source,
            dataset,
        }) = self.asked.get_untracked()
        else {
            return;
        };
        self.result.set(Some(Arc::new(Measured {
            report,
            notes,
            ms,
            config,
            subsets,
            source,
            dataset,
        })));
        self.status.set(SourcesStatus::Idle);
    }

    /// The result, if it was measured on `dataset` (the one shown: between choosing another
    /// dataset and its votes arriving, the old result is hidden, not shown under the new name).
    pub fn shown(&self, dataset: &str) -> Option<Arc<Measured>> {
        self.result.get().filter(|r| r.dataset == dataset)
    }

    /// The source or the settings were refused: said in the room; the page's data stay.
    pub fn failed(&self, message: String) {
        self.result.set(None);
        self.status.set(SourcesStatus::Failed(message));
    }

    /// The workers were replaced while the measurement ran (the room's own Stop sets Stopped
    /// first).
    pub fn interrupted(&self) {
        if matches!(self.status.get_untracked(), SourcesStatus::Busy { .. }) {
            self.status.set(SourcesStatus::Failed(
                "Stopped: the workers were restarted for other work (a Stop, new data, or a worker that failed). Press Measure again.".into(),
            ));
        }
    }

    /// New data: a result measured against the old humans does not belong to the new; an upload
    /// was for the old items too.
    pub fn clear(&self) {
        self.result.set(None);
        if matches!(self.choice.get_untracked(), Some(Choice::Uploaded(_))) {
            self.choice.set(None);
        }
        self.status.set(SourcesStatus::Idle);
    }
}

impl Default for SourcesSt {
    fn default() -> Self {
        Self::new()
    }
}
