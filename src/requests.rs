//! The bookkeeping of the page's requests to its worker pool, with no browser types in it (so it is
//! unit-tested natively): request ids, the latest request of each kind, the parts of a split
//! computation and of a load every worker must answer, the last good dataset and what to do when a
//! load fails or a worker dies. `bridge.rs` moves messages; the page (`state/`) only applies the
//! [`Answer`]s this hands out, which are always fresh.

use crate::protocol::{Format, JobKind, JobOutcome, Response};
use annosat_core::curves::{Curves, ItemDraw};
use annosat_core::ratings::RatingReport;
use annosat_core::summary::Summary;
use std::collections::HashMap;

/// A dataset sent to the workers: its request id, format, payload (bundle bytes or the user's
/// `File`; opaque here) and whether it is a user's upload (errors then shown beside the upload).
#[derive(Debug, Clone, PartialEq)]
pub struct Load<P> {
    pub id: u64,
    pub format: Format,
    pub payload: P,
    pub upload: bool,
}

/// What the page is told: only answers to the latest request of their kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Progress of the latest load ("parse") or computation ("compute"), 0..=1 (split parts
    /// averaged).
    Progress { stage: String, done: f64 },
    Loaded {
        summary: Summary,
        notes: Vec<String>,
        upload: bool,
        /// A computation was asked for after this load was sent (and runs on it): the page must
        /// not start another.
        computing: bool,
    },
    /// The latest computation's mean curves, before the item bootstrap's intervals (`ms`: the
    /// time to them); its `Curves` follow.
    MeanCurves { curves: Curves, ms: f64 },
    /// The latest computation, item bootstrap included (`ms`: the time to all of it).
    Curves { curves: Curves, ms: f64 },
    /// The latest computation's rating curves and headline (`ms`: the time to them).
    Ratings { report: Box<RatingReport>, ms: f64 },
    Items {
        n: u32,
        movers: Vec<ItemDraw>,
        points: Vec<(f64, f64)>,
        total: usize,
    },
    /// The latest multilabel computation, as the Target room shows it.
    MlReport {
        report: Box<annosat_core::multilabel::MlReport>,
        ms: f64,
    },
    /// What happened to the latest job of a kind (`protocol::Job`).
    Job { kind: JobKind, event: JobEvent },
    /// A user's file was refused; the page keeps what it showed (the pool has put the last good
    /// dataset back).
    UploadFailed { message: String },
    /// Anything else failed: the message says what happened and what to do.
    Failed { message: String },
}

/// A job's news: its progress, its result, its failure (said where the job was asked, the rest of
/// the page unaffected), or its loss when the workers were replaced (a Stop, new data, a worker
/// that died): it will never be answered.
#[derive(Debug, Clone, PartialEq)]
pub enum JobEvent {
    Progress(f64),
    Done { outcome: JobOutcome, ms: f64 },
    Failed(String),
    Stopped,
}

/// What the bridge must do after an event, besides handing over the answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Action<P> {
    None,
    /// Load this dataset into the workers again (quietly, see [`Requests::reload`]): a failed
    /// parse leaves a worker's table alone, but a restart may have dropped it.
    Reload(Load<P>),
    /// Start fresh workers, then load this dataset into them again (quietly), if there is one.
    Respawn(Option<Load<P>>),
}

/// Parts of one computation split over the pool: their mean curves first, then their curves
/// with the item bootstrap's sums.
#[derive(Debug)]
struct Split {
    means: Vec<Curves>,
    means_ms: f64,
    parts: Vec<Curves>,
    /// The parts' rating curves (a computation on a scale).
    ratings: Vec<RatingReport>,
    expected: usize,
    /// Each part's progress in the stage it reported last (a part moves from "compute" to
    /// "intervals"; the page sees the stage's mean over the parts).
    done: HashMap<String, Vec<f64>>,
    ms: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Load,
    Compute,
    Items,
    Job(JobKind),
    Multilabel,
}

