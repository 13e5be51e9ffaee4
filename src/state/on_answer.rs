//! How the page applies what its workers send: every fresh `Answer` (`on_answer`), a job's news
//! routed to the channel that asked (`on_job`), and the Target room's job for the intervals over
//! annotators, asked for once the item intervals are in (`request_spread`).

use super::{ItemsView, St, Status, UPLOADED};
use crate::bridge;
use annosat_app::protocol::{Job, JobKind, JobOutcome};
use annosat_app::requests::{Answer, JobEvent};
use annosat_core::curves::Reference;
use leptos::prelude::*;
use std::sync::Arc;

impl St {
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

    /// One job's news: the Target room's own (the intervals over annotators) sets the page's
    /// status; every room tool's goes to the channel its room registered (`room_jobs::JobBoard`).
    fn on_job(&self, kind: JobKind, event: JobEvent) {
        if kind != JobKind::Spread {
            // A room tool that held the worker is done: the headline's turn, if it waits.
            if self.jobs.route(kind, event) {
                self.extrapolate_headline(false);
            }
            return;
        }
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
                    self.upload.name.set(self.upload.reading.get_untracked());
                    self.dataset.set(UPLOADED.into());
                    self.texts.set(None);
                    self.upload.error.set(None);
                }
                // The curves, per-item draws and extrapolation shown were the previous data's.
                self.curves.set(None);
                self.ratings.report.set(None);
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
                self.ratings.report.set(None);
                self.spread.set(None);
                self.curves.set(Some(Arc::new(curves)));
                self.set_n(self.n.get_untracked());
                self.took.curves_ms.set(ms);
                self.took.bands_ms.set(0.0);
                self.busy("intervals", 0.0);
                self.request_items();
            }
            Answer::Curves { curves, ms } => {
                self.bands.set(curves.item_bands().map(Arc::new));
                if self.curves.with_untracked(|c| c.is_none()) {
                    self.curves.set(Some(Arc::new(curves)));
                    self.set_n(self.n.get_untracked());
                    self.took.curves_ms.set(ms);
                    self.request_items();
                }
                self.took.bands_ms.set(ms);
                self.status.set(Status::Idle);
                self.extrapolate_headline(false);
                self.request_spread();
            }
            Answer::Ratings { report, ms } => {
                self.ratings.report.set(Some(Arc::new(*report)));
                self.ratings.ms.set(ms);
            }
            Answer::MlReport { report, ms } => {
                self.ml.set(Some(Arc::new(*report)));
                self.set_n(self.n.get_untracked());
                self.took.curves_ms.set(ms);
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
                self.upload.error.set(Some(message));
                self.status.set(Status::Idle);
            }
            Answer::Failed { message } => self.status.set(Status::Failed(message)),
        }
    }
}
