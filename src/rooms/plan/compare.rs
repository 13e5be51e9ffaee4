//! The Plan room's "Compare two models" tool: two arms of the dataset's export or two uploaded
//! prediction files, `annosat compare`'s computation in the first curve worker (progress, Stop),
//! the sentences per metric, the heat map of power over items × votes per item with the fixed
//! budgets and the recommended split, and the CLI's CSV (docs/compare.md).

use crate::chart::figure;
use crate::chart::heat::{draw, H, W};
use crate::compare_jobs::Compared;
use crate::room_jobs::{computed, status_line, JobStatus, Words};
use crate::state::St;
use annosat_core::models::{arm_description, Manifest};
use annosat_core::power::{predictions, words, PowerMetric, Predictions};
use leptos::html;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The arms an export may have, in the order the selects offer them.
const ARMS: [&str; 15] = [
    "hard",
    "soft",
    "ls0.05",
    "ls0.1",
    "ls0.2",
    "ls0.3",
    "ls0.5",
    "dirichlet",
    "sls",
    "multipass",
    "deterministic",
    "shuffled_sls",
    "temp_hard",
    "constant",
    "knn",
];

/// The manifest path of the dataset's export (all votes as the reference), if it has one.
fn export_path(st: St) -> Option<String> {
    let exports = use_context::<crate::data::Exports>()?;
    let ds = st.dataset.get_untracked();
    exports.list.with_untracked(|e| match e {
        Some(Ok(list)) => crate::data::pick_export(list, &ds, false).map(|e| e.path),
        _ => None,
    })
}

/// Reads the two models (the files, or the arms from the dataset's export) and sends the job.
fn start(st: St) {
    let c = st.compare;
    let seed = st.seed.get_untracked();
    let scale = st.scale();
    if c.from_files.get_untracked() {
        let (a, b) = c.files.get_untracked();
        let (Some(a), Some(b)) = (a, b) else {
            c.job.set(JobStatus::Failed(
                "give two prediction files, one for model A and one for model B".into(),
            ));
            return;
        };
        let read = |(name, text): &(String, String)| predictions::parse(name, text.as_bytes());
        match (read(&a), read(&b)) {
            (Ok(pa), Ok(pb)) => c.send((pa, pb), (a.0, b.0), seed, scale),
            (Err(e), _) | (_, Err(e)) => c.job.set(JobStatus::Failed(e)),
        }
        return;
    }
    let Some(path) = export_path(st) else {
        c.job.set(JobStatus::Failed(format!(
            "{} has no bundled model export: upload two prediction files instead",
            st.dataset.get_untracked()
        )));
        return;
    };
    let (arm_a, arm_b) = c.arms.get_untracked();
    let n = c.arms_n.get_untracked();
    c.job.set(JobStatus::Preparing);
    leptos::task::spawn_local(async move {
        match arms_of(&path, (&arm_a, &arm_b), n).await {
            Ok(p) => {
                let at = |a: &str| n.map_or(a.to_string(), |n| format!("{a} at N = {n}"));
                c.send(p, (at(&arm_a), at(&arm_b)), seed, scale)
            }
            Err(e) => c.job.set(JobStatus::Failed(e)),
        }
    });
}

/// The two arms' predictions, trained at `n` (default: each arm's largest), from the export whose
/// manifest is at `path` (under models/).
async fn arms_of(
    path: &str,
    (a, b): (&str, &str),
    n: Option<u32>,
) -> Result<(Predictions, Predictions), String> {
    let m = crate::data::fetch_bytes(&format!("models/{path}"))
        .await
        .and_then(|b| Manifest::parse(&String::from_utf8_lossy(&b)))?;
    let folder = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let bytes = crate::data::fetch_bytes(&format!("models/{folder}predictions.bin")).await?;
    let pred: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    Ok((
        predictions::of_export(&m, &pred, a, n)?,
        predictions::of_export(&m, &pred, b, n)?,
    ))
}