/// The pool's requests. `P` is the load payload (a `JsValue` in the page, anything in tests).
#[derive(Debug)]
pub struct Requests<P> {
    workers: usize,
    next_id: u64,
    latest_load: u64,
    latest_compute: u64,
    latest_items: u64,
    latest_multilabel: u64,
    /// The latest job of each kind.
    latest_jobs: HashMap<JobKind, u64>,
    /// Rooms' jobs sent to worker 0 and not answered (not counted by [`Requests::busy`]).
    planning: Vec<u64>,
    /// Rooms' jobs lost when the workers were replaced (the rooms must be told).
    lost: Vec<JobKind>,
    /// Loads whose answer the page must not see (a restore after a failure).
    quiet: Vec<u64>,
    pending: Option<Load<P>>,
    good: Option<Load<P>>,
    /// Workers that answered each load so far (a load is answered once all have it).
    loaded: HashMap<u64, usize>,
    /// Requests already failed (every worker fails a bad load alike: said once).
    failed: Vec<u64>,
    splits: HashMap<u64, Split>,
    /// Requests sent to each worker and not yet answered.
    outstanding: Vec<usize>,
    kinds: HashMap<u64, Kind>,
    /// Worker deaths since the last answer that was not an error: past [`MAX_DEATHS`] the pool
    /// stops replacing its workers (a worker that cannot start would otherwise restart forever).
    deaths: u32,
}

/// Deaths in a row after which the page is asked to reload instead.
pub const MAX_DEATHS: u32 = 3;

impl<P: Clone> Requests<P> {
    pub fn new(workers: usize) -> Self {
        Requests {
            workers: workers.max(1),
            next_id: 1,
            latest_load: 0,
            latest_compute: 0,
            latest_items: 0,
            latest_multilabel: 0,
            latest_jobs: HashMap::new(),
            planning: Vec::new(),
            lost: Vec::new(),
            quiet: Vec::new(),
            pending: None,
            good: None,
            loaded: HashMap::new(),
            failed: Vec::new(),
            splits: HashMap::new(),
            outstanding: vec![0; workers.max(1)],
            kinds: HashMap::new(),
            deaths: 0,
        }
    }

    pub fn workers(&self) -> usize {
        self.workers
    }

    /// A fresh id (also for requests to other workers, such as the model worker's jobs).
    pub fn next_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Whether any worker has target-side work in flight (new heavy work then replaces the pool).
    /// A running Plan room job does not count: the target side's parts queue behind it on worker
    /// 0 rather than kill it.
    pub fn busy(&self) -> bool {
        let plan = self.planning.len();
        self.outstanding
            .iter()
            .enumerate()
            .any(|(i, &n)| n > if i == 0 { plan } else { 0 })
    }

    /// The kinds of rooms' jobs lost to a restart since the last call (each room is told; their
    /// requests will never be answered).
    pub fn take_lost(&mut self) -> Vec<JobKind> {
        std::mem::take(&mut self.lost)
    }

    /// The last dataset that loaded, if it was a user's upload (its payload, for the model worker).
    pub fn good(&self) -> Option<&Load<P>> {
        self.good.as_ref()
    }

    /// The workers were replaced: what they had in flight is gone. Returns the dataset to load
    /// into the new ones (the one loading, or else the last good one).
    pub fn restarted(&mut self) -> Option<Load<P>> {
        for id in std::mem::take(&mut self.planning) {
            if let Some(&Kind::Job(kind)) = self.kinds.get(&id) {
                if !self.lost.contains(&kind) {
                    self.lost.push(kind);
                }
                self.latest_jobs.insert(kind, self.next_id);
            }
        }
        self.outstanding = vec![0; self.workers];
        self.loaded.clear();
        self.splits.clear();
        self.pending.clone().or_else(|| self.good.clone())
    }

    /// Registers a load sent to every worker; returns it (with its new id).
    pub fn load(&mut self, format: Format, payload: P, upload: bool) -> Load<P> {
        let load = Load {
            id: self.next_id(),
            format,
            payload,
            upload,
        };
        self.latest_load = load.id;
        self.kinds.insert(load.id, Kind::Load);
        self.pending = Some(load.clone());
        self.sent_to_all();
        load
    }

