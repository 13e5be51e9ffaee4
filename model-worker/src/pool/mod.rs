//! Several model workers for one job. A wasm module is single-threaded here (wasm threads need a
//! nightly toolchain with `build-std`), so every core is reached with several workers: the
//! worker that got the job (the coordinator) starts `k` pool workers of its own — the same wasm,
//! nested dedicated workers, ended with it when the page stops the job — and hands them tasks
//! from a queue, the next one to whichever worker is free:
//!
//! - **embedding**: one task per batch of [`crate::own::BATCH`] texts (longest first), so every
//!   text is embedded in the same batch as by one worker and the embeddings are the same bits;
//!   each worker reads the encoder from the Cache API once and keeps it;
//! - **training**: one task per group (a fold, or a split, × the model seed); a group's heads
//!   are independent of the other groups', so the results are one worker's.
//!
//! The coordinator only reads, deals, forwards progress and assembles, so it answers the page at
//! once whatever the pool is doing. A pool worker that dies fails the job with a message that
//! names it. Tasks and replies travel as postcard bytes (exact floats, NaN included).

mod messages;
mod serve;
mod spawn;

use messages::{encode, Part, Reply};
pub(crate) use serve::serve;
use spawn::{error_text, js, spawn_self};

use annosat_core::models::HeadConfig;
use annosat_heads::multilabel::{MlArm, MlFold};

use annosat_heads::GroupResult;
use anyhow::{anyhow, bail, Result};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};

/// The first element of a pool message (the page's messages start with a JSON request).
pub(crate) const TAG: &str = "annosat-pool-part";
pub use crate::protocol::MAX_WORKERS;

/// What hears the pool: (task index, a reply: progress, or the task's result just before it is
/// stored).
type OnReply = Box<dyn FnMut(usize, &Reply)>;

/// The queue and where each worker stands, shared with the workers' message handlers.
struct Shared {
    workers: Vec<Worker>,
    ready: Vec<bool>,
    /// The task each worker runs.
    running: Vec<Option<usize>>,
    queue: VecDeque<(usize, js_sys::Array)>,
    results: Vec<Option<Reply>>,
    left: usize,
    failed: Option<String>,
    on_reply: OnReply,
    /// Resolves the coordinator's wait.
    wake: Option<js_sys::Function>,
}

impl Shared {
    /// Gives worker `i` the next task if it is up and free.
    fn feed(&mut self, i: usize) {
        if !self.ready[i] || self.running[i].is_some() || self.failed.is_some() {
            return;
        }
        if let Some((t, msg)) = self.queue.pop_front() {
            self.running[i] = Some(t);
            let _ = self.workers[i].post_message(&msg);
        }
    }

    fn wake_if_done(&mut self) {
        if self.failed.is_some() || self.left == 0 {
            if let Some(f) = self.wake.take() {
                let _ = f.call0(&JsValue::UNDEFINED);
            }
        }
    }

    /// Worker `i` (of `k`) said `data`.
    fn heard(&mut self, i: usize, k: usize, data: JsValue) {
        if data.as_string().is_some() {
            // The worker's "Ready" (the page protocol's first message).
            self.ready[i] = true;
            return self.feed(i);
        }
        let bytes = js_sys::Array::from(&data)
            .get(1)
            .dyn_into::<js_sys::Uint8Array>()
            .map(|b| b.to_vec())
            .unwrap_or_default();
        let Some(t) = self.running[i] else { return };
        match postcard::from_bytes::<Reply>(&bytes) {
            Ok(Reply::Failed(m)) => {
                self.failed = Some(format!("model worker {} of {k}: {m}", i + 1));
            }
            Ok(r) => {
                (self.on_reply)(t, &r);
                if r.is_result() {
                    self.results[t] = Some(r);
                    self.running[i] = None;
                    self.left -= 1;
                    self.feed(i);
                }
            }
            Err(e) => self.failed = Some(format!("model worker {} of {k}: bad reply: {e}", i + 1)),
        }
        self.wake_if_done();
    }
}

struct Member {
    worker: Worker,
    _onmessage: Closure<dyn Fn(MessageEvent)>,
    _onerror: Closure<dyn Fn(web_sys::Event)>,
}

