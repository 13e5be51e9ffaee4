//! The own-data job: the encoder's files (from the Cache API when a previous visit stored them, else
//! downloaded with progress and stored), the user's items embedded with MiniLM, and heads trained on
//! the embeddings over the N grid — one progress bar across the three stages.

use crate::pool::Pool;
use crate::protocol::{OwnJob, OwnSummary, TrainResponse, MAX_TEXTS};
use crate::reply::{now_ms, post, post_with_bytes};
use crate::uploads;
use annosat_core::models::N_GRID;
use annosat_encoder::{Bert, Embeddings};
use annosat_heads::{Dataset, HeadFeatures};
use anyhow::{anyhow, bail, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, Response, WorkerGlobalScope};

/// The Cache API store for the encoder's files. Bump the suffix when the shipped files change.
const CACHE: &str = "annosat-encoder-v1";
pub(crate) const ENCODER: &str = "all-MiniLM-L6-v2";
/// Texts per forward pass, as `annosat embed`.
pub(crate) const BATCH: usize = 64;
/// Fewest items a model-side curve is computed on: the test split (10%) then has 3.
pub(crate) const MIN_ITEMS: usize = 30;
/// Shares of the progress bar: download, embed, then train.
pub(crate) const DOWNLOAD: f64 = 0.2;
pub(crate) const EMBED: f64 = 0.6;

fn js(e: JsValue) -> anyhow::Error {
    anyhow!("{}", e.as_string().unwrap_or_else(|| format!("{e:?}")))
}

async fn open_cache(g: &WorkerGlobalScope) -> Option<Cache> {
    // No Cache API outside secure contexts (plain http on another host): download every time.
    let storage = g.caches().ok()?;
    JsFuture::from(storage.open(CACHE))
        .await
        .ok()
        .map(|c| c.unchecked_into())
}

/// A file's bytes, from the cache or downloaded (then cached); `on_bytes(done, total)` reports
/// download progress. Returns whether it came from the cache.
async fn fetch_cached(
    g: &WorkerGlobalScope,
    cache: Option<&Cache>,
    url: &str,
    on_bytes: &mut dyn FnMut(f64, f64),
) -> Result<(Vec<u8>, bool)> {
    if let Some(c) = cache {
        let hit = JsFuture::from(c.match_with_str(url)).await.map_err(js)?;
        if !hit.is_undefined() {
            let resp: Response = hit.unchecked_into();
            let buf = JsFuture::from(resp.array_buffer().map_err(js)?)
                .await
                .map_err(js)?;
            return Ok((js_sys::Uint8Array::new(&buf).to_vec(), true));
        }
    }
    let resp: Response = JsFuture::from(g.fetch_with_str(url))
        .await
        .map_err(|e| anyhow!("cannot fetch {url}: {}", js(e)))?
        .unchecked_into();
    if !resp.ok() {
        bail!(
            "cannot fetch {url}: HTTP {} (this build has no encoder: run scripts/fetch-model.sh --app before building)",
            resp.status()
        );
    }
    let total: f64 = resp
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0);
    let mut bytes = Vec::with_capacity(total as usize);
    let body = resp
        .body()
        .ok_or_else(|| anyhow!("{url}: empty response"))?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(js)?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .map_err(js)?
            .is_truthy();
        if done {
            break;
        }
        let value: js_sys::Uint8Array = js_sys::Reflect::get(&chunk, &"value".into())
            .map_err(js)?
            .unchecked_into();
        bytes.extend(value.to_vec());
        on_bytes(bytes.len() as f64, total);
    }
    if let Some(c) = cache {
        let stored = Response::new_with_opt_u8_array(Some(&mut bytes.clone())).map_err(js)?;
        // A full disk only costs the next visit a download.
        let _ = JsFuture::from(c.put_with_str(url, &stored)).await;
    }
    Ok((bytes, false))
}

fn eta(done: f64, elapsed_ms: f64) -> String {
    eta_as(done, elapsed_ms, "about")
}

/// `bound`: "about", or "at most" where the stage may end early (training stops early).
pub(crate) fn eta_as(done: f64, elapsed_ms: f64, bound: &str) -> String {
    if done <= 0.0 {
        return String::new();
    }
    let left = elapsed_ms / done * (1.0 - done) / 1000.0;
    format!(" · {bound} {left:.0} s left")
}

/// The job's one progress bar: each stage posts where it is, with the time since the job began.
#[derive(Clone, Copy)]
pub(crate) struct Bar {
    pub(crate) id: u64,
    pub(crate) t0: f64,
}

impl Bar {
    pub(crate) fn stage(&self, stage: &str, done: f64, detail: String) {
        post(&TrainResponse::Stage {
            id: self.id,
            stage: stage.into(),
            done,
            detail,
            elapsed_ms: now_ms() - self.t0,
        })
    }
}

