//! One shape for the page's side of every worker job (`protocol::Job`): its status, its progress
//! line with the time left and a Stop button. A room keeps a [`JobSt`] per tool channel and adds
//! only what its results are; the answers reach it through `St::on_job` (state/on_answer.rs). A leaf
//! module: it knows no room and not the page state.

use crate::clock::now_ms;
use leptos::prelude::*;

/// Where a job stands, as its room shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum JobStatus {
    Idle,
    /// Work in the page before the job is sent (reading the user's files).
    Preparing,
    Busy {
        done: f64,
        since: f64,
    },
    /// The user pressed this job's Stop.
    Stopped,
    Failed(String),
}

/// A job channel's status; `Copy`, part of a room's signals.
#[derive(Clone, Copy)]
pub struct JobSt {
    pub status: RwSignal<JobStatus>,
}

impl JobSt {
    pub fn new() -> Self {
        JobSt {
            status: RwSignal::new(JobStatus::Idle),
        }
    }

    /// Sends `job` to the first worker and marks it running.
    pub fn send(&self, job: annosat_app::protocol::Job) {
        self.status.set(JobStatus::Busy {
            done: 0.0,
            since: now_ms(),
        });
        crate::bridge::job(job);
    }

    pub fn busy(&self) -> bool {
        matches!(self.status.get_untracked(), JobStatus::Busy { .. })
    }

    pub fn progress(&self, done: f64) {
        let since = match self.status.get_untracked() {
            JobStatus::Busy { since, .. } => since,
            _ => now_ms(),
        };
        self.status.set(JobStatus::Busy { done, since });
    }

    pub fn set(&self, status: JobStatus) {
        self.status.set(status);
    }

    /// The workers were replaced while the job ran (its own Stop sets Stopped first).
    pub fn interrupted(&self, again: &str) {
        if self.busy() {
            self.status.set(JobStatus::Failed(format!(
                "Stopped: the workers were restarted for other work (a Stop, new data, or a worker that failed). {again}"
            )));
        }
    }
}

impl Default for JobSt {
    fn default() -> Self {
        Self::new()
    }
}

/// " · about 12 s left" (or "2 min") once work is past 2% and a second old; empty before.
pub fn time_left(done: f64, since: f64) -> String {
    let elapsed = (now_ms() - since) / 1000.0;
    if !(0.02..1.0).contains(&done) || elapsed < 1.0 {
        return String::new();
    }
    let left = elapsed * (1.0 - done) / done;
    if left < 60.0 {
        format!(" · about {:.0} s left", left.max(1.0))
    } else {
        format!(" · about {:.0} min left", (left / 60.0).ceil())
    }
}

/// A running job's line: what it is doing, its share done, the time left, a progress bar and a
/// Stop button (`{id}-stop`) that calls `stop`.
pub fn busy_line(
    id: &'static str,
    doing: &str,
    done: f64,
    since: f64,
    stop: impl Fn() + 'static,
) -> AnyView {
    let text = format!("{doing} {:.0}%{}", done * 100.0, time_left(done, since));
    view! {
        <p class="status" id=id data-state="busy">
            {text}
            <progress max="1" value=done></progress>
            <button class="link job-stop" id=format!("{id}-stop") on:click=move |_| stop()>"Stop"</button>
        </p>
    }
    .into_any()
}

/// What a job's status line says in each state.
#[derive(Clone, Copy)]
pub struct Words {
    /// The line's element id (its Stop button is `{id}-stop`).
    pub id: &'static str,
    /// While it runs: "ranking the annotators…".
    pub doing: &'static str,
    /// While the page prepares it (reading the user's files).
    pub preparing: &'static str,
    /// After its Stop: "Stopped; nothing new was ranked.".
    pub stopped: &'static str,
    /// Before a failure's message: "The annotators were not ranked: " (may be empty).
    pub failed: &'static str,
}

/// "Computed in 1.2 s in one worker: {what}." — the idle line of a finished job.
pub fn computed(ms: f64, what: &str) -> String {
    format!("Computed in {:.1} s in one worker: {what}.", ms / 1000.0)
}

/// A job's status line: `idle` (the finished result's line, if there is one) when idle, the
/// progress line with Stop (calling `stop`) while it runs, and what a Stop or a failure left.
pub fn status_line(
    status: JobStatus,
    w: &Words,
    idle: Option<String>,
    stop: impl Fn() + 'static,
) -> Option<AnyView> {
    let id = w.id;
    match status {
        JobStatus::Idle => idle
            .map(|text| view! { <p class="status" id=id data-state="idle">{text}</p> }.into_any()),
        JobStatus::Preparing => {
            let text = w.preparing;
            Some(view! { <p class="status" id=id data-state="busy">{text}</p> }.into_any())
        }
        JobStatus::Busy { done, since } => Some(busy_line(id, w.doing, done, since, stop)),
        JobStatus::Stopped => {
            let text = w.stopped;
            Some(view! { <p class="status" id=id data-state="stopped">{text}</p> }.into_any())
        }
        JobStatus::Failed(e) => {
            let prefix = w.failed;
            Some(
                view! { <p class="error" id=id data-state="error" role="alert">{prefix}<bdi>{e}</bdi></p> }
                    .into_any(),
            )
        }
    }
}
