//! The pool worker's side: a task from the coordinator (`[TAG, part, bytes…]`) run to its end,
//! with progress and the result posted back as postcard bytes.

use super::messages::{encode, Part, Reply};
use super::TAG;
use crate::reply::now_ms;
use annosat_core::models::HeadConfig;
use annosat_heads::multilabel::MlArm;
use anyhow::{anyhow, Result};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// The encoder a pool worker loaded (and from where), kept for its next batches.
    static ENCODER: RefCell<Option<(String, Rc<annosat_encoder::Bert>)>> = const { RefCell::new(None) };
}

fn reply(r: &Reply) {
    let msg = js_sys::Array::of2(&JsValue::from_str(TAG), &encode(r));
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let _ = scope.post_message(&msg);
}

fn memory() -> usize {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .ok()
        .and_then(|m| m.buffer().dyn_into::<js_sys::ArrayBuffer>().ok())
        .map(|b| b.byte_length() as usize)
        .unwrap_or(0)
}

/// A task sent to this worker (`[TAG, part, bytes…]`): done, progress and result posted back.
pub(crate) fn serve(data: js_sys::Array) {
    let bytes = |i: u32| {
        data.get(i)
            .dyn_into::<js_sys::Uint8Array>()
            .map(|b| b.to_vec())
            .unwrap_or_default()
    };
    let part = match postcard::from_bytes::<Part>(&bytes(1)) {
        Ok(p) => p,
        Err(e) => return reply(&Reply::Failed(format!("bad task: {e}"))),
    };
    match part {
        Part::Embed { encoder_url, texts } => wasm_bindgen_futures::spawn_local(async move {
            let r = embed_batch(&encoder_url, texts).await;
            reply(&r.unwrap_or_else(|e| Reply::Failed(format!("{e:#}"))));
        }),
        Part::Train {
            name,
            folds,
            split,
            ns,
            head,
            arms,
            model_seed,
        } => {
            let r = train_group(
                name,
                (&bytes(2), &bytes(3)),
                folds,
                split,
                &ns,
                &head,
                &arms,
                model_seed,
            );
            reply(&r.unwrap_or_else(|e| Reply::Failed(format!("{e:#}"))));
        }
        Part::TrainMl {
            fold,
            folds,
            model_seed,
            ns,
            head,
            arms,
        } => {
            let r = train_ml_group(
                (&bytes(2), &bytes(3)),
                (fold, folds),
                model_seed,
                &ns,
                &head,
                &arms,
            );
            reply(&r.unwrap_or_else(|e| Reply::Failed(format!("{e:#}"))));
        }
    }
}

async fn embed_batch(url: &str, texts: Vec<String>) -> Result<Reply> {
    let kept = ENCODER.with(|e| {
        e.borrow()
            .as_ref()
            .filter(|(u, _)| u == url)
            .map(|(_, b)| b.clone())
    });
    let bert = match kept {
        Some(b) => b,
        None => {
            let b = Rc::new(crate::encoder_files::load_encoder(url).await?);
            ENCODER.with(|e| *e.borrow_mut() = Some((url.to_string(), b.clone())));
            b
        }
    };
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let values = bert.embed(&refs)?;
    Ok(Reply::Embedded {
        dim: bert.dim,
        values,
        memory: memory(),
    })
}

#[allow(clippy::too_many_arguments)]
fn train_group(
    name: String,
    (bundle, features): (&[u8], &[u8]),
    folds: Option<u64>,
    split: u64,
    ns: &[u32],
    head: &HeadConfig,
    names: &[String],
    model_seed: u64,
) -> Result<Reply> {
    let table = annosat_core::bundle::decode(bundle)
        .map_err(|e| anyhow!("the dataset: {e}"))?
        .table;
    let features = annosat_heads::HeadFeatures::from_bytes(features)?;
    let mut data = annosat_heads::Dataset::new(name, &table, features, false)?;
    data.folds = folds;
    let arms = crate::reply::arms_for(names)?;
    let mut epochs = 0;
    let mut group = annosat_heads::train_group(
        &data,
        ns,
        head,
        &arms,
        split,
        model_seed,
        report_epochs(&mut epochs),
    )?;
    group.runs.retain(|run| names.contains(&run.arm));
    Ok(Reply::Trained {
        epochs,
        group,
        memory: memory(),
    })
}

/// One multilabel group, as `annosat sweep` trains it ([`annosat_heads::multilabel::train_fold`]).
fn train_ml_group(
    (bundle, features): (&[u8], &[u8]),
    (fold, folds): (u64, u64),
    model_seed: u64,
    ns: &[u32],
    head: &HeadConfig,
    names: &[String],
) -> Result<Reply> {
    let table = annosat_core::multilabel::bundle::decode(bundle)
        .map_err(|e| anyhow!("the dataset: {e}"))?
        .table;
    let features = annosat_heads::HeadFeatures::from_bytes(features)?;
    let arms = names
        .iter()
        .map(|n| MlArm::parse(n).ok_or_else(|| anyhow!("unknown multilabel arm {n:?}")))
        .collect::<Result<Vec<_>>>()?;
    let heads = annosat_heads::multilabel::heads(&arms, ns);
    let mut epochs = 0;
    let fold = annosat_heads::multilabel::train_fold(
        &table,
        &features.values,
        features.width,
        &heads,
        fold,
        folds,
        model_seed,
        head,
        report_epochs(&mut epochs),
    )?;
    Ok(Reply::MlTrained {
        epochs,
        fold,
        memory: memory(),
    })
}

/// A group's epoch callback: counts the epochs run into `epochs` and posts a few progress messages
/// a second at most.
fn report_epochs(epochs: &mut usize) -> impl FnMut(annosat_heads::mlp::EpochReport) + '_ {
    let mut last = now_ms();
    move |e| {
        *epochs = e.epoch + 1;
        if now_ms() - last > 100.0 {
            last = now_ms();
            reply(&Reply::Epoch {
                epoch: e.epoch,
                train_loss: e.train_loss,
            });
        }
    }
}