#[component]
pub fn CompareCard() -> impl IntoView {
    let st = expect_context::<St>();
    if let Some(e) = use_context::<crate::data::Exports>() {
        e.ensure();
    }
    let c = st.compare;
    // A comparison the Models room asked for starts once the data and the exports are here.
    Effect::new(move |_| {
        let ready = st.summary.with(Option::is_some)
            && use_context::<crate::data::Exports>()
                .is_some_and(|e| e.list.with(|l| matches!(l, Some(Ok(_)))));
        if c.requested.get() && ready {
            c.requested.set(false);
            start(st);
        }
    });
    let busy = move || {
        matches!(
            c.job.status.get(),
            JobStatus::Busy { .. } | JobStatus::Preparing
        )
    };
    let has_export = move || {
        st.dataset.track();
        if let Some(e) = use_context::<crate::data::Exports>() {
            e.list.track();
        }
        export_path(st).is_some()
    };
    let arm_select = move |id: &'static str, second: bool| {
        let options = ARMS
            .iter()
            .map(|&a| {
                let sel = move || {
                    let (x, y) = c.arms.get();
                    (if second { y } else { x }) == a
                };
                view! { <option value=a selected=sel title=arm_description(a)>{a}</option> }
            })
            .collect_view();
        view! {
            <select id=id on:change=move |ev| {
                let v = event_target_value(&ev);
                c.arms.update(|p| if second { p.1 = v } else { p.0 = v });
                c.arms_n.set(None);
            }>{options}</select>
        }
    };
    let file_input = move |id: &'static str, second: bool| {
        view! {
            <input type="file" id=id accept=".csv,.jsonl,.txt" on:change=move |ev| {
                let input: web_sys::HtmlInputElement = ev.target().expect("target").unchecked_into();
                let Some(f) = input.files().and_then(|l| l.get(0)) else { return };
                let name = f.name();
                leptos::task::spawn_local(async move {
                    let text = wasm_bindgen_futures::JsFuture::from(f.text()).await;
                    let text = text.ok().and_then(|t| t.as_string()).unwrap_or_default();
                    c.files.update(|p| {
                        let v = Some((name, text));
                        if second { p.1 = v } else { p.0 = v }
                    });
                });
            } />
        }
    };
    let words = Words {
        id: "compare-status",
        doing: "simulating evaluations…",
        preparing: "reading the models' predictions…",
        stopped: "Stopped; nothing new was compared.",
        failed: "The models were not compared: ",
    };
    let status = move || {
        let idle = c.result.get().map(|r| {
            computed(
                r.ms,
                &format!(
                    "{} cells × {} simulated evaluations, seed {}",
                    r.report.config.items.len() * r.report.config.n.len(),
                    r.report.config.resamples,
                    r.report.config.seed
                ),
            )
        });
        status_line(c.job.status.get(), &words, idle, move || st.stop_job(c.job))
    };
    view! {
        <section class="card plan-tool" id="compare-models">
            <h2>"Compare two models"</h2>
            <p>"Can an evaluation with I items and N votes per item tell model B from model A? Each model is scored per item against the N-vote distribution, as an evaluation with N annotators would score it; evaluations are simulated from this file's items and votes (past an item's votes, from the extrapolation), and a paired bootstrap test counts how often B − A is significant in the direction it has with all the votes. As "
                <code>"annosat compare"</code>" with its defaults (docs/compare.md)."</p>
            <div class="row">
                <label><input type="radio" name="compare-source" id="compare-from-arms"
                    prop:checked=move || !c.from_files.get() prop:disabled=move || !has_export()
                    on:change=move |_| c.from_files.set(false) />" two arms of this dataset's exported models"</label>
                <label><input type="radio" name="compare-source" id="compare-from-files"
                    prop:checked=move || c.from_files.get() || !has_export()
                    on:change=move |_| c.from_files.set(true) />" two prediction files"</label>
            </div>
            {move || if c.from_files.get() || !has_export() {
                view! {
                    <div class="row">
                        <label>"A " {file_input("compare-file-a", false)}</label>
                        <label>"B " {file_input("compare-file-b", true)}</label>
                    </div>
                    <p class="hint">"CSV " <code>"item_id,<class…>"</code> " (probabilities) or " <code>"item_id,label"</code>
                        "; JSONL " <code>"{\"item_id\", \"probs\": {class: p}}"</code> ". The files stay in this tab."</p>
                }.into_any()
            } else {
                view! {
                    <div class="row"><label>"A " {arm_select("compare-arm-a", false)}</label>
                        <label>"B " {arm_select("compare-arm-b", true)}</label></div>
                    <p class="hint" id="compare-arms-said">{move || {
                        let (a, b) = c.arms.get();
                        let at = c.arms_n.get().map_or("each trained at its largest N".to_string(), |n| format!("both trained at N = {n}"));
                        format!("A, {a}: {}. B, {b}: {}. {at}.", arm_description(&a), arm_description(&b))
                    }}</p>
                }.into_any()
            }}
            <div class="row">
                <button id="compare-run" on:click=move |_| { if !c.from_files.get_untracked() && !has_export() { c.from_files.set(true); } start(st) }
                    prop:disabled=move || st.summary.get().is_none() || busy()>"Compare"</button>
            </div>
            {status}
            {move || c.result.get().map(|r| view! { <CompareResult r=r /> })}
        </section>
    }
}

