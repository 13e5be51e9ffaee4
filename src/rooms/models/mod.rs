//! The models room: what models trained on N-vote targets learn, per arm, against N.
//!
//! Reads the trainer's exports under `models/` (docs/exports.md) through `annosat_core::models`, so
//! every number here is the trainer's, aggregated by the same code `annosat repro` uses.

mod chart;
mod ml_labels;
mod ml_own;
mod ml_panel;
mod multilabel;
mod own;
mod paired;
mod phase_line;
mod synth;
mod train_view;
mod verdicts;

use crate::data::{pick_export, Exports};
use crate::model_jobs::ModelJobs;
use crate::state::St;
use annosat_core::models::{
    arm_description, captured_at,
    verdict::{self, VERDICT_X},
    Manifest, ModelMetric,
};
use leptos::html;
use leptos::prelude::*;

use crate::chart::figure;
use std::sync::Arc;

/// Arms shown before the user toggles any.
const DEFAULT_ARMS: [&str; 6] = ["hard", "soft", "sls", "temp_hard", "constant", "knn"];

#[derive(Clone, Copy)]
pub struct ModelsSt {
    pub manifest: RwSignal<Option<Result<Arc<Manifest>, String>>>,
    pub visible: RwSignal<Vec<String>>,
    pub cmp_a: RwSignal<String>,
    pub cmp_b: RwSignal<String>,
    /// The export the user picked in the room (None: the picker's dataset's, if any).
    pub chosen: RwSignal<Option<String>>,
}

impl ModelsSt {
    pub fn new() -> Self {
        ModelsSt {
            manifest: RwSignal::new(None),
            visible: RwSignal::new(DEFAULT_ARMS.iter().map(|s| s.to_string()).collect()),
            cmp_a: RwSignal::new("soft".into()),
            cmp_b: RwSignal::new("ls0.1".into()),
            chosen: RwSignal::new(None),
        }
    }
}

impl Default for ModelsSt {
    fn default() -> Self {
        Self::new()
    }
}

/// The largest grid N not above the slider's N (the first grid N below it).
fn grid_n(m: &Manifest, n: u32) -> u32 {
    let ns = m.ns();
    ns.iter()
        .rev()
        .find(|&&g| g <= n)
        .or(ns.first())
        .copied()
        .unwrap_or(1)
}

