//! The Models room on the user's multilabel upload: embed the items' texts with MiniLM in the tab,
//! train sigmoid heads per arm × N k-fold as `annosat sweep` does, and draw the result as the
//! bundled multilabel export is drawn — with both files to download, so the CLI can retrain the
//! same heads (`annosat sweep --head-features`) and check the tab's numbers.

use super::multilabel::MlExportView;
use super::own::EmbedControls;
use crate::model_jobs::{self as train, ModelJobs};
use crate::state::St;
use leptos::html;
use leptos::prelude::*;

#[component]
pub fn MlOwnCard() -> impl IntoView {
    let st = expect_context::<St>();
    let ts = expect_context::<ModelJobs>();
    let texts = NodeRef::<html::Input>::new();
    let name = move || st.upload.name.get().unwrap_or_else(|| "your file".into());
    let start = move |()| {
        let file = texts.get().and_then(|i| i.files()).and_then(|f| f.get(0));
        train::start_ml_own(st, ts, file);
    };
    let result = move || {
        ts.ml.get().map(|r| {
            let s = &r.summary;
            let source = if s.cached {
                "the encoder from this browser's cache".to_string()
            } else {
                format!("the encoder downloaded in {:.1} s", s.download_ms / 1000.0)
            };
            let pool = match s.workers {
                0 | 1 => String::new(),
                k => format!(" in {k} model workers"),
            };
            let sentence = format!(
                "{} items ({} distinct texts, {} labels) embedded with {} in {:.1} s ({source}); heads trained in {:.1} s{pool} for N = {}, \
                 {}-fold cross-validation with one model seed: every item is a test item once, against its full label shares{}.",
                s.items, s.texts, s.classes.len(), s.encoder, s.embed_ms / 1000.0, s.train_ms / 1000.0,
                s.ns.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
                s.folds.unwrap_or(0),
                if s.items < 100 { "; with so few items, expect wide intervals" } else { "" }
            );
            let notes = s.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view();
            let json = r.export.to_json();
            // What the identity tests compare between pool sizes and with the CLI.
            let hash = annosat_core::models::fnv1a_hex(json.as_bytes());
            let stem = name().trim_end_matches(".csv").to_string();
            let (features, fstem) = (r.features.clone(), stem.clone());
            let save_export = move |_| {
                crate::export::download_text(&json, "application/json", &format!("{stem}.multilabel.json"))
            };
            let save_features = move |_| {
                crate::export::download_bytes(&features, &format!("{fstem}.features.safetensors"))
            };
            view! {
                <p class="sentence" id="own-summary" data-cached=s.cached.to_string() data-items=s.items.to_string()
                    data-workers=s.workers.to_string() data-worker-memory=s.worker_memory.to_string() data-export=hash>{sentence}</p>
                <ul class="notes" id="own-notes">{notes}</ul>
                <div class="row">
                    <button id="ml-download-export" on:click=save_export>"Download the export (multilabel.json)"</button>
                    <button id="ml-download-features" on:click=save_features>"Download its head features (features.safetensors)"</button>
                </div>
                <MlExportView e=r.export.clone() />
            }
        })
    };
    view! {
        <section class="card train" id="own">
            <h2>"Multilabel models on your data"</h2>
            <p class="hint">
                {move || format!(
                    "Embed the items of {} with all-MiniLM-L6-v2 in this tab (nothing leaves the tab) and train a sigmoid head per \
                     label for each arm (soft, hard, smoothed, multipass) and N your votes allow, 5-fold, as annosat sweep does. \
                     Texts come from a text column of your votes file, or from a texts file: items.jsonl, or a CSV item_id,text. \
                     The encoder (45 MB) is downloaded once and kept in the browser's cache.",
                    name()
                )}
            </p>
            <EmbedControls label="texts file " texts=texts on_start=Callback::new(start) />
            {result}
        </section>
    }
}