#[component]
fn CompareResult(r: Arc<Compared>) -> impl IntoView {
    let st = expect_context::<St>();
    let c = st.compare;
    let metrics = r.report.metrics();
    if !metrics.contains(&c.metric.get_untracked()) {
        c.metric.set(PowerMetric::Tv);
    }
    let options = metrics
        .iter()
        .map(|&m| view! { <option value=m.key() selected=move || c.metric.get() == m>{m.label()}</option> })
        .collect_view();
    let r1 = r.clone();
    let lines = move || {
        let m = c.metric.get();
        let o = r1.report.observed.iter().find(|o| o.metric == m)?;
        Some(view! {
            <p class="sentence" id="compare-observed">{words::observed_line(o, r1.report.config.alpha)}</p>
            <p class="sentence" id="compare-reach">{words::reach_line(&r1.report, m)}</p>
            <p class="note" id="compare-splits">{words::budget_line(&r1.report, m)}</p>
            {words::wrong_way_line(&r1.report, m).map(|l| view! { <p class="sentence warn" id="compare-wrong-way">{l}</p> })}
        })
    };
    let past = words::past_file_line(&r.report);
    let notes = r.notes.join("; ");
    let labels = format!("A = {}, B = {}", r.labels.0, r.labels.1);
    let csv = r.report.to_csv();
    let download = move |_| crate::export::download_text(&csv, "text/csv", "annosat-compare.csv");
    let canvas = NodeRef::<html::Canvas>::new();
    let r2 = r.clone();
    Effect::new(move |_| {
        let m = c.metric.get();
        let Some(el) = canvas.get() else { return };
        figure::paint(el, "compare heat map", |root| draw(root, &r2.report, m));
    });
    let r3 = r.clone();
    let png = move |_| {
        if let Some(el) = canvas.get_untracked() {
            if let Ok(url) = el.to_data_url() {
                crate::export::download_url(
                    &url,
                    &format!("annosat-compare-{}.png", c.metric.get_untracked().key()),
                );
            }
        }
    };
    let svg = move |_| {
        let m = c.metric.get_untracked();
        figure::download_svg(
            (W, H),
            &format!("annosat-compare-{}.svg", m.key()),
            |root| {
                let _ = draw(root, &r3.report, m);
            },
        );
    };
    view! {
        <p class="note" id="compare-models-line">{labels}{(!notes.is_empty()).then(|| format!(" · {notes}"))}</p>
        <div class="row">
            <label>"Metric "
                <select id="compare-metric" on:change=move |ev| {
                    if let Some(m) = PowerMetric::parse(&event_target_value(&ev)) { c.metric.set(m) }
                }>{options}</select>
            </label>
            <button id="compare-csv" class="link" on:click=download>"Download the grid (CSV)"</button>
        </div>
        {lines}
        <figure class="chart heat" id="compare-heat">
            <canvas node_ref=canvas width=W.to_string() height=H.to_string() aria-label="power over items and votes per item"></canvas>
            {figure::caption(png, svg)}
        </figure>
        <p class="hint">"Darker: more power. Orange lines: fixed budgets of 100, 1,000, 10,000… votes (items × votes per item). Red circle: the cheapest split with "
            {format!("{:.0}%", r.report.config.power * 100.0)}" power (else the most powerful split of the largest budget)."</p>
        {past.map(|p| view! { <p class="note" id="compare-past">{p}</p> })}
    }
}
