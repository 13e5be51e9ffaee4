//! The synthetic job: regenerate the page's synthetic dataset from its settings
//! (`annosat_core::synth`, deterministic), take its generated features as the head features, and
//! train every checked arm over the N grid its votes allow — the control with known truth, in the tab.

use crate::protocol::{OwnSummary, SynthJob, TrainResponse};
use crate::reply::{now_ms, post};
use annosat_core::models::N_GRID;
use annosat_core::synth;
use annosat_heads::{Dataset, HeadFeatures};
use anyhow::{anyhow, Result};

pub async fn run(id: u64, job: SynthJob) -> Result<TrainResponse> {
    let t0 = now_ms();
    let mut pool = crate::pool::Pool::start(job.workers)?;
    let s = synth::generate(&job.config).map_err(|e| anyhow!("synthetic data: {e}"))?;
    let ns: Vec<u32> = N_GRID
        .iter()
        .copied()
        .filter(|&n| n <= job.config.votes)
        .collect();
    let head = HeadFeatures::new(
        s.table.item_ids().to_vec(),
        s.dim,
        &s.features,
        "synthetic".into(),
        job.config.describe(),
    );
    let data = Dataset::new("synthetic".into(), &s.table, head, false)?;
    let mut data = data;
    let trained = crate::design::train(
        &mut pool,
        &mut data,
        &ns,
        &job.head,
        &job.arms,
        job.split_seed,
        job.model_seed,
        move |p| {
            let (f, detail) = p.words(" on synthetic data", true);
            post(&TrainResponse::Stage {
                id,
                stage: "train".into(),
                done: f,
                detail,
                elapsed_ms: now_ms() - t0,
            });
        },
    )
    .await?;
    let summary = OwnSummary {
        classes: s.table.classes().to_vec(),
        items: s.table.num_items(),
        test_items: trained
            .manifest
            .splits
            .iter()
            .map(|s| s.test_items.len())
            .sum(),
        folds: data.folds,
        texts: 0,
        layout: job.config.describe(),
        encoder: "none (generated features)".into(),
        ns,
        notes: Vec::new(),
        download_ms: 0.0,
        embed_ms: 0.0,
        train_ms: now_ms() - t0,
        cached: true,
        workers: pool.size(),
        worker_memory: pool.memory,
    };
    Ok(TrainResponse::OwnTrained {
        id,
        summary,
        manifest: Box::new(trained.manifest),
        epochs_run: trained.epochs_run,
        heads: trained.heads,
    })
}