/// The first stage of an own-data job: the progress bar, the pool (whose workers load their wasm
/// while the files are read and the encoder fetched) and the upload read by `prepare`
/// (`uploads::prepare` or `uploads::prepare_multilabel`); the votes' bytes are dropped after.
pub(crate) fn open<T>(
    id: u64,
    job: &OwnJob,
    votes: Vec<u8>,
    texts: Option<Vec<u8>>,
    prepare: impl FnOnce(&[u8], &str, Option<(&[u8], &str)>) -> Result<T>,
) -> Result<(Bar, Pool, T)> {
    let bar = Bar { id, t0: now_ms() };
    bar.stage("read", 0.0, "reading your files…".into());
    let pool = Pool::start(job.workers)?;
    let names = job.texts_name.clone().unwrap_or_default();
    let p = prepare(
        &votes,
        &job.votes_name,
        texts.as_deref().map(|b| (b, names.as_str())),
    )?;
    Ok((bar, pool, p))
}

/// Embeds the upload's texts and trains heads over its N grid (or, for the Plan room, runs the
/// budget planner on the embeddings): read and check, download the encoder, embed, train.
pub async fn run(id: u64, job: OwnJob, votes: Vec<u8>, texts: Option<Vec<u8>>) -> Result<()> {
    let (bar, mut pool, p) = open(id, &job, votes, texts, uploads::prepare)?;
    let ns = check(&p)?;
    let unique = p.texts.unique_longest_first();
    let (download_ms, cached) = download_encoder(&job.encoder_url, &bar).await?;
    let te = now_ms();
    let (all, dim) = embed(&mut pool, &job.encoder_url, &unique, bar).await?;
    let embed_ms = now_ms() - te;
    let ids = p.table.item_ids().to_vec();
    let emb = Embeddings::assemble(ids.clone(), &p.texts, &unique, &all, dim, ENCODER.into())?;
    let layout = p.texts.layout.name().to_string();
    let width = p.texts.layout.width(emb.dim);
    let head = HeadFeatures::new(
        ids,
        width,
        &emb.features(),
        ENCODER.into(),
        format!("{layout}, stored as f16"),
    );
    let mut data = Dataset::new(job.votes_name.clone(), &p.table, head, false)?;
    if let Some(cfg) = &job.plan {
        return plan(&data, cfg, &bar);
    }
    let tt = now_ms();
    let trained = train(&mut pool, &mut data, &ns, &job, bar).await?;
    let train_ms = now_ms() - tt;
    let mut notes = p.notes;
    if p.texts.texts.iter().flatten().any(|t| t.len() > 2_000) {
        notes.push(format!(
            "some texts are long: each is cut at {} tokens, as the trainer does",
            annosat_encoder::MAX_TOKENS
        ));
    }
    let test_items: usize = trained
        .manifest
        .splits
        .iter()
        .map(|s| s.test_items.len())
        .sum();
    let summary = OwnSummary {
        classes: p.table.classes().to_vec(),
        items: p.table.num_items(),
        test_items,
        folds: data.folds,
        texts: unique.len(),
        layout,
        encoder: ENCODER.into(),
        ns,
        notes,
        download_ms,
        embed_ms,
        train_ms,
        cached,
        workers: pool.size(),
        worker_memory: pool.memory,
    };
    post_with_bytes(
        &TrainResponse::OwnTrained {
            id,
            summary,
            manifest: Box::new(trained.manifest),
            epochs_run: trained.epochs_run,
            heads: trained.heads,
        },
        &emb.to_bytes()?,
    );
    Ok(())
}

/// What the upload must have before anything is downloaded: at least 2 votes per item, enough
/// items to split, and no more distinct texts than the tab embeds. Returns the N grid.
fn check(p: &uploads::Prepared) -> Result<Vec<u32>> {
    let max_n = (0..p.table.num_items())
        .map(|i| p.table.total(i))
        .min()
        .unwrap_or(0);
    let ns: Vec<u32> = N_GRID.iter().copied().filter(|&n| n <= max_n).collect();
    if ns.len() < 2 {
        bail!(
            "the item with the fewest votes has {max_n}: a model-side curve needs at least 2 votes per item (N = 1, 2, …)"
        );
    }
    if p.table.num_items() < MIN_ITEMS {
        bail!(
            "{} items with text: the model side needs at least {MIN_ITEMS} (80% to train on, 10% to pick the epoch, 10% to test)",
            p.table.num_items()
        );
    }
    let unique = p.texts.unique_longest_first().len();
    if unique > MAX_TEXTS {
        bail!(
            "{unique} distinct texts: more than the {MAX_TEXTS} this tab embeds; use the CLI (annosat embed, annosat sweep)"
        );
    }
    Ok(ns)
}

