//! The page shell: title and explanation, the room tabs, the side panel (src/side.rs) and the
//! room shown (src/rooms/: target side, models, reproduction, plan).

use crate::rooms::models::{ModelsRoom, ModelsSt};
use crate::rooms::plan::PlanRoom;
use crate::rooms::repro::ReproRoom;
use crate::rooms::sources::SourcesRoom;
use crate::rooms::target_side::TargetRoom;
use crate::side::{Controls, DataCard};
use crate::state::{Room, St, Status, SYNTHETIC};
use crate::{bridge, data, url};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let st = St::new();
    provide_context(st);
    provide_context(ModelsSt::new());
    provide_context(crate::model_jobs::ModelJobs::new());
    provide_context(data::Exports::new());
    let wanted = url::read(&st);
    if let Err(e) = bridge::init(move |a| st.on_answer(a)) {
        st.status
            .set(Status::Failed(format!("cannot start the worker: {e:?}")));
    }
    leptos::task::spawn_local(async move {
        match data::fetch_index().await {
            Ok(index) => {
                let name = wanted
                    .filter(|w| w == SYNTHETIC || index.iter().any(|e| &e.name == w))
                    .unwrap_or_else(|| crate::state::DEFAULT_DATASET.to_string());
                st.index.set(index);
                st.dataset.set(name.clone());
                if name == SYNTHETIC {
                    data::open_synthetic(st);
                } else {
                    data::open_bundled(st, name);
                }
            }
            Err(e) => st.status.set(Status::Failed(e)),
        }
    });
    url::sync(st);
    view! {
        <header>
            <h1>"annosat"</h1>
            <p class="tagline">"How many annotators per item does your metric need?"</p>
        </header>
        <p class="lede">
            "Each item's votes are subsampled to N annotators and the resulting label distribution p_N is "
            "compared with the one from all votes. A metric has " <em>"saturated"</em> " once more annotators "
            "stop changing it, and metrics saturate at very different N: on ChaosNLI, models trained on soft "
            "labels match the human distribution in KL by about N=10 but need N of 20–50 to rank items by "
            "ambiguity (Kohli 2026, " <a href="https://arxiv.org/abs/2605.29797">"arXiv 2605.29797"</a> "). "
            "Target side: how far the labels themselves are from their full-vote value. Models: what models "
            "trained on N-vote labels learn, per training arm. Reproduction: published numbers beside ours. Plan: the curves beyond the votes your data have. Sources: what another source of votes (LLM judges, an expert, a second crowd) is worth in annotators."
        </p>
        <nav class="tabs" role="tablist">
            {Room::ALL.map(|r| view! {
                <button role="tab" class="tab" id=format!("tab-{}", r.key()) class:active=move || st.room.get() == r
                    aria-selected=move || (st.room.get() == r).to_string() on:click=move |_| st.room.set(r)>{r.title()}</button>
            }).to_vec()}
        </nav>
        <div class="layout">
            <aside class="side">
                // The data first: at 1280 × 800 the first screen shows how to bring one's own file.
                <DataCard />
                <Controls />
            </aside>
            <main class="main">
                {move || st.upload.error.get().map(|e| view! {
                    <p class="error banner" id="upload-error-banner" role="alert">
                        "Your file was not loaded: " <bdi>{e}</bdi>
                        <button class="link" on:click=move |_| st.upload.error.set(None)>"dismiss"</button>
                    </p>
                })}
                <div class="room" class:hidden=move || st.room.get() != Room::Target>
                    <TargetRoom />
                </div>
                {move || (st.room.get() == Room::Models).then(|| view! { <ModelsRoom /> })}
                {move || (st.room.get() == Room::Repro).then(|| view! { <ReproRoom /> })}
                {move || (st.room.get() == Room::Plan).then(|| view! { <PlanRoom /> })}
                {move || (st.room.get() == Room::Sources).then(|| view! { <SourcesRoom /> })}
            </main>
        </div>
    }
}
