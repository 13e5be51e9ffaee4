//! The comparison of two models (`annosat compare`) as the page keeps it: the choices (two arms of
//! the dataset's bundled export, or two uploaded prediction files), the job channel and the
//! result. A shell module held in the page's `St` (it imports neither the state nor a room), so
//! the Plan room runs and shows it and the Models room can ask it for a pair of arms without
//! either room reaching into the other.

use crate::room_jobs::{JobBoard, JobSt};
use annosat_app::protocol::{CompareJob, Job, JobKind, JobOutcome};
use annosat_core::power::{PowerConfig, PowerMetric, PowerReport, Predictions};
use leptos::prelude::*;
use std::sync::Arc;

/// The arms compared when the user has not chosen: hard labels against soft labels.
pub const DEFAULT_ARMS: (&str, &str) = ("hard", "soft");

/// One finished comparison and what it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Compared {
    pub report: PowerReport,
    pub notes: Vec<String>,
    /// "hard" / "soft", or the uploaded files' names.
    pub labels: (String, String),
    pub ms: f64,
}

/// An uploaded prediction file: its name and text.
pub type Upload = Option<(String, String)>;

/// The tool's signals; `Copy`, part of the page's `St`.
#[derive(Clone, Copy)]
pub struct CompareSt {
    /// Compare two uploaded files (else two arms of the dataset's export).
    pub from_files: RwSignal<bool>,
    /// The export's arms A and B.
    pub arms: RwSignal<(String, String)>,
    /// The N the arms were trained at (None: each arm's largest).
    pub arms_n: RwSignal<Option<u32>>,
    pub files: RwSignal<(Upload, Upload)>,
    /// The metric the heat map shows.
    pub metric: RwSignal<PowerMetric>,
    pub job: JobSt,
    pub result: RwSignal<Option<Arc<Compared>>>,
    /// The labels of the comparison in flight.
    asked: RwSignal<(String, String)>,
    /// A comparison asked for from elsewhere (the Models room), to start when the room shows.
    pub requested: RwSignal<bool>,
}

impl CompareSt {
    /// The tool's signals, its channel registered on the page's `board`.
    pub fn new(board: JobBoard) -> Self {
        let c = CompareSt {
            from_files: RwSignal::new(false),
            arms: RwSignal::new((DEFAULT_ARMS.0.into(), DEFAULT_ARMS.1.into())),
            arms_n: RwSignal::new(None),
            files: RwSignal::new((None, None)),
            metric: RwSignal::new(PowerMetric::Tv),
            job: JobSt::new(),
            result: RwSignal::new(None),
            asked: RwSignal::new(Default::default()),
            requested: RwSignal::new(false),
        };
        board.add(
            JobKind::Compare,
            c.job,
            "Press Compare again.",
            move |end| match end {
                Ok((JobOutcome::Compared { report, notes }, ms)) => {
                    c.result.set(Some(Arc::new(Compared {
                        report: *report,
                        notes,
                        labels: c.asked.get_untracked(),
                        ms,
                    })))
                }
                Ok(_) => {}
                Err(_) => c.result.set(None),
            },
        );
        c
    }

    /// `annosat compare`'s defaults with the page's seed.
    pub fn config(seed: u64) -> PowerConfig {
        PowerConfig {
            seed,
            ..Default::default()
        }
    }

    /// Sends the comparison of `a` and `b` (named `labels`) to the first worker.
    pub fn send(
        self,
        (a, b): (Predictions, Predictions),
        labels: (String, String),
        seed: u64,
        scale: Option<annosat_core::ratings::Scale>,
    ) {
        self.asked.set(labels);
        self.job.send(Job::Compare(CompareJob {
            config: Self::config(seed),
            a,
            b,
            scale,
        }));
    }

    /// Asks for the comparison of two arms of the dataset's export, trained at `n`, on `metric`
    /// (the Models room's link); the Plan room starts it as soon as it shows.
    pub fn open(self, (a, b): (String, String), n: u32, metric: PowerMetric) {
        self.from_files.set(false);
        self.arms.set((a, b));
        self.arms_n.set(Some(n));
        self.metric.set(metric);
        self.requested.set(true);
    }
}