/// `k` pool workers, ended when dropped.
pub(crate) struct Pool {
    members: Vec<Member>,
    shared: Rc<RefCell<Shared>>,
    /// The largest wasm memory a pool worker reported.
    pub(crate) memory: usize,
}

impl Drop for Pool {
    fn drop(&mut self) {
        for m in &self.members {
            m.worker.terminate();
        }
    }
}

impl Pool {
    /// Starts `k` workers (at least 1, at most [`MAX_WORKERS`]); they load while the
    /// coordinator reads the data.
    pub(crate) fn start(k: usize) -> Result<Pool> {
        let k = k.clamp(1, MAX_WORKERS);
        let workers = (0..k).map(|_| spawn_self()).collect::<Result<Vec<_>>>()?;
        let shared = Rc::new(RefCell::new(Shared {
            workers: workers.clone(),
            ready: vec![false; k],
            running: vec![None; k],
            queue: VecDeque::new(),
            results: Vec::new(),
            left: 0,
            failed: None,
            on_reply: Box::new(|_, _| {}),
            wake: None,
        }));
        let members = workers
            .into_iter()
            .enumerate()
            .map(|(i, worker)| {
                let sh = shared.clone();
                let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
                    sh.borrow_mut().heard(i, k, ev.data())
                });
                let sh = shared.clone();
                let onerror = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
                    ev.prevent_default();
                    let mut s = sh.borrow_mut();
                    s.failed.get_or_insert(format!(
                        "model worker {} of {k} stopped: {}",
                        i + 1,
                        error_text(&ev)
                    ));
                    s.wake_if_done();
                });
                worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
                worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
                Member {
                    worker,
                    _onmessage: onmessage,
                    _onerror: onerror,
                }
            })
            .collect();
        Ok(Pool {
            members,
            shared,
            memory: 0,
        })
    }

    pub(crate) fn size(&self) -> usize {
        self.members.len()
    }

    /// Runs `tasks` (a task and the bytes beside it), each on the next free worker, and waits
    /// for all; `on_reply(task, reply)` hears their progress and results as they come. Returns
    /// the results in `tasks`' order.
    async fn run(
        &mut self,
        tasks: Vec<(Part, Vec<js_sys::Uint8Array>)>,
        on_reply: OnReply,
    ) -> Result<Vec<Reply>> {
        let wait = {
            let mut s = self.shared.borrow_mut();
            if let Some(f) = &s.failed {
                bail!("{f}");
            }
            s.on_reply = on_reply;
            s.left = tasks.len();
            s.results = (0..tasks.len()).map(|_| None).collect();
            s.queue = tasks
                .into_iter()
                .enumerate()
                .map(|(t, (part, bytes))| {
                    let msg = js_sys::Array::of2(&JsValue::from_str(TAG), &encode(&part));
                    for b in bytes {
                        msg.push(&b);
                    }
                    (t, msg)
                })
                .collect();
            let mut wake = None;
            let promise = js_sys::Promise::new(&mut |resolve, _| wake = Some(resolve));
            s.wake = wake;
            for i in 0..self.members.len() {
                s.feed(i);
            }
            s.wake_if_done();
            promise
        };
        wasm_bindgen_futures::JsFuture::from(wait)
            .await
            .map_err(js)?;
        let mut s = self.shared.borrow_mut();
        s.on_reply = Box::new(|_, _| {});
        if let Some(f) = &s.failed {
            bail!("{f}");
        }
        let results: Vec<Reply> = std::mem::take(&mut s.results)
            .into_iter()
            .enumerate()
            .map(|(t, r)| r.ok_or_else(|| anyhow!("task {t} has no result")))
            .collect::<Result<_>>()?;
        for r in &results {
            if let Reply::Embedded { memory, .. }
            | Reply::Trained { memory, .. }
            | Reply::MlTrained { memory, .. } = r
            {
                self.memory = self.memory.max(*memory);
            }
        }
        Ok(results)
    }

    /// Every text embedded, in `texts`' order, one task per batch of `batch`; `on_texts(done)`
    /// as batches finish. Returns the embeddings and their width.
    pub(crate) async fn embed(
        &mut self,
        encoder_url: &str,
        texts: &[&str],
        batch: usize,
        mut on_texts: impl FnMut(usize) + 'static,
    ) -> Result<(Vec<f32>, usize)> {
        let sizes: Vec<usize> = texts.chunks(batch).map(<[&str]>::len).collect();
        let tasks = texts
            .chunks(batch)
            .map(|chunk| {
                let part = Part::Embed {
                    encoder_url: encoder_url.to_string(),
                    texts: chunk.iter().map(|t| t.to_string()).collect(),
                };
                (part, Vec::new())
            })
            .collect();
        let mut done = 0;
        let on_reply = Box::new(move |t: usize, r: &Reply| {
            if r.is_result() {
                done += sizes[t];
                on_texts(done);
            }
        });
        let mut all = Vec::new();
        let mut width = 0;
        for r in self.run(tasks, on_reply).await? {
            if let Reply::Embedded { dim, values, .. } = r {
                width = dim;
                all.extend(values);
            }
        }
        Ok((all, width))
    }

    /// Trains the groups `splits` (split seeds, or folds when `folds` is set) of every arm × N on
    /// the dataset `bundle` with head features `features`, one task per group;
    /// `on_epoch(group, Some((epoch, train_loss)))` after each epoch and `(group, None)` when a
    /// group is done. Returns the groups in `splits`' order with the epochs each ran.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn train(
        &mut self,
        name: &str,
        (bundle, features): (&[u8], &[u8]),
        folds: Option<u64>,
        splits: &[u64],
        ns: &[u32],
        head: &HeadConfig,
        arms: &[String],
        model_seed: u64,
        mut on_epoch: impl FnMut(usize, Option<(usize, f32)>) + 'static,
    ) -> Result<Vec<(usize, GroupResult)>> {
        let bundle = js_sys::Uint8Array::from(bundle);
        let features = js_sys::Uint8Array::from(features);
        let tasks = splits
            .iter()
            .map(|&split| {
                let part = Part::Train {
                    name: name.to_string(),
                    folds,
                    split,
                    ns: ns.to_vec(),
                    head: head.clone(),
                    arms: arms.to_vec(),
                    model_seed,
                };
                (part, vec![bundle.clone(), features.clone()])
            })
            .collect();
        let on_reply = Box::new(move |t: usize, r: &Reply| match r {
            Reply::Epoch { epoch, train_loss } => on_epoch(t, Some((*epoch, *train_loss))),
            Reply::Trained { .. } => on_epoch(t, None),
            _ => {}
        });
        let mut out = Vec::with_capacity(splits.len());
        for r in self.run(tasks, on_reply).await? {
            if let Reply::Trained { epochs, group, .. } = r {
                out.push((epochs, group));
            }
        }
        Ok(out)
    }
}

