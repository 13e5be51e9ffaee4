//! One shape for the page's side of every worker job (`protocol::Job`): its status, its progress
//! line with the time left and a Stop button. A room keeps a [`JobSt`] per tool channel, registers
//! it on the page's [`JobBoard`] with what to do with the result, and adds only what its results
//! are; the workers' news reach it through the board (`St::on_job` routes every kind the same
//! way). A leaf module: it knows no room and not the page state.

use crate::clock::now_ms;
use annosat_app::protocol::{JobKind, JobOutcome};
use annosat_app::requests::JobEvent;
use leptos::prelude::*;
use std::sync::Arc;

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

/// What a room does when its job ends: `Ok` with the result and the milliseconds it took, `Err`
/// with a failure's message (the channel already shows it).
pub type OnEnd = Arc<dyn Fn(Result<(JobOutcome, f64), String>) + Send + Sync>;

/// One job channel on the board: its status, the words its Stop leaves, what its room does at the
/// end.
#[derive(Clone)]
struct Channel {
    kind: JobKind,
    job: JobSt,
    again: &'static str,
    on_end: OnEnd,
}

/// Every room tool's channel by [`JobKind`]: a room registers its own (`add`) where it builds its
/// state, so a new tool is one protocol variant, its worker function and its room — the page's
/// routing (`route`) does not change.
#[derive(Clone, Copy)]
pub struct JobBoard(StoredValue<Vec<Channel>>);

impl JobBoard {
    pub fn new() -> Self {
        JobBoard(StoredValue::new(Vec::new()))
    }

    /// Registers `job` as the channel of `kind`: `again` ends the line a restart of the workers
    /// leaves ("Press Measure again."), `on_end` takes the result or the failure.
    pub fn add(
        &self,
        kind: JobKind,
        job: JobSt,
        again: &'static str,
        on_end: impl Fn(Result<(JobOutcome, f64), String>) + Send + Sync + 'static,
    ) {
        self.0.update_value(|c| {
            c.retain(|c| c.kind != kind);
            c.push(Channel {
                kind,
                job,
                again,
                on_end: Arc::new(on_end),
            })
        });
    }

    /// Applies one job's news to its channel; `true` when a registered job ended with a result
    /// (the worker is free for what waits).
    pub fn route(&self, kind: JobKind, event: JobEvent) -> bool {
        let Some(c) = self
            .0
            .with_value(|c| c.iter().find(|c| c.kind == kind).cloned())
        else {
            return false;
        };
        match event {
            JobEvent::Progress(done) => c.job.progress(done),
            JobEvent::Stopped => c.job.interrupted(c.again),
            JobEvent::Failed(message) => {
                c.job.set(JobStatus::Failed(message.clone()));
                (c.on_end)(Err(message));
            }
            JobEvent::Done { outcome, ms } => {
                c.job.set(JobStatus::Idle);
                (c.on_end)(Ok((outcome, ms)));
                return true;
            }
        }
        false
    }
}

impl Default for JobBoard {
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
