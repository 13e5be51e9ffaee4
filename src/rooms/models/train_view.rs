//! The "train here" card: choices (split seed, model seed), buttons (at the slider's N, over the
//! whole grid, cancel), progress, and the runs trained here beside the exported ones.

use super::phase_line::PhaseLine;
use super::ModelsSt;
use crate::model_jobs::{self as train, ModelJobs, Phase, Trained};
use crate::state::St;
use annosat_core::models::Manifest;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn TrainCard(m: Arc<Manifest>, path: String) -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let ts = expect_context::<ModelJobs>();
    let Some(cfg) = m.config.clone() else {
        return view! { <section class="card train" id="train"><p class="note">"This export records no configuration: it cannot be retrained here."</p></section> }.into_any();
    };
    let max_n = *cfg.ns.last().unwrap_or(&1);
    let splits = cfg.splits.clone();
    // A k-fold export's splits are its folds: start on the first when the chosen one is not there.
    if !splits.contains(&ts.split.get_untracked()) {
        if let Some(&first) = splits.first() {
            ts.split.set(first);
        }
    }
    let seeds = cfg.seeds;
    let split_opts = splits
        .iter()
        .map(|&s| view! { <option value=s.to_string() selected=move || ts.split.get() == s>{s.to_string()}</option> })
        .collect_view();
    let seed_opts = (0..seeds)
        .map(|s| view! { <option value=s.to_string() selected=move || ts.seed.get() == s>{s.to_string()}</option> })
        .collect_view();
    let running = move || ts.phase.with(Phase::busy);
    let n_here = move || st.n.get().min(max_n);
    let (m1, p1, m2, p2) = (m.clone(), path.clone(), m.clone(), path.clone());
    let grid = cfg.ns.clone();
    let at_n = move |_| {
        let arms = ms.visible.get_untracked();
        train::start(st, ts, p1.clone(), m1.clone(), arms, vec![n_here()]);
    };
    let over_grid = move |_| {
        let arms = ms.visible.get_untracked();
        train::start(st, ts, p2.clone(), m2.clone(), arms, grid.clone());
    };
    let m3 = m.clone();
    let path3 = path.clone();
    let results = move || {
        ts.done
            .get()
            .filter(|t| t.export == path3)
            .map(|t| view! { <Results t=t m=m3.clone() /> })
    };
    view! {
        <section class="card train" id="train">
            <h2>"Train here"</h2>
            <p class="hint">
                {format!(
                    "candle, in this tab: the checked arms' MLP heads ({} hidden units, AdamW lr {}, batch {}) trained on this export's \
                     head features, as the sweep trained them. A run lasts as long as the sweep's group for the chosen seeds \
                     (its early stopping watches all of the group's heads); each head keeps its best validation epoch. \
                     Results appear as hollow diamonds on the charts and in the table below, beside the exported runs.",
                    cfg.head.hidden, cfg.head.lr, cfg.head.batch
                )}
            </p>
            <div class="row">
                <label>{if cfg.folds.is_some() { "fold " } else { "split seed " }}<select id="train-split" on:change=move |ev| ts.split.set(event_target_value(&ev).parse().unwrap_or(0))>{split_opts}</select></label>
                <label>"model seed "<select id="train-seed" on:change=move |ev| ts.seed.set(event_target_value(&ev).parse().unwrap_or(0))>{seed_opts}</select></label>
                <button id="train-n" disabled=running on:click=at_n>{move || format!("Train at N = {}", n_here())}</button>
                <button id="train-grid" disabled=running on:click=over_grid>"Train over the N grid"</button>
                <button id="train-cancel" disabled=move || !running() on:click=move |_| train::user_cancel(ts)>"Cancel"</button>
            </div>
            <PhaseLine prefix="train" />
            {results}
        </section>
    }
    .into_any()
}

#[component]
fn Results(t: Arc<Trained>, m: Arc<Manifest>) -> impl IntoView {
    let (split, seed) = (t.job.split_seed, t.job.model_seed);
    let mut worst: f64 = 0.0;
    let mut same_epoch = (0, 0);
    let rows = t
        .runs
        .iter()
        .map(|r| {
            let exported = m
                .runs
                .iter()
                .find(|x| x.arm == r.arm && x.n == r.n && x.split == split && x.seed == seed);
            let num = exported
                .map(|x| r.metrics.max_abs_diff(&x.metrics).0.to_string())
                .unwrap_or_default();
            let (ep, kl, diff) = match exported {
                Some(x) => {
                    let (d, name) = r.metrics.max_abs_diff(&x.metrics);
                    worst = worst.max(d);
                    same_epoch.1 += 1;
                    if x.best_epoch == r.best_epoch {
                        same_epoch.0 += 1;
                    }
                    (
                        x.best_epoch.to_string(),
                        format!("{:.5}", x.metrics.kl),
                        format!("{d:.1e} ({name})"),
                    )
                }
                None => ("–".into(), "–".into(), "not in the export".into()),
            };
            view! {
                <tr data-arm=r.arm.clone() data-n=r.n.to_string() data-diff=num>
                    <td>{r.arm.clone()}</td><td>{r.n}</td>
                    <td>{r.best_epoch}</td><td>{ep}</td>
                    <td>{format!("{:.5}", r.metrics.kl)}</td><td>{kl}</td>
                    <td>{diff}</td>
                </tr>
            }
        })
        .collect_view();
    let summary = if same_epoch.1 > 0 {
        format!(
            "{} runs trained here in {:.1} s ({} heads together, {} epochs). Against the sweep's export: the same best epoch in {} of {}; \
             largest difference in any metric {:.1e}.",
            t.runs.len(), t.ms / 1000.0, t.heads, t.epochs_run, same_epoch.0, same_epoch.1, worst
        )
    } else {
        format!("{} runs trained here in {:.1} s ({} heads together, {} epochs); the export has no run at this N to compare with.",
            t.runs.len(), t.ms / 1000.0, t.heads, t.epochs_run)
    };
    view! {
        <p class="sentence" id="train-summary" data-ms=t.ms.to_string() data-heads=t.heads.to_string() data-epochs=t.epochs_run.to_string()>{summary}</p>
        <div class="table-wrap">
            <table class="movers" id="train-results">
                <thead><tr><th>"arm"</th><th>"N"</th><th>"best epoch here"</th><th>"… in the export"</th><th>"KL here"</th><th>"KL in the export"</th><th>"largest |Δ| (metric)"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
