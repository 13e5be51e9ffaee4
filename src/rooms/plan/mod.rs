//! The Plan room: beyond the votes the data have, and how to spend the next ones. Its tools: the
//! curves extrapolated to more votes per item than the data have (annosat_core::extrapolate: the
//! fitted prior, its fit check, four panels, CSV), agreement and aggregation vs N and the adaptive
//! allocation simulation (`tools.rs`), all in the first curve worker, the budget in ratings for
//! classes on a scale (`rating_budget.rs`, from the rating report), the comparison of two models
//! (`compare.rs`, state in `compare_jobs`) and the budget planner in the model worker
//! (`budget_view.rs`).

mod budget_view;
mod compare;
mod rating_budget;
mod tools;

use crate::chart::curves::{draw, H, W};
use crate::chart::figure;
use crate::plan_jobs::{self as state, Tool};
use crate::room_jobs::{computed, status_line, JobStatus, Words};
use crate::state::{St, REPEATS};
use annosat_core::curves::Metric;
use leptos::html;
use leptos::prelude::*;

#[component]
pub fn PlanRoom() -> impl IntoView {
    view! {
        <section class="card plan-intro">
            <h2>"Beyond the votes you have"</h2>
            <p>"With M votes per item the target-side curves end at N = M by construction. Here a prior over the items' true label distributions is fitted to the items (one Dirichlet, or a mixture where items come in kinds; maximum marginal likelihood, on a sample of 5,000 items when there are more), and the curves are computed on tables drawn from each item's posterior — what the data would give with more votes per item. The fit check below says how well the prior describes these items; "
            <code>"annosat extrapolate --check"</code>" measures the error on data that have the votes (docs/plan.md)."</p>
        </section>
        <Controls />
        <PlanStatusLine tool=Tool::Extrapolate />
        <Result />
        <tools::AgreeCard />
        <tools::AdaptiveCard />
        <compare::CompareCard />
        <rating_budget::RatingBudgetCard />
        <budget_view::BudgetCard />
    }
}

#[component]
fn Controls() -> impl IntoView {
    let st = expect_context::<St>();
    let plan = st.plan;
    let truth = move || plan.votes.get() == 0;
    let run = move |_| plan.start(REPEATS, st.seed.get_untracked());
    view! {
        <section class="card row plan-controls">
            <label>"Votes per item to extrapolate to "
                <input type="number" id="plan-votes" min="2" max="1000" prop:disabled=truth
                    prop:value=move || if truth() { state::DEFAULT_VOTES } else { plan.votes.get() }
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                            plan.votes.set(v.clamp(2, 1000));
                        }
                    } />
            </label>
            <label><input type="checkbox" id="plan-truth" prop:checked=truth
                on:change=move |ev| plan.votes.set(if event_target_checked(&ev) { 0 } else { state::DEFAULT_VOTES }) />
                " against the true distributions (every annotator there could be)"</label>
            <label>"Prior "
                <select id="plan-components" on:change=move |ev| {
                    plan.components.set(event_target_value(&ev).parse().unwrap_or(0))
                }>
                    <option value="0" selected=move || plan.components.get() == 0>"BIC's choice (1–4)"</option>
                    {(1..=4u32).map(|c| view! {
                        <option value=c.to_string() selected=move || plan.components.get() == c>
                            {if c == 1 { "one Dirichlet".to_string() } else { format!("{c} Dirichlets") }}</option>
                    }).collect_view()}
                </select>
            </label>
            <button id="plan-run" on:click=run
                prop:disabled=move || st.summary.get().is_none() || matches!(plan.job.status.get(), JobStatus::Busy { .. })>"Extrapolate"</button>
        </section>
    }
}

/// The status of the room's work, shown in the section of the tool it is about.
#[component]
pub(crate) fn PlanStatusLine(tool: Tool) -> impl IntoView {
    let st = expect_context::<St>();
    let plan = st.plan;
    let id = match tool {
        Tool::Extrapolate => "plan-status",
        Tool::Agree => "plan-status-agree",
        Tool::Adaptive => "plan-status-adaptive",
    };
    let doing = match tool {
        Tool::Extrapolate => "fitting the prior and extrapolating…",
        Tool::Agree => "computing agreement and aggregation vs N…",
        Tool::Adaptive => "simulating the allocation policies…",
    };
    let words = Words {
        id,
        doing,
        preparing: "",
        stopped: "Stopped; nothing new was computed.",
        failed: "",
    };
    move || {
        if plan.tool.get() != tool {
            return None;
        }
        let idle = match tool {
            Tool::Extrapolate => plan.result.get().map(|r| {
                (
                    r.ms,
                    r.seed,
                    format!("{REPEATS} repeats over {} posterior draws", state::DRAWS),
                )
            }),
            Tool::Agree => plan.agreement.get().map(|r| {
                (
                    r.ms,
                    r.seed,
                    format!("{} repeats per N", r.value.alpha.repeats),
                )
            }),
            Tool::Adaptive => plan.adaptive.get().map(|r| {
                (
                    r.ms,
                    r.seed,
                    format!("{} simulations per policy", r.value.config.repeats),
                )
            }),
        }
        .map(|(ms, seed, what)| computed(ms, &format!("{what}, seed {seed}")));
        status_line(plan.job.status.get(), &words, idle, move || {
            st.stop_job(plan.job)
        })
    }
}

