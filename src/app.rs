//! The page: title and explanation, dataset picker and upload, controls (N, x%, held-out, seed,
//! log x), the saturation summary, readouts, four metric panels and the per-item view.

use crate::chart::{self, CurveChart};
use crate::items_view::ItemsView;
use crate::models::{repro::ReproRoom, ModelsRoom, ModelsSt};
use crate::state::{Room, St, Status, SYNTHETIC, UPLOADED};
use crate::upload::Upload;
use crate::{bridge, data, export, url};
use annosat_core::curves::{Curves, Metric};
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let st = St::new();
    provide_context(st);
    provide_context(ModelsSt::new());
    provide_context(crate::models::train::TrainSt::new());
    let wanted = url::read(&st);
    if let Err(e) = bridge::init(move |r| st.on_response(r)) {
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
            "trained on N-vote labels learn, per training arm. Reproduction: published numbers beside ours."
        </p>
        <nav class="tabs" role="tablist">
            {Room::ALL.map(|r| view! {
                <button role="tab" class="tab" id=format!("tab-{}", r.key()) class:active=move || st.room.get() == r
                    aria-selected=move || (st.room.get() == r).to_string() on:click=move |_| st.room.set(r)>{r.title()}</button>
            }).to_vec()}
        </nav>
        <div class="layout">
            <aside class="side">
                <Controls />
                <DataCard />
            </aside>
            <main class="main">
                {move || st.upload_error.get().map(|e| view! {
                    <p class="error banner" id="upload-error-banner" role="alert">
                        {format!("Your file was not loaded: {e}")}
                        <button class="link" on:click=move |_| st.upload_error.set(None)>"dismiss"</button>
                    </p>
                })}
                <div class="room" class:hidden=move || st.room.get() != Room::Target>
                    <StatusLine />
                    <SummaryCard />
                    <Readouts />
                    <section class="charts">
                        <CurveChart metric=Metric::Kl />
                        <CurveChart metric=Metric::EntropyCorr />
                        <CurveChart metric=Metric::Jsd />
                        <CurveChart metric=Metric::MajorityAgreement />
                    </section>
                    <ItemsView />
                </div>
                {move || (st.room.get() == Room::Models).then(|| view! { <ModelsRoom /> })}
                {move || (st.room.get() == Room::Repro).then(|| view! { <ReproRoom /> })}
            </main>
        </div>
    }
}

#[component]
fn DataCard() -> impl IntoView {
    let st = expect_context::<St>();
    let on_pick = move |ev| {
        let name = event_target_value(&ev);
        if name == SYNTHETIC {
            st.dataset.set(name);
            data::open_synthetic(st);
        } else if name != UPLOADED {
            st.dataset.set(name.clone());
            data::open_bundled(st, name);
        }
    };
    let options = move || {
        let mut v: Vec<_> = st
            .index
            .get()
            .into_iter()
            .map(|e| {
                let label = format!(
                    "{} ({} items, {} votes/item)",
                    e.name, e.summary.items, e.summary.votes_median
                );
                let sel = e.name == st.dataset.get();
                view! { <option value=e.name.clone() selected=sel>{label}</option> }
            })
            .collect::<Vec<_>>();
        v.push(view! { <option value=SYNTHETIC.to_string() selected=st.dataset.get() == SYNTHETIC>{"synthetic (generated here, known truth)".to_string()}</option> });
        if let Some(name) = st
            .upload_name
            .get()
            .filter(|_| st.dataset.get() == UPLOADED)
        {
            v.push(view! { <option value=UPLOADED.to_string() selected=true>{format!("uploaded: {name}")}</option> });
        }
        v
    };
    let about = move || {
        let s = st.summary.get()?;
        let entry = st.entry(&st.dataset.get());
        Some(view! {
            <dl class="stats" id="stats">
                <dt>"items"</dt><dd>{s.items}</dd>
                <dt>"classes"</dt><dd>{s.classes.join(", ")}</dd>
                <dt>"votes per item"</dt><dd>{format!("{} / {} / {} (min / median / max)", s.votes_min, s.votes_median, s.votes_max)}</dd>
                <dt>"mean entropy"</dt><dd>{format!("{:.3} bits", s.mean_entropy_bits)}</dd>
                <dt>"annotators"</dt><dd>{match s.annotators {
                    Some(a) => format!("{a} known by id (held-out splits whole annotators)"),
                    None => "no ids (held-out splits each item's votes)".to_string(),
                }}</dd>
                <dt>"source"</dt><dd>{entry.as_ref().map(|e| e.source.clone()).unwrap_or_else(|| if st.dataset.get() == SYNTHETIC {
                    format!("generated in this tab — {}", st.synth.get().describe())
                } else {
                    "your file (stays in this tab)".into()
                })}</dd>
                <dt>"license"</dt>
                {
                    let license = entry.map(|e| e.license).unwrap_or_else(|| if st.dataset.get() == SYNTHETIC { "generated data, no license needed".into() } else { "yours".into() });
                    let short: String = if license.chars().count() > 110 { license.chars().take(110).chain("…".chars()).collect() } else { license.clone() };
                    view! { <dd title=license>{short}</dd> }
                }
            </dl>
        })
    };
    view! {
        <section class="card data">
            <label for="dataset">"Dataset"</label>
            <select id="dataset" on:change=on_pick>{options}</select>
            {move || (st.dataset.get() == SYNTHETIC).then(|| view! { <crate::synth_view::SynthControls /> })}
            {about}
            {move || st.notes.get().into_iter().map(|n| view! { <p class="note">{n}</p> }).collect_view()}
            <Upload />
        </section>
    }
}

