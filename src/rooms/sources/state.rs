//! The Sources room's signals and its one job (kept in the page's `St`, so worker answers reach
//! them): which source is measured, the measurement in flight, its result.

use crate::room_jobs::{JobBoard, JobSt, JobStatus};
use annosat_app::protocol::{Job, JobKind, JobOutcome, WorthJob};
use annosat_core::worth::rank::Ranking;
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

/// The room's signals; `Copy`, part of the page's `St`.
#[derive(Clone, Copy)]
pub struct SourcesSt {
    pub choice: RwSignal<Option<Choice>>,
    /// A bundled source's key from the URL, applied once the dataset's index entry is known.
    pub wanted: RwSignal<Option<String>>,
    /// The measurement's job channel (`Preparing` while the user's files are read).
    pub job: JobSt,
    pub result: RwSignal<Option<Arc<Measured>>>,
    /// Reference splits and item resamples per split (`--split-seeds`, `--bootstrap`).
    pub splits: RwSignal<u32>,
    pub bootstrap: RwSignal<u32>,
    /// What the job in flight is for (its result is stored with it).
    asked: RwSignal<Option<Asked>>,
    /// The ranking of the file's own annotators (`annosat annotators`): its job and result.
    pub rank: JobSt,
    pub ranking: RwSignal<Option<Arc<Ranked>>>,
    rank_asked: RwSignal<Option<(WorthConfig, String)>>,
}

/// A finished annotator ranking, with the settings and the dataset it was run on.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub ranking: Ranking,
    pub ms: f64,
    pub config: WorthConfig,
    pub dataset: String,
}

/// What a measurement was asked: kept while it runs, stored in its [`Measured`].
#[derive(Debug, Clone, PartialEq)]
struct Asked {
    config: WorthConfig,
    subsets: u32,
    source: String,
    dataset: String,
}

/// The measurement's settings in words, for a finished job's status line (the measurement's and
/// the ranking's alike).
pub fn settings(c: &WorthConfig) -> String {
    format!(
        "{} reference splits × {} item resamples, {} human repeats, split seed {}",
        c.splits, c.bootstrap, c.repeats, c.seed
    )
}

/// The CLI's defaults (`annosat worth`): a panel's random subsets per size, human repeats.
pub const SUBSETS: u32 = 10;

impl SourcesSt {
    /// The room's signals, its two channels registered on the page's `board`.
    pub fn new(board: JobBoard) -> Self {
        let d = WorthConfig::default();
        let src = SourcesSt {
            choice: RwSignal::new(None),
            wanted: RwSignal::new(None),
            job: JobSt::new(),
            result: RwSignal::new(None),
            splits: RwSignal::new(d.splits),
            bootstrap: RwSignal::new(d.bootstrap),
            asked: RwSignal::new(None),
            rank: JobSt::new(),
            ranking: RwSignal::new(None),
            rank_asked: RwSignal::new(None),
        };
        board.add(
            JobKind::Worth,
            src.job,
            "Press Measure again.",
            move |end| match end {
                Ok((JobOutcome::Worthed { report, notes }, ms)) => src.finished(*report, notes, ms),
                Ok(_) => {}
                // A refused source: the old result is not the answer to what was asked.
                Err(_) => src.result.set(None),
            },
        );
        board.add(
            JobKind::Rank,
            src.rank,
            "Press the button again.",
            move |end| {
                if let Ok((JobOutcome::Ranked(r), ms)) = end {
                    src.ranked(*r, ms)
                }
            },
        );
        src
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
    /// first curve worker; on a `scale` (the classes as the Target room reads them) the rating
    /// metrics are measured too.
    pub fn start(
        &self,
        (files, source): (Vec<(String, String)>, String),
        seed: u64,
        dataset: String,
        scale: Option<annosat_core::ratings::Scale>,
    ) {
        let config = WorthConfig {
            scale,
            ..self.config(seed)
        };
        self.asked.set(Some(Asked {
            config: config.clone(),
            subsets: SUBSETS,
            source,
            dataset,
        }));
        self.job.send(Job::Worth(WorthJob {
            config,
            subsets: SUBSETS,
            files,
        }));
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
        self.job.set(JobStatus::Idle);
    }

    /// Ranks the annotators of `dataset`'s votes with the room's settings (`annosat annotators`).
    pub fn start_rank(&self, seed: u64, dataset: String) {
        let config = self.config(seed);
        self.rank_asked.set(Some((config.clone(), dataset)));
        self.rank.send(Job::Rank(config));
    }

    pub fn ranked(&self, ranking: Ranking, ms: f64) {
        let Some((config, dataset)) = self.rank_asked.get_untracked() else {
            return;
        };
        self.ranking.set(Some(Arc::new(Ranked {
            ranking,
            ms,
            config,
            dataset,
        })));
        self.rank.set(JobStatus::Idle);
    }

    /// The ranking, if it was run on `dataset`.
    pub fn ranking_shown(&self, dataset: &str) -> Option<Arc<Ranked>> {
        self.ranking.get().filter(|r| r.dataset == dataset)
    }

    /// The result, if it was measured on `dataset` (the one shown: between choosing another
    /// dataset and its votes arriving, the old result is hidden, not shown under the new name).
    pub fn shown(&self, dataset: &str) -> Option<Arc<Measured>> {
        self.result.get().filter(|r| r.dataset == dataset)
    }

    /// The source or the settings were refused: said in the room; the page's data stay.
    pub fn failed(&self, message: String) {
        self.result.set(None);
        self.job.set(JobStatus::Failed(message));
    }

    /// New data: a result measured against the old humans does not belong to the new; an upload
    /// was for the old items too.
    pub fn clear(&self) {
        self.result.set(None);
        if matches!(self.choice.get_untracked(), Some(Choice::Uploaded(_))) {
            self.choice.set(None);
        }
        self.job.set(JobStatus::Idle);
        self.ranking.set(None);
        self.rank.set(JobStatus::Idle);
    }
}