/// The encoder's files, in this order.
const FILES: [&str; 4] = [
    "config.json",
    "tokenizer.json",
    "modules.json",
    "model.safetensors",
];

/// The encoder's four files, from the Cache API when this browser has them, else downloaded and
/// stored there; `on_bytes(done, total)` reports the weights' download. Returns the files and
/// whether all came cached.
async fn encoder_files(
    url: &str,
    on_bytes: &mut dyn FnMut(f64, f64),
) -> Result<(Vec<Vec<u8>>, bool)> {
    let g: WorkerGlobalScope = js_sys::global().unchecked_into();
    let cache = open_cache(&g).await;
    let base = url.trim_end_matches('/');
    let mut files = Vec::new();
    let mut cached = true;
    for name in FILES {
        let url = format!("{base}/{name}");
        let mut report = |d: f64, t: f64| {
            if name == "model.safetensors" && t > 0.0 {
                on_bytes(d, t)
            }
        };
        let (bytes, hit) = fetch_cached(&g, cache.as_ref(), &url, &mut report).await?;
        cached &= hit;
        files.push(bytes);
    }
    Ok((files, cached))
}

/// Puts the encoder's files in the Cache API (once per browser), with download progress, so each
/// pool worker reads them from there. Returns the time it took and whether all came cached.
pub(crate) async fn download_encoder(url: &str, bar: &Bar) -> Result<(f64, bool)> {
    let td = now_ms();
    let mut report = |d: f64, t: f64| {
        let f = d / t;
        bar.stage(
            "download",
            DOWNLOAD * f,
            format!(
                "downloading the encoder: {:.1} of {:.1} MB{}",
                d / 1e6,
                t / 1e6,
                eta(f, now_ms() - td)
            ),
        );
    };
    let (_, cached) = encoder_files(url, &mut report).await?;
    Ok((now_ms() - td, cached))
}

/// The encoder, its files from the Cache API (a pool worker's load).
pub(crate) async fn load_encoder(url: &str) -> Result<Bert> {
    let (mut files, _) = encoder_files(url, &mut |_, _| {}).await?;
    let weights = files.pop().expect("four files");
    let modules = String::from_utf8_lossy(&files[2]).into_owned();
    Bert::from_bytes(&files[0], &files[1], weights, &modules)
}

/// Every distinct text through the encoder in the pool, `BATCH` at a time (longest first, whole
/// batches per worker), with progress. Returns the embeddings and their width.
pub(crate) async fn embed(
    pool: &mut Pool,
    url: &str,
    unique: &[&str],
    bar: Bar,
) -> Result<(Vec<f32>, usize)> {
    let te = now_ms();
    let total = unique.len();
    let workers = match pool.size().min(total.div_ceil(BATCH)) {
        1 => String::new(),
        k => format!(" in {k} workers"),
    };
    bar.stage(
        "embed",
        DOWNLOAD,
        format!("tokenizing and embedding{workers}: 0 of {total} texts"),
    );
    pool.embed(url, unique, BATCH, move |done| {
        let f = done as f64 / total.max(1) as f64;
        bar.stage(
            "embed",
            DOWNLOAD + EMBED * f,
            format!(
                "tokenizing and embedding{workers}: {done} of {total} texts{}",
                eta(f, now_ms() - te)
            ),
        );
    })
    .await
}

/// The Plan room's budget planner on the embeddings, answered as `Budgeted`.
fn plan(data: &Dataset, cfg: &annosat_core::models::budget::BudgetConfig, bar: &Bar) -> Result<()> {
    let tt = now_ms();
    let report = annosat_heads::budget::plan(data, cfg, &mut |d, n| {
        let f = d as f64 / n.max(1) as f64;
        bar.stage(
            "train",
            DOWNLOAD + EMBED + (1.0 - DOWNLOAD - EMBED) * f,
            format!("{d} of {n} trainings{}", eta_as(f, now_ms() - tt, "about")),
        );
    })?;
    post(&TrainResponse::Budgeted {
        id: bar.id,
        report,
        ms: now_ms() - bar.t0,
    });
    Ok(())
}

/// Heads for the checked arms over the N grid, as the tab trains a whole dataset (`design.rs`),
/// in the pool, with progress per fold and epoch.
async fn train(
    pool: &mut Pool,
    data: &mut Dataset,
    ns: &[u32],
    job: &OwnJob,
    bar: Bar,
) -> Result<crate::design::Trained> {
    let tt = now_ms();
    crate::design::train(
        pool,
        data,
        ns,
        &job.head,
        &job.arms,
        job.split_seed,
        job.model_seed,
        move |p| {
            let (f, words) = p.words("", false);
            bar.stage(
                "train",
                DOWNLOAD + EMBED + (1.0 - DOWNLOAD - EMBED) * f,
                format!("{words}{}", eta_as(f, now_ms() - tt, "at most")),
            );
        },
    )
    .await
}
