//! The Models room for a multilabel dataset: the trainer's `multilabel.json` export (sigmoid heads
//! per arm × N, k-fold) — its sentences, one panel per metric with every arm, and soft against hard
//! at every N — all read from the export, computed by `annosat sweep` through the core.

use super::chart::css;
use super::ml_labels::MlLabelTable;
use super::ml_panel::{draw, H, W};
use crate::chart::figure;
use crate::chart::plot::Geom;
use crate::state::St;
use annosat_core::multilabel::export::{MlExport, FILE};
use annosat_core::multilabel::models::MlModelMetric;
use leptos::html;
use leptos::prelude::*;
use std::sync::Arc;

fn signed(v: Option<f64>) -> String {
    v.map_or("undefined".into(), |v| format!("{v:+.3}"))
}

#[component]
pub fn MlModels(dataset: String) -> impl IntoView {
    let export = RwSignal::new(None::<Result<Arc<MlExport>, String>>);
    let path = format!("models/{dataset}/{FILE}");
    {
        let path = path.clone();
        leptos::task::spawn_local(async move {
            let r = crate::data::fetch_bytes(&path)
                .await
                .and_then(|b| MlExport::from_json(&String::from_utf8_lossy(&b)))
                .map(Arc::new);
            export.set(Some(r));
        });
    }
    move || {
        match export.get() {
        None => view! { <p class="status">"loading the multilabel models…"</p> }.into_any(),
        Some(Err(_)) => view! {
            <div class="card" id="no-models">
                <p>{format!("No multilabel models have been trained on {dataset} yet. To train them (sigmoid heads per arm and N, k-fold), run:")}</p>
                <pre>{format!("scripts/fetch-model.sh\ncargo run --profile native -p annosat-trainer -- sweep --data <data>/{dataset} --out public/models")}</pre>
            </div>
        }.into_any(),
        Some(Ok(e)) => view! { <MlExportView e=e /> }.into_any(),
    }
    }
}

#[component]
pub(super) fn MlExportView(e: Arc<MlExport>) -> impl IntoView {
    let last = e.evaluation.ns.last().copied().unwrap_or(0);
    let lede = format!(
        "Sigmoid heads on frozen {} features ({}), one per arm and N, {}-fold over {} items × {} model seeds; every item is tested once, against its full {}-vote label shares. Intervals are 95% over {} resamples of the test items within their folds, the same draws for every arm.",
        e.encoder, e.layout, e.folds, e.items, e.model_seeds, e.votes_per_item, e.evaluation.resamples
    );
    let sentences = e
        .sentences()
        .into_iter()
        .zip(MlModelMetric::ALL)
        .map(|(s, m)| view! { <li data-metric=m.name()>{s}</li> })
        .collect::<Vec<_>>();
    let arms = e
        .arms
        .iter()
        .map(|a| {
            let style = format!("color:{}", css(&a.name));
            view! { <li><b style=style>{a.name.clone()}</b>": "{a.description.clone()}</li> }
        })
        .collect::<Vec<_>>();
    let legend = e
        .arms
        .iter()
        .map(|a| {
            let style = format!("color:{};font-weight:600;margin-right:1em", css(&a.name));
            let mark = if a.name == "constant" { "- - " } else { "● " };
            view! { <span style=style title=a.description.clone()>{mark}{a.name.clone()}</span> }
        })
        .collect::<Vec<_>>();
    let panels = MlModelMetric::ALL
        .into_iter()
        .map(|m| view! { <MlPanel e=e.clone() metric=m /> })
        .collect::<Vec<_>>();
    view! {
        <section class="card answer" id="ml-models">
            <p>{lede}</p>
            <ul id="ml-models-sentences">{sentences}</ul>
            <details>
                <summary>"What the arms' targets are"</summary>
                <ul class="arm-list">{arms}</ul>
            </details>
        </section>
        <p class="legend" id="ml-legend">{legend}" (bands: 95% over test items)"</p>
        <section class="charts model-charts ml-model-charts">{panels}</section>
        <MlVersusTable e=e.clone() />
        <MlLabelTable e=e.clone() />
        <p class="status">{format!("Budgets N = {:?}; at N = {last} every arm trains on all the votes.", e.evaluation.ns)}</p>
    }
}

#[component]
fn MlPanel(e: Arc<MlExport>, metric: MlModelMetric) -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    let geom = RwSignal::new(None::<Geom>);
    {
        let e = e.clone();
        Effect::new(move |_| {
            let Some(el) = canvas.get() else { return };
            let what = format!("models chart {}", metric.name());
            let draw = Some(|root: &_| draw(root, &e, metric, None));
            figure::paint_panel(el, &what, geom, "", draw);
        });
    }
    let file = format!("annosat-{}-models-{}.svg", e.dataset, metric.name());
    figure::svg_figure(
        (metric.name(), metric.title()),
        (W, H),
        canvas,
        (geom, st.n),
        move || file.clone(),
        move |root, n| draw(root, &e, metric, Some(n)).ok().map(|_| ()),
    )
}

/// Soft against hard at every N and metric: the paired difference with its interval and outcome.
#[component]
fn MlVersusTable(e: Arc<MlExport>) -> impl IntoView {
    let ev = &e.evaluation;
    let rows = ev
        .ns
        .iter()
        .map(|&n| {
            let cells = MlModelMetric::ALL
                .into_iter()
                .map(|m| {
                    let v = ev.versus.iter().find(|v| {
                        v.arm == "soft" && v.against == "hard" && v.n == n && v.metric == m
                    });
                    let text = v.map_or("—".into(), |v| {
                        format!("{} [{}, {}]", signed(v.diff), signed(v.lo), signed(v.hi))
                    });
                    let outcome = v.map_or(String::new(), |v| v.outcome.clone());
                    // A detectable difference is drawn in the better arm's colour.
                    let style = match outcome.as_str() {
                        "soft better" => format!("color:{};font-weight:600", css("soft")),
                        "hard better" => format!("color:{};font-weight:600", css("hard")),
                        _ => "color:#6b7280".to_string(),
                    };
                    view! { <td class="num" style=style data-metric=m.name() data-outcome=outcome.clone() title=outcome>{text}</td> }
                })
                .collect::<Vec<_>>();
            view! { <tr data-n=n.to_string()><td class="num">{n}</td>{cells}</tr> }
        })
        .collect::<Vec<_>>();
    view! {
        <section class="card" id="ml-versus">
            <h3>"Soft − hard, paired over the same test items"</h3>
            <p class="status">"Negative is better for SoftBCE, positive for the others. A difference whose interval excludes 0 is drawn in the better arm's colour (blue: soft, black: hard); grey: no detectable difference."</p>
            <table>
                <thead><tr><th>"N"</th>
                    {MlModelMetric::ALL.into_iter().map(|m| view! { <th>{m.name()}</th> }).collect::<Vec<_>>()}
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}