    /// Registers a reload of `load` (after a restart): sent to every worker, answered quietly
    /// unless the page is still waiting for it (a dataset it already shows is not announced again).
    pub fn reload(&mut self, load: &Load<P>) {
        let waited_for = self.pending.as_ref().is_some_and(|p| p.id == load.id);
        if !waited_for && !self.quiet.contains(&load.id) {
            self.quiet.push(load.id);
        }
        self.sent_to_all();
    }

    fn sent_to_all(&mut self) {
        self.outstanding.iter_mut().for_each(|n| *n += 1);
    }

    /// Registers a computation of `repeats` repeats split over the pool: its id and each worker's
    /// part (start, end) of the repeats (worker i gets part i).
    pub fn compute(&mut self, repeats: u32) -> (u64, Vec<(u32, u32)>) {
        let id = self.next_id();
        self.latest_compute = id;
        self.kinds.insert(id, Kind::Compute);
        let n = self.workers.min(repeats as usize).max(1);
        let r = repeats as usize;
        let parts: Vec<(u32, u32)> = (0..n)
            .map(|i| ((i * r / n) as u32, ((i + 1) * r / n) as u32))
            .collect();
        self.splits.insert(
            id,
            Split {
                means: Vec::new(),
                means_ms: 0.0,
                parts: Vec::new(),
                ratings: Vec::new(),
                expected: n,
                done: HashMap::new(),
                ms: 0.0,
            },
        );
        for i in 0..n {
            self.outstanding[i] += 1;
        }
        (id, parts)
    }

    /// Registers a cheap request (per-item draws) for worker 0.
    pub fn items(&mut self) -> u64 {
        let id = self.next_id();
        self.latest_items = id;
        self.kinds.insert(id, Kind::Items);
        self.outstanding[0] += 1;
        id
    }

    /// Registers a multilabel computation for worker 0 (the Target room's curves of multilabel
    /// votes: one worker, whose answer replaces any earlier one).
    pub fn multilabel(&mut self) -> u64 {
        let id = self.next_id();
        self.latest_multilabel = id;
        self.kinds.insert(id, Kind::Multilabel);
        self.outstanding[0] += 1;
        id
    }

    /// Registers a job of `kind` for worker 0; it cancels nothing, and makes the earlier job of
    /// its kind stale. A room's job does not make the pool busy (the target side's work queues
    /// behind it); the target side's own (`JobKind::target_side`) does, as its curves do.
    pub fn job(&mut self, kind: JobKind) -> u64 {
        let id = self.next_id();
        self.latest_jobs.insert(kind, id);
        if !kind.target_side() {
            self.planning.push(id);
        }
        self.kinds.insert(id, Kind::Job(kind));
        self.outstanding[0] += 1;
        id
    }

    fn is_latest(&self, id: u64) -> bool {
        match self.kinds.get(&id) {
            Some(Kind::Load) => id == self.latest_load,
            Some(Kind::Compute) => id == self.latest_compute,
            Some(Kind::Items) => id == self.latest_items,
            Some(Kind::Multilabel) => id == self.latest_multilabel,
            Some(Kind::Job(kind)) => self.latest_jobs.get(kind) == Some(&id),
            None => false,
        }
    }

    fn answered(&mut self, worker: usize) {
        if let Some(n) = self.outstanding.get_mut(worker) {
            *n = n.saturating_sub(1);
        }
    }

