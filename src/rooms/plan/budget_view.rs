//! The Plan room's budget planner (`annosat plan`): on a bundled dataset with an export, heads
//! trained on more items × fewer votes or fewer × more for each total budget, in the model worker
//! (the native planner's code, on the export's head features), with one progress bar and Stop.

use crate::data::{pick_export, Exports};
use crate::model_jobs::{self, BudgetDone, ModelJobs, Phase};
use crate::state::St;
use annosat_core::models::budget::{BudgetConfig, METRICS};
use leptos::prelude::*;

#[component]
pub fn BudgetCard() -> impl IntoView {
    let st = expect_context::<St>();
    let ts = expect_context::<ModelJobs>();
    let exports = expect_context::<Exports>();
    exports.ensure();
    // The export (all votes as the reference) of the dataset in the picker, if it has one.
    let export = Memo::new(move |_| {
        let ds = st.dataset.get();
        exports.list.with(|e| match e {
            Some(Ok(list)) => pick_export(list, &ds, false).map(|e| (ds, e.path)),
            _ => None,
        })
    });
    let run = move |_| {
        if let Some((ds, path)) = export.get_untracked() {
            model_jobs::start_budget(st, ts, ds, path);
        }
    };
    // An upload has no export: its texts are embedded first (as the Models room's "your data").
    let upload = move || st.dataset.get() == crate::state::UPLOADED;
    let texts = NodeRef::<leptos::html::Input>::new();
    let run_own = move |_| {
        let file = texts
            .get_untracked()
            .and_then(|i| i.files())
            .and_then(|f| f.get(0));
        model_jobs::start_own(st, ts, Vec::new(), file, Some(BudgetConfig::default()));
    };
    let status = move || {
        if !ts.is_budget() {
            return None;
        }
        let stop = move |_| model_jobs::user_cancel(ts);
        Some(match ts.phase.get() {
            Phase::Fetching => view! { <p class="status" id="budget-status" data-state="busy">"fetching the dataset and its head features…"</p> }.into_any(),
            Phase::Stage { stage, done, detail } => view! {
                <p class="status" id="budget-status" data-state="busy">
                    {format!("{stage}… {:.0}% ({detail})", done * 100.0)}
                    <progress max="1" value=done></progress>
                    <button class="link" id="budget-stop" on:click=stop>"Stop"</button>
                </p>
            }.into_any(),
            Phase::Running { .. } => view! { <p class="status" id="budget-status" data-state="busy">"training…"</p> }.into_any(),
            Phase::Failed(e) => view! { <p class="error" id="budget-status" data-state="error" role="alert"><bdi>{e}</bdi></p> }.into_any(),
            Phase::Cancelled => view! { <p class="status" id="budget-status" data-state="stopped">"Stopped; nothing new was trained."</p> }.into_any(),
            Phase::Idle => match ts.budget.get() {
                Some(b) if b.dataset == st.data_key() => {
                    let on = if st.dataset.get() == crate::state::UPLOADED {
                        st.upload.name.get().unwrap_or_else(|| "your file".into())
                    } else {
                        b.dataset.clone()
                    };
                    view! { <p class="status" id="budget-status" data-state="idle">{format!("Trained in {:.1} s in the model worker: {} points × {} seeds on {on}.", b.ms / 1000.0, b.report.points.len(), b.report.config.seeds)}</p> }.into_any()
                }
                _ => view! { <p></p> }.into_any(),
            },
        })
    };
    view! {
        <section class="card plan-tool" id="budget">
            <h2>"Budget planner"</h2>
            <p>"With a fixed number of votes, should they go to more items with fewer annotators each, or to fewer items with more? The target side always says “more annotators” (each item's label only improves with N), so the trade-off shows on the model side: for budgets of 1, 3 and 10 times the training items, the sweep's head is trained on budget / N of the training items with N-vote soft targets, for each N that fits, and scored on the test items against all their votes (5 model seeds; the range over them is shown). Needs a bundled dataset with an export (its head features). As "
                <code>"annosat plan"</code>" (docs/plan.md)."</p>
            <div class="row">
                <button id="budget-run" on:click=run
                    prop:disabled=move || export.get().is_none() || ts.phase.get().busy()>"Plan"</button>
                {move || (export.get().is_none() && !upload()).then(|| view! {
                    <span class="note" id="budget-none">"This dataset has no export with head features (the ChaosNLI sets and the synthetic ones do); an upload with texts can be planned after embedding them."</span>
                })}
            </div>
            {move || upload().then(|| view! {
                <div class="row">
                    <label>"Texts (optional when the CSV has text columns): "
                        <input type="file" id="budget-texts" accept=".jsonl,.csv,.json" node_ref=texts /></label>
                    <button id="budget-own" on:click=run_own prop:disabled=move || ts.phase.get().busy()>
                        "Plan on your data (embeds its texts with MiniLM first)"</button>
                </div>
            })}
            {status}
            <BudgetResult />
        </section>
    }
}

#[component]
fn BudgetResult() -> impl IntoView {
    let ts = expect_context::<ModelJobs>();
    let st = expect_context::<St>();
    move || {
        let b: std::sync::Arc<BudgetDone> = ts.budget.get()?;
        // A report belongs to the data it was trained on (every upload is "uploaded": the key
        // holds the file's name and size too).
        if b.dataset != st.data_key() {
            return None;
        }
        let r = &b.report;
        let csv = r.to_csv();
        let download = move |_| crate::export::download_text(&csv, "text/csv", "annosat-plan.csv");
        let sentences = r
            .sentences()
            .into_iter()
            .chain(r.target_sentence())
            .map(|l| view! { <li>{l}</li> })
            .collect_view();
        let rows = r
            .points
            .iter()
            .map(|&p| {
                let cells = METRICS
                    .iter()
                    .filter(|(m, _)| *m != "jsd")
                    .map(|(m, _)| {
                        let s = r.spread(p, m);
                        let d = if *m == "kl" { 4 } else { 3 };
                        let best = r
                            .frontier
                            .iter()
                            .any(|f| f.budget == p.0 && f.items == p.1 && f.n == p.2 && f.metric == *m);
                        let text = format!("{:.d$} ({:.d$}–{:.d$})", s.mean, s.lo, s.hi);
                        view! { <td class="num" class:best=best>{text}</td> }
                    })
                    .collect_view();
                view! { <tr><td class="num">{p.0}</td><td class="num">{format!("{} × {}", p.1, p.2)}</td>{cells}</tr> }
            })
            .collect_view();
        Some(view! {
            <ul id="budget-sentences" class="plan-summary">{sentences}</ul>
            <table id="budget-table" class="fit-check">
                <caption>"Test-set mean over seeds (lowest–highest); the best per budget in bold. Constant predictor's KL: "{format!("{:.4}", r.constant.kl)}"."</caption>
                <thead><tr><th>"budget"</th><th>"items × N"</th><th>"KL"</th><th>"entropy corr."</th><th>"accuracy"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <button id="budget-csv" class="link" on:click=download>"Download the planner's points (CSV)"</button>
        })
    }
}