#[component]
pub fn ModelsRoom() -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let exports = expect_context::<Exports>();
    exports.ensure();
    // A new dataset in the picker resets the room's own choice.
    let ts = expect_context::<ModelJobs>();
    Effect::new(move |_| {
        st.dataset.track();
        ms.chosen.set(None);
        // Runs trained in the tab belong to the data they were trained on.
        ts.own.set(None);
        ts.ml.set(None);
    });
    // The export shown: the room's choice, else the picker's dataset's (for the synthetic dataset,
    // the first synthetic export: the generated data itself is trained in the tab).
    let shown = Memo::new(move |_| {
        let ds = st.dataset.get();
        ms.chosen.get().or_else(|| {
            if ds == crate::state::SYNTHETIC {
                exports.list.with(|e| match e {
                    Some(Ok(list)) => list
                        .iter()
                        .find(|e| e.dataset.starts_with("synthetic"))
                        .map(|e| e.dataset.clone()),
                    _ => None,
                })
            } else {
                Some(ds)
            }
        })
    });
    // Fetch the manifest whenever the export or the reference changes.
    let wanted = Memo::new(move |_| {
        let ds = shown.get()?;
        let heldout = st.heldout.get();
        exports.list.with(|e| match e {
            Some(Ok(list)) => pick_export(list, &ds, heldout).map(|e| e.path),
            _ => None,
        })
    });
    Effect::new(move |_| {
        let Some(path) = wanted.get() else {
            ms.manifest.set(None);
            return;
        };
        leptos::task::spawn_local(async move {
            let r = crate::data::fetch_bytes(&format!("models/{path}"))
                .await
                .and_then(|b| Manifest::parse(&String::from_utf8_lossy(&b)))
                .map(Arc::new);
            if wanted.get_untracked().as_deref() == Some(path.as_str()) {
                ms.manifest.set(Some(r));
            }
        });
    });
    let chooser = move || {
        let list = match exports.list.get() {
            Some(Ok(list)) => list,
            _ => return None,
        };
        let mut names: Vec<String> = Vec::new();
        for e in &list {
            if !names.contains(&e.dataset) {
                names.push(e.dataset.clone());
            }
        }
        let current = shown.get().unwrap_or_default();
        // On an upload (or a dataset without an export) no export is shown: the chooser must not
        // preselect an unrelated one above the user's own results.
        let known = names.contains(&current);
        let options = names
            .into_iter()
            .map(|d| {
                let label = if d.starts_with("synthetic") {
                    format!("{d} (synthetic control)")
                } else if d.ends_with("_pooled") {
                    format!("{d} (pooled, k-fold)")
                } else {
                    d.clone()
                };
                let sel = d == current;
                view! { <option value=d selected=sel>{label}</option> }
            })
            .collect_view();
        Some(view! {
            <div class="card row" id="export-chooser">
                <label for="export-pick">"Exported models: "</label>
                <select id="export-pick" on:change=move |ev| ms.chosen.set(Some(event_target_value(&ev)))>
                    <option value="" disabled=true selected=!known>"choose…"</option>
                    {options}
                </select>
            </div>
        })
    };
    let body = move || {
        let ds = shown.get().unwrap_or_default();
        // Multilabel votes have exports of their own (multilabel.json), and uploads train their own.
        let ml = st
            .summary
            .with(|s| s.as_ref().is_some_and(|s| s.multilabel));
        if ml && ms.chosen.get().is_none() {
            if st.dataset.get() == crate::state::UPLOADED {
                return view! { <ml_own::MlOwnCard /> }.into_any();
            }
            return view! { <multilabel::MlModels dataset=ds /> }.into_any();
        }
        if st.dataset.get() == crate::state::UPLOADED && ms.chosen.get().is_none() {
            return view! { <own::OwnCard /> }.into_any();
        }
        match (exports.list.get(), ms.manifest.get()) {
            (None, _) => view! { <p class="status">"loading the model exports…"</p> }.into_any(),
            (Some(Err(e)), _) => view! { <p class="error">{e}</p> }.into_any(),
            (Some(Ok(_)), None) if wanted.get().is_none() => view! {
                <div class="card" id="no-models">
                    <p>{format!("No models have been trained on {ds} yet. Pick an exported set above; to train on this dataset, run:")}</p>
                    <pre>{format!("scripts/fetch-model.sh\ncargo run --profile native -p annosat-trainer -- sweep --data <data>/{ds} --out public/models")}</pre>
                </div>
            }.into_any(),
            (Some(Ok(_)), None) => view! { <p class="status">"loading the models…"</p> }.into_any(),
            (_, Some(Err(e))) => view! { <p class="error">{e}</p> }.into_any(),
            (_, Some(Ok(m))) => {
                let path = wanted.get_untracked().unwrap_or_default();
                view! { <Models m=m path=path own=false /> }.into_any()
            }
        }
    };
    view! {
        <section class="models" id="models-room">
            {move || (st.dataset.get() == crate::state::SYNTHETIC).then(|| view! { <synth::SynthCard /> })}
            {chooser}
            {body}
        </section>
    }
}