impl Pool {
    /// Trains the multilabel groups `groups` ((fold, model seed) of `folds`) of every arm × N on
    /// the multilabel `bundle` with head features `features`, one task per group; `on_epoch` as
    /// for [`Pool::train`]. Returns each group's epochs run and result, in `groups`' order.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn train_ml(
        &mut self,
        (bundle, features): (&[u8], &[u8]),
        folds: u64,
        groups: &[(u64, u64)],
        ns: &[u32],
        head: &HeadConfig,
        arms: &[MlArm],
        mut on_epoch: impl FnMut(usize, Option<(usize, f32)>) + 'static,
    ) -> Result<Vec<(usize, MlFold)>> {
        let bundle = js_sys::Uint8Array::from(bundle);
        let features = js_sys::Uint8Array::from(features);
        let tasks = groups
            .iter()
            .map(|&(fold, model_seed)| {
                let part = Part::TrainMl {
                    fold,
                    folds,
                    model_seed,
                    ns: ns.to_vec(),
                    head: head.clone(),
                    arms: arms.iter().map(|a| a.name().to_string()).collect(),
                };
                (part, vec![bundle.clone(), features.clone()])
            })
            .collect();
        let on_reply = Box::new(move |t: usize, r: &Reply| match r {
            Reply::Epoch { epoch, train_loss } => on_epoch(t, Some((*epoch, *train_loss))),
            Reply::MlTrained { .. } => on_epoch(t, None),
            _ => {}
        });
        let mut out = Vec::with_capacity(groups.len());
        for r in self.run(tasks, on_reply).await? {
            if let Reply::MlTrained { epochs, fold, .. } = r {
                out.push((epochs, fold));
            }
        }
        Ok(out)
    }
}