    /// One message from worker `worker`: returns what the page should see now (if anything) and
    /// what the bridge must do.
    pub fn receive(&mut self, worker: usize, resp: Response) -> (Option<Answer>, Action<P>) {
        if matches!(
            resp,
            Response::Loaded { .. }
                | Response::Curves { .. }
                | Response::Items { .. }
                | Response::Done { .. }
                | Response::MlReport { .. }
        ) {
            self.deaths = 0;
        }
        match resp {
            Response::Ready => (None, Action::None),
            Response::Progress { id, stage, done } => {
                if !self.is_latest(id) || self.quiet.contains(&id) || self.failed.contains(&id) {
                    return (None, Action::None);
                }
                if let Some(&Kind::Job(kind)) = self.kinds.get(&id) {
                    let event = JobEvent::Progress(done);
                    return (Some(Answer::Job { kind, event }), Action::None);
                }
                let done = match self.splits.get_mut(&id) {
                    Some(s) => {
                        let parts = s.expected;
                        let d = s
                            .done
                            .entry(stage.clone())
                            .or_insert_with(|| vec![0.0; parts]);
                        if let Some(d) = d.get_mut(worker) {
                            *d = done;
                        }
                        d.iter().sum::<f64>() / d.len().max(1) as f64
                    }
                    None => done,
                };
                (Some(Answer::Progress { stage, done }), Action::None)
            }
            Response::Loaded { id, summary, notes } => {
                self.answered(worker);
                let n = self.loaded.entry(id).or_insert(0);
                *n += 1;
                if *n < self.workers {
                    return (None, Action::None);
                }
                self.loaded.remove(&id);
                if self.pending.as_ref().is_some_and(|l| l.id == id) {
                    self.good = self.pending.take();
                }
                if let Some(q) = self.quiet.iter().position(|&q| q == id) {
                    self.quiet.remove(q);
                    return (None, Action::None);
                }
                if id != self.latest_load {
                    return (None, Action::None);
                }
                let upload = self.good.as_ref().is_some_and(|g| g.id == id && g.upload);
                (
                    Some(Answer::Loaded {
                        summary,
                        notes,
                        upload,
                        computing: self.latest_compute > id,
                    }),
                    Action::None,
                )
            }
            Response::MeanCurves { id, curves, ms } => {
                // Not an answer yet: the part's resamples follow.
                let Some(s) = self.splits.get_mut(&id) else {
                    return (None, Action::None);
                };
                s.means.push(curves);
                s.means_ms = s.means_ms.max(ms);
                if s.means.len() < s.expected || id != self.latest_compute {
                    return (None, Action::None);
                }
                let answer = match Curves::merge(std::mem::take(&mut s.means)) {
                    Ok(curves) => Answer::MeanCurves {
                        curves,
                        ms: s.means_ms,
                    },
                    Err(message) => Answer::Failed { message },
                };
                (Some(answer), Action::None)
            }
            Response::Ratings { id, report, ms } => {
                // Not an answer yet where other parts' ratings are still to come.
                let Some(s) = self.splits.get_mut(&id) else {
                    return (None, Action::None);
                };
                s.ratings.push(*report);
                if s.ratings.len() < s.expected || id != self.latest_compute {
                    return (None, Action::None);
                }
                let answer = match RatingReport::merge(std::mem::take(&mut s.ratings)) {
                    Ok(report) => Answer::Ratings {
                        report: Box::new(report),
                        ms,
                    },
                    Err(message) => Answer::Failed { message },
                };
                (Some(answer), Action::None)
            }
            Response::Curves { id, curves, ms } => {
                self.answered(worker);
                let Some(s) = self.splits.get_mut(&id) else {
                    return (None, Action::None);
                };
                s.parts.push(curves);
                s.ms = s.ms.max(ms);
                if s.parts.len() < s.expected {
                    return (None, Action::None);
                }
                let Some(s) = self.splits.remove(&id) else {
                    return (None, Action::None);
                };
                if id != self.latest_compute {
                    return (None, Action::None);
                }
                let answer = match Curves::merge(s.parts) {
                    Ok(curves) => Answer::Curves { curves, ms: s.ms },
                    Err(message) => Answer::Failed { message },
                };
                (Some(answer), Action::None)
            }
            Response::Items {
                id,
                n,
                movers,
                points,
                total,
            } => {
                self.answered(worker);
                if id != self.latest_items {
                    return (None, Action::None);
                }
                let answer = Answer::Items {
                    n,
                    movers,
                    points,
                    total,
                };
                (Some(answer), Action::None)
            }
            Response::Done { id, outcome, ms } => {
                self.answered(worker);
                self.planning.retain(|&e| e != id);
                let (Some(&Kind::Job(kind)), true) = (self.kinds.get(&id), self.is_latest(id))
                else {
                    return (None, Action::None);
                };
                let event = JobEvent::Done { outcome, ms };
                (Some(Answer::Job { kind, event }), Action::None)
            }
            Response::MlReport { id, report, ms } => {
                self.answered(worker);
                if id != self.latest_multilabel {
                    return (None, Action::None);
                }
                (Some(Answer::MlReport { report, ms }), Action::None)
            }
            Response::Error { id, message } => {
                self.answered(worker);
                self.planning.retain(|&e| e != id);
                self.error(id, message)
            }
        }
    }