/// The panels and the paired comparison for a manifest: an export (`own` false: with the Train here
/// card), or the runs trained in this tab on the user's own data (`own` true).
#[component]
pub(crate) fn Models(m: Arc<Manifest>, path: String, own: bool) -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let arms = m.arms();
    let units = m.units().len();
    let heldout_note = {
        let m = m.clone();
        move || {
            (!own && st.heldout.get() && !m.reference.starts_with("held-out")).then(|| {
                view! { <p class="note">"No held-out sweep for this dataset: showing models evaluated against all votes."</p> }
            })
        }
    };
    let toggles = arms
        .iter()
        .map(|a| {
            let a2 = a.clone();
            let a3 = a.clone();
            let checked = move || ms.visible.with(|v| v.contains(&a2));
            let on = move |ev| {
                let on = event_target_checked(&ev);
                ms.visible.update(|v| {
                    v.retain(|x| x != &a3);
                    if on {
                        v.push(a3.clone());
                    }
                });
            };
            view! {
                <label class="arm" style=format!("--c:{}", chart::css(a)) title=arm_description(a)>
                    <input type="checkbox" data-arm=a.clone() prop:checked=checked on:change=on />
                    <span class="swatch"></span>{a.clone()}
                </label>
            }
        })
        .collect_view();
    let arm_list = arms
        .iter()
        .map(|a| view! { <li><b>{a.clone()}</b>": "{arm_description(a)}</li> })
        .collect_view();
    let panels = ModelMetric::ALL
        .into_iter()
        .map(|metric| view! { <ModelChart m=m.clone() path=path.clone() metric=metric /> })
        .collect_view();
    let m2 = m.clone();
    view! {
        <div class="card model-head">
            <p class="sentence">
                {format!("{}: {}; an MLP head per arm. Metrics on held-out test items against {}; {}. A dot marks where {}% of the N=1 → N={} change is first reached, drawn only where the change is detectable: its 95% interval over test items and splits excludes 0 in the improving direction (the captions give that point's interval at 90%, or say \"no detectable change with N\" / \"worsens with N\"). Dashed: the constant and kNN baselines.",
                    m.dataset,
                    if m.encoder.starts_with("synthetic") { format!("generated features ({})", m.features) } else { format!("{} encoder ({}), frozen", m.encoder, m.features) },
                    m.reference,
                    match m.units().first() {
                        Some((split, seed)) if units == 1 => format!("one run per arm and N (split seed {split}, model seed {seed})"),
                        _ if !m.pooled.is_empty() => {
                            let seeds = m.pooled.iter().map(|p| p.seed).collect::<std::collections::BTreeSet<_>>().len();
                            format!(
                                "every item is a test item once per model seed ({}-fold); lines are each N's all-items metric{}",
                                m.splits.len(),
                                if seeds > 1 { format!(", the mean over {seeds} model seeds, bands their range") } else { " (one model seed)".into() }
                            )
                        }
                        _ => format!("lines are means over {units} runs (model seeds × split seeds), bands their range"),
                    },
                    st.x.get_untracked(), m.ns().last().copied().unwrap_or(1))}
            </p>
            {heldout_note}
            <div class="arms" id="arm-toggles">{toggles}</div>
            <details class="arm-list" id="arm-list">
                <summary>"What the arms' targets are"</summary>
                <ul>{arm_list}</ul>
            </details>
        </div>
        {(!m.verdicts.is_empty()).then(|| view! { <verdicts::Verdicts m=m.clone() /> })}
        {(!m.pooled.is_empty()).then(|| view! { <Pooled m=m.clone() /> })}
        // Training in the tab needs the dataset's bundle: not there for pooled or synthetic exports.
        {(!own && st.entry(&m.dataset).is_some()).then(|| view! { <train_view::TrainCard m=m.clone() path=path.clone() /> })}
        <section class="charts model-charts">{panels}</section>
        <paired::Compare m=m2 own=own path=path.clone() />
    }
}