#[component]
fn Controls() -> impl IntoView {
    let st = expect_context::<St>();
    let max_n = move || {
        st.curves
            .with(|c| c.as_ref().and_then(|c| c.grid.last().copied()))
            .unwrap_or(1)
    };
    let set_n = move |v: String| {
        if let Ok(v) = v.trim().parse::<u32>() {
            st.n.set(v.clamp(1, max_n()));
            st.request_items();
        }
    };
    let recompute = move || {
        if st.summary.get_untracked().is_some() {
            st.compute();
        }
    };
    let export_csv = move |_| {
        if let Some(c) = st.curves.get_untracked() {
            export::download_text(
                &c.to_csv(),
                "text/csv",
                &format!("annosat-{}-curves.csv", st.dataset.get_untracked()),
            );
        }
    };
    view! {
        <section class="card controls">
            <label for="n-slider">"Annotators per item, N = " <output id="n-value">{move || st.n.get()}</output></label>
            <div class="row">
                // The value also tracks max: the browser clamps a range input's value to its max, so
                // it must be set again once the curves (and the real max) arrive.
                <input id="n-slider" type="range" min="1" max=move || max_n().to_string() step="1"
                    prop:value=move || { max_n(); st.n.get().to_string() } on:input=move |ev| set_n(event_target_value(&ev)) />
                <input id="n-number" type="number" min="1" max=move || max_n().to_string()
                    prop:value=move || st.n.get().to_string() on:change=move |ev| set_n(event_target_value(&ev)) />
            </div>
            <label for="x-pct">"Saturation at "
                <input id="x-pct" type="number" min="50" max="99" prop:value=move || st.x.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u32>() { st.x.set(v.clamp(50, 99)) } } />
                "% of the N=1 → N=max improvement"
            </label>
            <label class="check"><input id="heldout" type="checkbox" prop:checked=move || st.heldout.get()
                on:change=move |ev| { st.heldout.set(event_target_checked(&ev)); recompute(); } />
                " Held-out annotators: compare with a disjoint 20% of annotators"</label>
            <label class="check"><input id="logx" type="checkbox" prop:checked=move || st.logx.get()
                on:change=move |ev| st.logx.set(event_target_checked(&ev)) />" Log-scale N axis"</label>
            <label for="seed">"Seed "
                <input id="seed" type="number" min="0" prop:value=move || st.seed.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u64>() { st.seed.set(v); recompute(); } } />
            </label>
            <button id="export-csv" on:click=export_csv>"Export curves (CSV)"</button>
        </section>
    }
}

