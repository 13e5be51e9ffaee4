//! Models on the synthetic dataset: train every checked arm over the N grid on the data the target
//! side shows (the model worker regenerates it from the same settings and trains on its generated
//! features), and draw the runs like an export's. The control with known truth: with features that
//! carry the true distributions the heads can learn which items are ambiguous; as the feature noise
//! grows they cannot.

use super::phase_line::PhaseLine;
use super::{Models, ModelsSt};
use crate::model_jobs::{self as train, ModelJobs, Phase};
use crate::state::St;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn SynthCard() -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let ts = expect_context::<ModelJobs>();
    let start = move |_| train::start_synth(st, ts, ms.visible.get_untracked());
    let result = move || {
        ts.own.get().map(|r| {
            let s = &r.summary;
            let sentence = format!(
                "Synthetic data ({}): {} heads per group trained in {:.1} s{} for N = {}, {}, model seed 0. \
                 Metrics on {} test items against their votes (all {} of them).",
                s.layout,
                r.heads,
                s.train_ms / 1000.0,
                match s.workers {
                    0 | 1 => String::new(),
                    k => format!(" in {k} model workers"),
                },
                s.ns.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
                match s.folds {
                    Some(k) => format!("{k}-fold: every item tested once"),
                    None => "split seed 42".into(),
                },
                s.test_items,
                s.ns.last().copied().unwrap_or(0)
            );
            let hash = annosat_core::models::fnv1a_hex(
                serde_json::to_string(&*r.manifest).unwrap_or_default().as_bytes(),
            );
            let m = Arc::new((*r.manifest).clone());
            view! {
                <p class="sentence" id="synth-summary" data-workers=s.workers.to_string()
                    data-train-ms=s.train_ms.to_string() data-manifest=hash>{sentence}</p>
                <Models m=m path=String::new() own=true />
            }
        })
    };
    view! {
        <section class="card train" id="synth-train">
            <h2>"Models on the synthetic data"</h2>
            <p class="badge">"Synthetic: generated from known true distributions, not human labels."</p>
            <p class="hint">
                {move || format!(
                    "Train an MLP head per checked arm and N on the {}-d generated features of the data on the target side ({}), \
                     in this tab. With little feature noise the heads can learn each item's ambiguity; compare the curves \
                     as you raise σ in the data card. The committed \
                     exports below show three noise levels trained by annosat sweep.",
                    st.synth.get().dim,
                    st.synth.get().describe()
                )}
            </p>
            <div class="row">
                <button id="synth-train-go" disabled=move || ts.phase.with(Phase::busy) on:click=start>"Train on this synthetic data"</button>
                <button id="synth-cancel" disabled=move || !ts.phase.with(Phase::busy) on:click=move |_| train::user_cancel(ts)>"Cancel"</button>
            </div>
            <PhaseLine prefix="synth" />
            {result}
        </section>
    }
}