#[component]
fn ModelChart(m: Arc<Manifest>, path: String, metric: ModelMetric) -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let ts = expect_context::<ModelJobs>();
    let canvas = NodeRef::<html::Canvas>::new();
    let m2 = m.clone();
    let path2 = path.clone();
    let geom = RwSignal::new(None::<crate::chart::plot::Geom>);
    // Redrawn when arms, x, the axis or runs trained here change; N moves the marker element only.
    Effect::new(move |_| {
        let (logx, x) = (st.logx.get(), st.x.get() as f64 / 100.0);
        let arms = ms.visible.get();
        let here = ts.points(&path, metric);
        let Some(el) = canvas.get() else { return };
        let what = format!("model chart {}", metric.key());
        let draw = Some(|root: &_| chart::draw(root, &m2, metric, &arms, &here, None, x, logx));
        figure::paint_panel(el, &what, geom, "", draw);
    });
    let marker = figure::marker(geom, st.n, (chart::W, chart::H));
    let here_note = move || {
        ts.done.with(|d| match d {
            Some(t) if t.export == path2 => Some(view! {
                <span class="here">{format!("◇ trained in this tab (split seed {}, model seed {})", t.job.split_seed, t.job.model_seed)}</span>
            }),
            _ => None,
        })
    };
    let caption = move || {
        let x = st.x.get() as f64 / 100.0;
        ms.visible
            .get()
            .into_iter()
            .map(|a| {
                let v = m.verdict(&a, None).and_then(|v| v.get(metric));
                let text = verdict::caption(v, captured_at(&m.curve(&a, metric), x), x, VERDICT_X);
                let kind = v.map(|v| v.verdict.key()).unwrap_or("none");
                let bounded = v.and_then(|v| v.bounded_by).map(|m| m.to_string());
                view! { <span class="cap" style=format!("color:{}", chart::css(&a)) data-arm=a.clone() data-verdict=kind data-bounded=bounded>{format!("{a}: {text}")}</span> }
            })
            .collect_view()
    };
    view! {
        <figure class="chart" data-model-metric=metric.key()>
            <div class="chart-wrap">
                <canvas node_ref=canvas width=chart::W.to_string() height=chart::H.to_string() aria-label=metric.label()></canvas>
                {marker}
            </div>
            <figcaption class="caps">
                {move || if metric.compared() {
                    view! { {format!("{}% by: ", st.x.get())}{caption.clone()} }.into_any()
                } else if metric == ModelMetric::Unc {
                    view! { <span class="here">"the test items' own spread: the same for every arm"</span> }.into_any()
                } else {
                    view! { <span class="here">"what REL − RES + UNC leaves of the Brier score: near 0 when the decomposition holds"</span> }.into_any()
                }}
                {here_note}
            </figcaption>
        </figure>
    }
}

/// A k-fold export's all-items scores at the slider's grid N: every item was tested once per model
/// seed, so entropy correlation has an interval narrow enough to tell signal from none.
#[component]
fn Pooled(m: Arc<Manifest>) -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let m2 = m.clone();
    let rows = move || {
        let n = grid_n(&m, st.n.get());
        ms.visible
            .get()
            .into_iter()
            .filter_map(|arm| {
                let runs = m.pooled_at(&arm, n);
                let first = runs.first()?;
                let cells = runs
                    .iter()
                    .map(|p| {
                        let r = p.metrics.entropy_corr.map(|r| format!("{r:.3}")).unwrap_or_else(|| "undefined".into());
                        let ci = p.entropy_corr_ci.map(|(lo, hi)| format!(" [{lo:.3}, {hi:.3}]")).unwrap_or_default();
                        format!("seed {}: KL {:.4}, r {r}{ci}", p.seed, p.metrics.kl)
                    })
                    .collect::<Vec<_>>()
                    .join(" · ");
                Some(view! { <tr data-arm=arm.clone()><td>{arm.clone()}</td><td class="num">{first.items}</td><td class="seeds">{cells}</td></tr> })
            })
            .collect_view()
    };
    view! {
        <section class="card" id="pooled">
            <h2>"All items at N = " {move || grid_n(&m2, st.n.get())}</h2>
            <p class="hint">"k-fold cross-validation: each item was a test item in one fold, so these scores, and the panels below, use every item (entropy correlation with its Fisher-z 95% interval for one seed's run). Joining folds adds their differences: even the constant predictor (one distribution per fold) gets a small r, a floor for the others."</p>
            <div class="table-wrap"><table class="movers" id="pooled-table">
                <thead><tr><th>"arm"</th><th>"items"</th><th>"per model seed"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table></div>
        </section>
    }
}