#[component]
fn StatusLine() -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        match st.status.get() {
        Status::Idle => {
            let items = st.curves.with(|c| c.as_ref().map(|c| c.items.first().copied().unwrap_or(0))).unwrap_or(0);
            {
                let workers = crate::bridge::size();
                let text = format!(
                    "{}{items} items, 50 repeats per N, seed {}; computed in {:.0} ms in {workers} worker{}.",
                    if st.dataset.get() == SYNTHETIC { "Synthetic data (generated here, not human labels): " } else { "" },
                    st.seed.get(),
                    st.compute_ms.get(),
                    if workers == 1 { "" } else { "s" }
                );
                view! { <p class="status" id="status" data-state="idle">{text}</p> }.into_any()
            }
        }
        Status::Busy { stage, done } => view! {
            <p class="status" id="status" data-state="busy">{format!("{stage}… {:.0}%", done * 100.0)}
                <progress max="1" value=done></progress></p>
        }.into_any(),
        Status::Failed(e) => view! { <p class="error" id="status" data-state="error" role="alert">{e}</p> }.into_any(),
    }
    }
}

fn sentence(c: &Curves, x: f64) -> String {
    let pct = (x * 100.0).round();
    match (c.saturation(Metric::Kl, x).n, c.saturation(Metric::EntropyCorr, x).n) {
        (Some(a), Some(b)) => format!(
            "For distribution match (KL), {a} annotators per item capture {pct}% of the improvement; to rank items by ambiguity (entropy correlation) you need about {b}."
        ),
        (Some(a), None) => format!("For distribution match (KL), {a} annotators per item capture {pct}% of the improvement."),
        _ => "Not enough annotators per item to tell where the curves saturate.".into(),
    }
}

#[component]
fn SummaryCard() -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        let c = st.curves.get()?;
        let x = st.x.get() as f64 / 100.0;
        let rows = Metric::ALL
            .into_iter()
            .map(|m| {
                let s = c.saturation(m, x);
                let text = match (s.n, s.lo, s.hi) {
                    (Some(n), Some(lo), Some(hi)) => format!(
                        "{}% of the improvement by N = {n} (95% interval {lo}–{hi})",
                        st.x.get()
                    ),
                    (Some(n), _, _) => format!("{}% of the improvement by N = {n}", st.x.get()),
                    _ => "does not saturate within the data".into(),
                };
                view! { <li data-metric=m.name()><code>{m.name()}</code>": " {text}</li> }
            })
            .collect_view();
        Some(view! {
            <section class="card summary">
                <p class="sentence" id="sentence">{sentence(&c, x)}</p>
                <ul id="saturation">{rows}</ul>
            </section>
        })
    }
}

fn fmt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}"))
        .unwrap_or_else(|| "undefined".into())
}

#[component]
fn Readouts() -> impl IntoView {
    let st = expect_context::<St>();
    let one = move |m: Metric| {
        let point = move || {
            st.curves
                .with(|c| c.as_ref().and_then(|c| c.point(m, st.n.get())))
        };
        let raw = move || {
            point()
                .and_then(|p| p.mean)
                .map(|v| v.to_string())
                .unwrap_or_default()
        };
        let ci = move || match point() {
            Some(p) if p.lo.is_some() => {
                format!("95% of repeats in [{}, {}]", fmt(p.lo), fmt(p.hi))
            }
            _ => "undefined: every subsampled entropy is 0 at N = 1".to_string(),
        };
        view! {
            <button class="readout" class:selected=move || st.metric.get() == m data-metric=m.name() data-value=raw
                on:click=move |_| st.metric.set(m) title=chart::title(m)>
                <span class="metric">{m.name()}</span>
                <span class="value">{move || fmt(point().and_then(|p| p.mean))}</span>
                <span class="ci">{ci}</span>
            </button>
        }
    };
    view! { <section class="readouts">{Metric::ALL.map(one).to_vec()}</section> }
}
