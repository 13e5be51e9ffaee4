//! The own-data job: the encoder's files (`encoder_files`), the user's items embedded with MiniLM,
//! and heads trained on the embeddings over the N grid — one progress bar across the three stages.

use crate::encoder_files::{download_encoder, DOWNLOAD};
use crate::pool::Pool;
use crate::protocol::{OwnJob, OwnSummary, TrainResponse, MAX_TEXTS};
use crate::reply::{eta, eta_as, now_ms, post, post_with_bytes, Bar};
use crate::uploads;
use annosat_core::models::N_GRID;
use annosat_encoder::texts::ItemTexts;
use annosat_encoder::Embeddings;
use annosat_heads::{Dataset, HeadFeatures};
use anyhow::{bail, Result};

pub(crate) const ENCODER: &str = "all-MiniLM-L6-v2";
/// Texts per forward pass, as `annosat embed`.
pub(crate) const BATCH: usize = 64;
/// Fewest items a model-side curve is computed on: the test split (10%) then has 3.
pub(crate) const MIN_ITEMS: usize = 30;
/// Share of the progress bar embedding takes (after `encoder_files::DOWNLOAD`; training the rest).
pub(crate) const EMBED: f64 = 0.6;

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
    let ids = p.table.item_ids().to_vec();
    let (emb, head, stage) = embed_stage(&mut pool, &job.encoder_url, ids, &p.texts, bar).await?;
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
    let table = (
        p.table.classes().to_vec(),
        p.table.num_items(),
        test_items,
        data.folds,
    );
    let summary = stage.summary(table, ns, notes, train_ms, &pool);
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

/// What the embedding stage reports in an own-data job's summary.
pub(crate) struct Embedded {
    texts: usize,
    layout: String,
    download_ms: f64,
    embed_ms: f64,
    cached: bool,
}

impl Embedded {
    /// The job's summary: the table's classes, items, test items and folds, the N grid, the
    /// notes, the training time and the pool's size and largest memory beside this stage's facts.
    pub(crate) fn summary(
        self,
        (classes, items, test_items, folds): (Vec<String>, usize, usize, Option<u64>),
        ns: Vec<u32>,
        notes: Vec<String>,
        train_ms: f64,
        pool: &Pool,
    ) -> OwnSummary {
        OwnSummary {
            classes,
            items,
            test_items,
            folds,
            texts: self.texts,
            layout: self.layout,
            encoder: ENCODER.into(),
            ns,
            notes,
            download_ms: self.download_ms,
            embed_ms: self.embed_ms,
            train_ms,
            cached: self.cached,
            workers: pool.size(),
            worker_memory: pool.memory,
        }
    }
}

/// Both own-data jobs' embedding stage: the encoder's files (`url`), every distinct text of the
/// items `ids` embedded over the pool, and the head features built from them (the layout's width,
/// stored as f16, as `annosat features`).
pub(crate) async fn embed_stage(
    pool: &mut Pool,
    url: &str,
    ids: Vec<String>,
    texts: &ItemTexts,
    bar: Bar,
) -> Result<(Embeddings, HeadFeatures, Embedded)> {
    let unique = texts.unique_longest_first();
    let (download_ms, cached) = download_encoder(url, &bar).await?;
    let te = now_ms();
    let (all, dim) = embed(pool, url, &unique, bar).await?;
    let embed_ms = now_ms() - te;
    let emb = Embeddings::assemble(ids.clone(), texts, &unique, &all, dim, ENCODER.into())?;
    let layout = texts.layout.name().to_string();
    let head = HeadFeatures::new(
        ids,
        texts.layout.width(emb.dim),
        &emb.features(),
        ENCODER.into(),
        format!("{layout}, stored as f16"),
    );
    let stage = Embedded {
        texts: unique.len(),
        layout,
        download_ms,
        embed_ms,
        cached,
    };
    Ok((emb, head, stage))
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