/// The extrapolated answer for KL and entropy correlation, in the headline's words
/// (`annosat_core::answer`, margin included) whether or not the data's own point is bounded.
fn sentence(st: St, r: &crate::plan_jobs::PlanResult) -> String {
    use annosat_core::answer::{extrapolated_headline, Extrapolated};
    use annosat_core::extrapolate::ReferenceVotes;
    let reference = r.votes.map_or(ReferenceVotes::Truth, ReferenceVotes::Votes);
    let answers = st.answers();
    [Metric::Kl, Metric::EntropyCorr]
        .iter()
        .filter_map(|&m| answers.get(m as usize))
        .map(|a| {
            let e = Extrapolated::of(
                a,
                reference,
                (&r.curves, r.bands.as_ref()),
                r.check.total_variation,
                &r.prior,
            );
            extrapolated_headline(a, &e)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[component]
fn Result() -> impl IntoView {
    let st = expect_context::<St>();
    let plan = st.plan;
    move || {
        let r = plan.result.get()?;
        let classes = st
            .summary
            .with(|s| s.as_ref().map(|s| s.classes.clone()))
            .unwrap_or_default();
        let rows = r
            .check
            .bins
            .iter()
            .map(|b| {
                view! {
                    <tr><td>{b.label.clone()}</td>
                        <td class="num">{format!("{:.1}%", 100.0 * b.observed)}</td>
                        <td class="num">{format!("{:.1}%", 100.0 * b.expected)}</td></tr>
                }
            })
            .collect_view();
        let tv = r.check.total_variation;
        let verdict = annosat_core::answer::verdict(tv);
        let csv = r.curves.to_csv();
        let download = move |_| {
            crate::export::download_text(&csv, "text/csv", "annosat-extrapolated.csv");
        };
        Some(view! {
            <section class="card summary">
                <p class="sentence" id="plan-sentence">{sentence(st, &r)}</p>
                <p id="plan-prior">"Prior: " <bdi>{r.prior.describe(&classes)}</bdi></p>
                <table id="plan-fit" class="fit-check">
                    <caption>"Fit check: share of items (with 2 or more votes) by how much their votes agree"</caption>
                    <thead><tr><th>"agreement"</th><th>"in the data"</th><th>"as the prior predicts"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
                <p id="plan-verdict" data-tv=tv.to_string()>{format!("Total variation {tv:.3}: {verdict}.")}</p>
                <button id="plan-csv" class="link" on:click=download>"Download the extrapolated curves (CSV)"</button>
            </section>
            <p class="note" id="plan-charts-note">{match r.votes {
                Some(m) => format!("The panels compare p_N with p_{m}, all {m} votes of each item in the posterior tables (their \"p_full\"), as the target side would with {m} real votes per item."),
                None => "The panels compare p_N with each item's true distribution (their \"p_full\"), N votes drawn with replacement.".to_string(),
            }}</p>
            <section class="charts" id="plan-charts">
                <PlanChart metric=Metric::Kl />
                <PlanChart metric=Metric::EntropyCorr />
                <PlanChart metric=Metric::Jsd />
                <PlanChart metric=Metric::MajorityAgreement />
            </section>
        })
    }
}

/// One metric's extrapolated curve, drawn as the target side draws its panels.
#[component]
fn PlanChart(metric: Metric) -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let logx = st.logx.get();
        let (Some(el), Some(r)) = (canvas.get(), st.plan.result.get()) else {
            return;
        };
        let sat = r.curves.saturation(metric, 0.9);
        let what = format!("plan chart {}", metric.name());
        figure::paint(el, &what, |root| {
            let inputs = (sat, r.bands.as_ref(), false);
            draw(root, &r.curves, metric, None, inputs, logx, None)
        });
    });
    view! {
        <figure class="chart" data-metric=metric.name()>
            <canvas node_ref=canvas width=W height=H class="plan-canvas"></canvas>
        </figure>
    }
}