    fn error(&mut self, id: u64, message: String) -> (Option<Answer>, Action<P>) {
        // A message that belongs to no request (the worker could not read it): never dropped.
        if !self.kinds.contains_key(&id) {
            return (
                Some(Answer::Failed {
                    message: format!("the worker could not answer: {message}"),
                }),
                Action::None,
            );
        }
        if self.failed.contains(&id) {
            return (None, Action::None);
        }
        self.failed.push(id);
        self.splits.remove(&id);
        self.loaded.remove(&id);
        let failed_load = self.pending.take_if(|l| l.id == id);
        if !self.is_latest(id) || self.quiet.contains(&id) {
            return (None, Action::None);
        }
        if let Some(&Kind::Job(kind)) = self.kinds.get(&id) {
            let event = JobEvent::Failed(message);
            return (Some(Answer::Job { kind, event }), Action::None);
        }
        match failed_load {
            // A bad upload: say why beside it; the workers get the last good dataset back (a
            // failed parse leaves a worker's table alone, but a restart may have dropped it).
            Some(l) if l.upload => {
                let action = match self.good.clone() {
                    Some(g) => Action::Reload(g),
                    None => Action::None,
                };
                (Some(Answer::UploadFailed { message }), action)
            }
            _ => (Some(Answer::Failed { message }), Action::None),
        }
    }

    /// The user stopped the work in flight: its answers become stale, and the workers are
    /// replaced, with the last good dataset loaded back quietly (a cancelled upload never becomes
    /// the dataset).
    pub fn cancel(&mut self) -> Action<P> {
        self.pending = None;
        self.forget_in_flight();
        Action::Respawn(self.restarted())
    }

    /// Makes every request so far stale.
    fn forget_in_flight(&mut self) {
        self.latest_load = self.latest_load.max(self.next_id);
        self.latest_compute = self.latest_compute.max(self.next_id);
        self.latest_multilabel = self.latest_multilabel.max(self.next_id);
        for latest in self.latest_jobs.values_mut() {
            *latest = (*latest).max(self.next_id);
        }
        self.next_id += 1;
    }

    /// A worker died (a wasm trap such as running out of memory, or its script failed to load):
    /// what was in flight is lost. The page is told what happened and what to do; the bridge
    /// starts fresh workers with the last good dataset (or none).
    pub fn worker_died(&mut self, detail: &str) -> (Answer, Action<P>) {
        let loading = self.pending.take();
        let during = match &loading {
            Some(l) if l.upload => " while reading your file",
            Some(_) => " while loading the dataset",
            None if self.splits.contains_key(&self.latest_compute) => " while computing the curves",
            None => "",
        };
        let hint = match &loading {
            Some(l) if l.upload => "The file is probably too large for the browser: try a smaller file, or the annosat CLI (`annosat curves`), which has no such limit.",
            _ => "Reload the page if it happens again; the annosat CLI computes the same curves.",
        };
        // Requests that were in flight: their answers (should any arrive) are stale.
        self.forget_in_flight();
        let restore = self.restarted();
        self.deaths += 1;
        if self.deaths >= MAX_DEATHS {
            let message = format!(
                "The worker stopped {} times in a row ({detail}), so it is not started again. Reload the page; if this persists, the browser may be blocking WebAssembly or web workers, or be short of memory.",
                self.deaths
            );
            return (Answer::Failed { message }, Action::None);
        }
        let message = format!("The worker stopped{during} ({detail}). {hint}");
        let answer = match loading {
            Some(l) if l.upload => Answer::UploadFailed { message },
            _ => Answer::Failed { message },
        };
        (answer, Action::Respawn(restore))
    }
}

#[cfg(test)]
mod tests;
