//! The own-data job for multilabel votes: the items' texts embedded with MiniLM (the single-label
//! job's encoder, download and pool), then sigmoid heads per arm × N trained k-fold over the pool
//! — one task per (fold, model seed) group — and scored by the code `annosat sweep` runs
//! (`annosat_heads::ml_sweep`), so the tab's export is the CLI's on the same head features.

use crate::encoder_files::DOWNLOAD;
use crate::own::{self, EMBED, MIN_ITEMS};
use crate::pool::Pool;
use crate::protocol::{OwnJob, TrainResponse, MAX_TEXTS};
use crate::reply::{eta_as, Bar};
use crate::reply::{now_ms, post_with_bytes};
use crate::uploads;
use annosat_core::models::N_GRID;
use annosat_core::multilabel::bundle::{self, MlBundle};
use annosat_core::multilabel::MultilabelTable;
use annosat_heads::ml_sweep::{MlCollect, MlDesign, DEFAULT_FOLDS};
use annosat_heads::multilabel::MlArm;
use annosat_heads::HeadFeatures;
use anyhow::{anyhow, bail, Result};

/// Model seeds the tab trains (the CLI's `--model-seeds`; the tab keeps the work to one pass of
/// the folds).
pub const MODEL_SEEDS: u64 = 1;

/// Embeds the upload's texts and trains multilabel heads over its N grid, k-fold; answered with
/// `MlTrained` (the export, and the head features beside it).
pub async fn run(id: u64, job: OwnJob, votes: Vec<u8>, texts: Option<Vec<u8>>) -> Result<()> {
    let (bar, mut pool, p) = own::open(id, &job, votes, texts, uploads::prepare_multilabel)?;
    let design = design(&p.table, &job.arms)?;
    let unique = p.texts.unique_longest_first();
    if unique.len() > MAX_TEXTS {
        bail!(
            "{} distinct texts: more than the {MAX_TEXTS} this tab embeds; use the CLI (annosat sweep)",
            unique.len()
        );
    }
    let ids = p.table.item_ids().to_vec();
    let (_, features, stage) =
        own::embed_stage(&mut pool, &job.encoder_url, ids, &p.texts, bar).await?;
    let tt = now_ms();
    let export = train(&mut pool, &p.table, &design, &job, &features, bar).await?;
    let train_ms = now_ms() - tt;
    let (items, folds) = (p.table.n_items(), Some(design.folds));
    let table = (p.table.labels().to_vec(), items, items, folds);
    let summary = stage.summary(table, design.ns.clone(), p.notes, train_ms, &pool);
    post_with_bytes(
        &TrainResponse::MlTrained {
            id,
            summary,
            export: Box::new(export),
        },
        &features.to_bytes()?,
    );
    Ok(())
}

/// The arms asked for (all when none), the N grid the votes allow, k folds × one model seed —
/// checked before anything is downloaded.
fn design(table: &MultilabelTable, names: &[String]) -> Result<MlDesign> {
    let arms = if names.is_empty() {
        MlArm::ALL.to_vec()
    } else {
        names
            .iter()
            .map(|n| MlArm::parse(n).ok_or_else(|| anyhow!("unknown multilabel arm {n:?}")))
            .collect::<Result<_>>()?
    };
    let ns = MlDesign::ns_for(table, &N_GRID);
    if table.min_votes() < 2 {
        bail!(
            "the item with the fewest ratings has {}: a model-side curve needs at least 2 annotators per item (N = 1, 2, …)",
            table.min_votes()
        );
    }
    if table.n_items() < MIN_ITEMS {
        bail!(
            "{} items with text: the model side needs at least {MIN_ITEMS}",
            table.n_items()
        );
    }
    Ok(MlDesign {
        arms,
        ns,
        folds: DEFAULT_FOLDS,
        seeds: MODEL_SEEDS,
    })
}

/// Every (fold, model seed) group in the pool with progress, then the export.
async fn train(
    pool: &mut Pool,
    table: &MultilabelTable,
    design: &MlDesign,
    job: &OwnJob,
    features: &HeadFeatures,
    bar: Bar,
) -> Result<annosat_core::multilabel::export::MlExport> {
    let tt = now_ms();
    let groups = design.groups();
    let bytes = bundle::encode(&MlBundle {
        name: job.votes_name.clone(),
        table: table.clone(),
    });
    let mut state = crate::design::GroupsProgress::new(groups.len(), pool.size(), job.head.epochs);
    let trained = pool
        .train_ml(
            (&bytes, &features.to_bytes()?),
            design.folds,
            &groups,
            &design.ns,
            &job.head,
            &design.arms,
            move |g, epoch| {
                match epoch {
                    Some((e, loss)) => state.epoch(g, e, loss),
                    None => state.finish(g),
                }
                let (f, words) = state.words(" (sigmoid, per label)", false);
                bar.stage(
                    "train",
                    DOWNLOAD + EMBED + (1.0 - DOWNLOAD - EMBED) * f,
                    format!("{words}{}", eta_as(f, now_ms() - tt, "at most")),
                );
            },
        )
        .await?;
    let mut collect = MlCollect::new(design, table);
    for (&(fold, seed), (_, f)) in groups.iter().zip(&trained) {
        collect.add(fold, seed, f);
    }
    Ok(collect.export(table, &job.votes_name, features, &job.head))
}
