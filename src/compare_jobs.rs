//! The comparison of two models (`annosat compare`) as the page runs it: the choices (two arms of
//! the dataset's bundled export, or two uploaded prediction files), the job channel and the
//! result. A shell module held in the page's `St`, so the Plan room shows it and the Models room
//! can send a pair of arms to it without either room reaching into the other.

use crate::room_jobs::{JobBoard, JobSt, JobStatus};
use crate::state::St;
use annosat_app::protocol::{CompareJob, Job, JobKind, JobOutcome};
use annosat_core::models::Manifest;
use annosat_core::power::{predictions, PowerConfig, PowerMetric, PowerReport, Predictions};
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
    pub files: RwSignal<(Upload, Upload)>,
    /// The metric the heat map shows.
    pub metric: RwSignal<PowerMetric>,
    pub job: JobSt,
    pub result: RwSignal<Option<Arc<Compared>>>,
    /// The labels of the comparison in flight.
    asked: RwSignal<(String, String)>,
}

impl CompareSt {
    /// The tool's signals, its channel registered on the page's `board`.
    pub fn new(board: JobBoard) -> Self {
        let c = CompareSt {
            from_files: RwSignal::new(false),
            arms: RwSignal::new((DEFAULT_ARMS.0.into(), DEFAULT_ARMS.1.into())),
            files: RwSignal::new((None, None)),
            metric: RwSignal::new(PowerMetric::Tv),
            job: JobSt::new(),
            result: RwSignal::new(None),
            asked: RwSignal::new(Default::default()),
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

    /// Reads the two models (the files, or the arms from the dataset's export) and sends the job.
    pub fn start(self, st: St) {
        let seed = st.seed.get_untracked();
        let scale = st.scale();
        if self.from_files.get_untracked() {
            let (a, b) = self.files.get_untracked();
            let (Some(a), Some(b)) = (a, b) else {
                self.job.set(JobStatus::Failed(
                    "give two prediction files, one for model A and one for model B".into(),
                ));
                return;
            };
            let read = |(name, text): &(String, String)| predictions::parse(name, text.as_bytes());
            match (read(&a), read(&b)) {
                (Ok(pa), Ok(pb)) => self.send((pa, pb), (a.0, b.0), seed, scale),
                (Err(e), _) | (_, Err(e)) => self.job.set(JobStatus::Failed(e)),
            }
            return;
        }
        let Some(path) = export_path(st) else {
            self.job.set(JobStatus::Failed(format!(
                "{} has no bundled model export: upload two prediction files instead",
                st.dataset.get_untracked()
            )));
            return;
        };
        let (arm_a, arm_b) = self.arms.get_untracked();
        self.job.set(JobStatus::Preparing);
        leptos::task::spawn_local(async move {
            match arms_of(&path, &arm_a, &arm_b).await {
                Ok(p) => self.send(p, (arm_a, arm_b), seed, scale),
                Err(e) => self.job.set(JobStatus::Failed(e)),
            }
        });
    }

    fn send(
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

    /// The Models room's link: compare `a` and `b` on `metric` in the Plan room, now.
    pub fn open(self, st: St, (a, b): (String, String), metric: PowerMetric) {
        self.from_files.set(false);
        self.arms.set((a, b));
        self.metric.set(metric);
        st.room.set(crate::state::Room::Plan);
        self.start(st);
    }
}

/// The manifest path of the dataset's export (all votes as the reference), if it has one.
pub fn export_path(st: St) -> Option<String> {
    let exports = use_context::<crate::data::Exports>()?;
    let ds = st.dataset.get_untracked();
    exports.list.with_untracked(|e| match e {
        Some(Ok(list)) => crate::data::pick_export(list, &ds, false).map(|e| e.path),
        _ => None,
    })
}

/// The two arms' predictions from the export whose manifest is at `path` (under models/).
async fn arms_of(path: &str, a: &str, b: &str) -> Result<(Predictions, Predictions), String> {
    let m = crate::data::fetch_bytes(&format!("models/{path}"))
        .await
        .and_then(|b| Manifest::parse(&String::from_utf8_lossy(&b)))?;
    let folder = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let bytes = crate::data::fetch_bytes(&format!("models/{folder}predictions.bin")).await?;
    let pred: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    Ok((
        predictions::of_export(&m, &pred, a, None)?,
        predictions::of_export(&m, &pred, b, None)?,
    ))
}
