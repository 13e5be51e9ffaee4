//! The models room on the user's own upload: embed the items' texts with MiniLM in the tab, train
//! heads over the N grid, and show the same panels as for an export — "how many annotators does a
//! model need on my data", answered without anything leaving the tab.

use super::phase_line::PhaseLine;
use super::{Models, ModelsSt};
use crate::model_jobs::{self as train, ModelJobs, Phase};
use crate::state::St;
use leptos::html;
use leptos::prelude::*;
use std::sync::Arc;

/// Largest upload the model worker cross-validates (`annosat_model_worker`'s design; the page
/// only names it).
const KFOLD_NOTE_ITEMS: usize = 5_000;

#[component]
pub fn OwnCard() -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let ts = expect_context::<ModelJobs>();
    let texts = NodeRef::<html::Input>::new();
    let name = move || st.upload.name.get().unwrap_or_else(|| "your file".into());
    let start = move |()| {
        let file = texts.get().and_then(|i| i.files()).and_then(|f| f.get(0));
        train::start_own(st, ts, ms.visible.get_untracked(), file, None);
    };
    let result = move || {
        ts.own.get().map(|r| {
            let s = &r.summary;
            let source = if s.cached {
                "the encoder from this browser's cache".to_string()
            } else {
                format!("the encoder downloaded in {:.1} s", s.download_ms / 1000.0)
            };
            let design = match s.folds {
                Some(k) => format!(
                    "{k}-fold cross-validation, model seed 0: every item is a test item once ({} items, each against all of its votes), one group of {} heads per fold",
                    s.test_items, r.heads
                ),
                None => format!(
                    "one split (seed 42; more than {} items are not cross-validated in the tab), model seed 0: metrics on {} test items against all of their votes",
                    KFOLD_NOTE_ITEMS, s.test_items
                ),
            };
            let pool = match s.workers {
                0 | 1 => String::new(),
                k => format!(" in {k} model workers"),
            };
            let sentence = format!(
                "{} items ({} distinct texts, {}) embedded with {} in {:.1} s ({source}); heads trained in {:.1} s{pool} for N = {}; {design}{}. \
                 Below, each arm's verdict says whether a metric changes with N at all before any N is named.",
                s.items, s.texts, s.layout, s.encoder, s.embed_ms / 1000.0, s.train_ms / 1000.0,
                s.ns.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
                if s.test_items < 100 { ": with so few test items, expect wide intervals" } else { "" }
            );
            let notes = s.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view();
            let m = {
                let mut m = (*r.manifest).clone();
                m.dataset = name();
                m.features = format!("{}, trained in this tab", s.layout);
                Arc::new(m)
            };
            // What the identity tests compare between pool sizes: the runs as the worker sent them.
            let hash = annosat_core::models::fnv1a_hex(
                serde_json::to_string(&*r.manifest).unwrap_or_default().as_bytes(),
            );
            let bytes = r.embeddings.clone();
            let file = format!("{}.embeddings.safetensors", name().trim_end_matches(".csv"));
            view! {
                <p class="sentence" id="own-summary" data-cached=s.cached.to_string() data-items=s.items.to_string()
                    data-texts=s.texts.to_string() data-embed-ms=s.embed_ms.to_string() data-train-ms=s.train_ms.to_string()
                    data-workers=s.workers.to_string() data-worker-memory=s.worker_memory.to_string() data-manifest=hash>{sentence}</p>
                <ul class="notes" id="own-notes">{notes}</ul>
                <button id="own-download" on:click=move |_| crate::export::download_bytes(&bytes, &file)>"Download the embeddings (safetensors, as annosat embed writes them)"</button>
                <Models m=m path=String::new() own=true />
            }
        })
    };
    view! {
        <section class="card train" id="own">
            <h2>"Models on your data"</h2>
            <p class="hint">
                {move || format!(
                    "Embed the items of {} with all-MiniLM-L6-v2 in this tab (tokenizers + candle; nothing leaves the tab) and train \
                     an MLP head per checked arm and N on the embeddings, over the N grid your votes allow. Texts come from a text \
                     column of your votes file (text, or premise and hypothesis), or from a texts file: items.jsonl, or a CSV \
                     item_id,text. The encoder (45 MB) is downloaded once and kept in the browser's cache.",
                    name()
                )}
            </p>
            <EmbedControls label="texts file (optional) " texts=texts on_start=Callback::new(start) />
            {result}
        </section>
    }
}

/// The own-data cards' controls (single-label and multilabel): the texts-file input, Embed and
/// train, Cancel, and the job's progress line.
#[component]
pub(super) fn EmbedControls(
    label: &'static str,
    texts: NodeRef<html::Input>,
    on_start: Callback<()>,
) -> impl IntoView {
    let ts = expect_context::<ModelJobs>();
    view! {
        <div class="row">
            <label>{label}<input type="file" id="own-texts" accept=".jsonl,.json,.csv,.tsv,.txt" node_ref=texts /></label>
            <button id="own-train" disabled=move || ts.phase.with(Phase::busy) on:click=move |_| on_start.run(())>"Embed and train"</button>
            <button id="own-cancel" disabled=move || !ts.phase.with(Phase::busy) on:click=move |_| train::user_cancel(ts)>"Cancel"</button>
        </div>
        <PhaseLine prefix="own" />
    }
}
