//! The Plan room's other two tools: agreement and aggregation vs N (`annosat agree`) and the
//! adaptive-allocation simulation (`annosat adaptive`), each computed in the first curve worker
//! with the CLI's core code, shown as a chart or table, and exported as the CLI's CSV.

use super::PlanStatusLine;
use crate::chart::curves::{H, LOOK, W};
use crate::chart::figure;
use crate::chart::plot::{self, XAxis};
use crate::plan_jobs::Tool;
use crate::state::{St, REPEATS};
use annosat_core::adaptive::AdaptiveResult;
use annosat_core::agreement::{Agreement, Weights};
use annosat_core::curves::{CurvePoint, Metric};
use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Whether the Plan room is busy with any tool (one job at a time).
fn busy(st: St) -> bool {
    matches!(
        st.plan.job.status.get(),
        crate::room_jobs::JobStatus::Busy { .. }
    )
}

#[component]
pub fn AgreeCard() -> impl IntoView {
    let st = expect_context::<St>();
    let plan = st.plan;
    let classes = move || {
        st.summary
            .with(|s| s.as_ref().map(|s| s.classes.clone()))
            .unwrap_or_default()
    };
    let numeric = move || {
        let c = classes();
        !c.is_empty()
            && c.iter()
                .all(|x| x.trim().parse::<f64>().is_ok_and(f64::is_finite))
    };
    let run = move |_| {
        let Some(max) = st
            .summary
            .with_untracked(|s| s.as_ref().map(|s| s.votes_max))
        else {
            return;
        };
        if plan.level.get_untracked() == "interval" && !numeric() {
            plan.level.set("nominal");
        }
        plan.start_agree(max, REPEATS, st.seed.get_untracked());
    };
    view! {
        <section class="card plan-tool" id="agree">
            <h2>"Agreement and aggregation vs N"</h2>
            <p>"How much N annotators agree (Krippendorff's α of N-vote subsamples, and Gwet's AC1 — AC2 on a scale — which stays high where one class dominates), and how often the label that majority vote — or Dawid–Skene, which learns each annotator's confusion matrix and needs annotator ids (a long-form upload "
                <code>"item_id,annotator_id,label"</code>
                ") — gives an item from N of its votes is the label it gives from all of them. N = 1 to 20, then every 10th up to the most votes an item has; as "
                <code>"annosat agree --n"</code>" with those N (docs/plan.md)."</p>
            <div class="row">
                <label>"α's level "
                    <select id="agree-level" on:change=move |ev| {
                        plan.level.set(match event_target_value(&ev).as_str() {
                            "ordinal" => "ordinal",
                            "interval" => "interval",
                            _ => "nominal",
                        })
                    }>
                        <option value="nominal" selected=move || plan.level.get() == "nominal">"nominal (classes unordered)"</option>
                        <option value="ordinal" selected=move || plan.level.get() == "ordinal">"ordinal (classes in the table's order)"</option>
                        <option value="interval" prop:disabled=move || !numeric()
                            selected=move || plan.level.get() == "interval">"interval (class names are numbers)"</option>
                    </select>
                </label>
                <button id="agree-run" on:click=run
                    prop:disabled=move || st.summary.get().is_none() || busy(st)>"Compute"</button>
            </div>
            <PlanStatusLine tool=Tool::Agree />
            <AgreeResult />
        </section>
    }
}

#[component]
fn AgreeResult() -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(el), Some(r)) = (canvas.get(), st.plan.agreement.get()) else {
            return;
        };
        figure::paint(el, "agreement chart", |root| draw_agreement(root, &r.value));
    });
    move || {
        let r = st.plan.agreement.get()?;
        let a = &r.value;
        let csv = a.to_csv();
        let download = move |_| crate::export::download_text(&csv, "text/csv", "annosat-agree.csv");
        let full = match a.alpha.full {
            Some(v) => format!("Krippendorff's α ({}) of all votes: {v:.4}.", a.alpha.kind.name()),
            None => "Krippendorff's α is undefined for these votes (no item has two votes, or every vote is of one class).".into(),
        };
        // Gwet's coefficients of all votes, beside α (they stay high where one class dominates).
        let gwet: Vec<String> = a
            .gwet
            .iter()
            .filter_map(|c| Some(format!("{} {:.4}", gwet_label(c.kind), c.full?)))
            .collect();
        let full = if gwet.is_empty() {
            full
        } else {
            format!("{full} {}.", gwet.join(", "))
        };
        let ds = match &a.aggregation.dawid_skene {
            Some(d) => format!(
                "Dawid–Skene on all votes: {} EM rounds, {}; {} of {} fits on subsamples stopped at 100 rounds.",
                d.full_iterations,
                if d.full_converged { "converged" } else { "stopped at 100 rounds before converging" },
                d.unconverged,
                d.runs
            ),
            None => "No annotator ids in these votes: majority vote only (Dawid–Skene needs a long-form upload).".into(),
        };
        Some(view! {
            <p id="agree-full">{full}" "{ds}</p>
            <figure class="chart">
                <canvas node_ref=canvas width=W height=H id="agree-canvas"></canvas>
            </figure>
            <button id="agree-csv" class="link" on:click=download>"Download agreement vs N (CSV)"</button>
        })
    }
}

/// Gwet's coefficient as the room names it.
fn gwet_label(w: Weights) -> &'static str {
    match w {
        Weights::Identity => "Gwet's AC1",
        Weights::Linear => "AC2 (linear)",
        Weights::Quadratic => "AC2 (quadratic)",
        Weights::Ordinal => "AC2 (ordinal)",
    }
}

/// α, Gwet's AC1 (and AC2 on a scale), majority match and Dawid–Skene match vs N, each with its
/// 95% band.
fn draw_agreement<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &Agreement,
) -> Result<(), String> {
    let mut series: Vec<(&str, RGBColor, Vec<CurvePoint>)> = vec![(
        "Krippendorff's α",
        RGBColor(37, 99, 235),
        (0..a.alpha.grid.len())
            .map(|g| a.alpha.point_at(g))
            .collect(),
    )];
    // AC1, and AC2 with quadratic weights for a scale: the chart keeps to two of Gwet's lines (the
    // CSV has every one).
    let shown = [Weights::Identity, Weights::Quadratic];
    for (c, colour) in a
        .gwet
        .iter()
        .filter(|c| shown.contains(&c.kind))
        .zip([RGBColor(147, 51, 234), RGBColor(219, 39, 119)])
    {
        let pts = (0..c.grid.len()).map(|g| c.point_at(g)).collect();
        series.push((gwet_label(c.kind), colour, pts));
    }
    let colours = [RGBColor(22, 163, 74), RGBColor(234, 88, 12)];
    for (m, method) in a.aggregation.methods.iter().enumerate() {
        let name = match method.metric_name() {
            "majority_match" => "majority vote keeps its label",
            _ => "Dawid–Skene keeps its label",
        };
        let pts = (0..a.aggregation.grid.len())
            .map(|g| a.aggregation.point_at(m, g))
            .collect();
        series.push((name, colours[m % 2], pts));
    }
    let x_max = *a.aggregation.grid.last().unwrap_or(&1) as f64;
    draw_lines(
        root,
        "agreement and aggregation vs N",
        "coefficient / share of items",
        x_max,
        &series,
        SeriesLabelPosition::MiddleRight,
    )
}

/// Lines with 95% bands over N (or a budget), and a legend.
fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    y_desc: &str,
    x_max: f64,
    series: &[(&str, RGBColor, Vec<CurvePoint>)],
    legend: SeriesLabelPosition,
) -> Result<(), String> {
    let vals = series
        .iter()
        .flat_map(|s| s.2.iter().flat_map(|p| [p.lo, p.hi, p.mean]))
        .flatten();
    let (lo, hi) = vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo.min(0.0), hi + 0.15 * (hi - lo.min(0.0)))
    } else {
        (0.0, 1.0)
    };
    let x = XAxis { x_max, logx: false };
    let mut chart = plot::frame(root, LOOK, title, Some(y_desc), x, (lo, hi))?;
    for (name, colour, pts) in series {
        let pts: Vec<&CurvePoint> = pts.iter().filter(|p| p.mean.is_some()).collect();
        let band: Vec<(u32, f64, f64)> = pts
            .iter()
            .map(|p| (p.n, p.lo.unwrap_or(0.0), p.hi.unwrap_or(0.0)))
            .collect();
        plot::band(&mut chart, x, &band, colour.mix(0.15))?;
        let c = *colour;
        chart
            .draw_series(LineSeries::new(
                pts.iter()
                    .map(|p| (x.at(p.n as f64), p.mean.unwrap_or(0.0))),
                c.stroke_width(2),
            ))
            .map_err(plot::err)?
            .label(*name)
            .legend(move |(px, py)| PathElement::new([(px, py), (px + 18, py)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(legend)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(plot::err)?;
    plot::finish(root, chart, x, None, (lo, hi)).map(|_| ())
}

#[component]
pub fn AdaptiveCard() -> impl IntoView {
    let st = expect_context::<St>();
    let plan = st.plan;
    // The CLI's defaults for the table are computed in the worker, which has it.
    let run = move |_| plan.start_adaptive(plan.n0.get_untracked(), st.seed.get_untracked());
    view! {
        <section class="card plan-tool" id="adaptive">
            <h2>"Adaptive allocation"</h2>
            <p>"Would the same number of votes buy better labels if the later ones went to the items that need them? Votes are collected in rounds from each item's real votes (without replacement): every item starts with n0, then each round gives one more vote to a tenth of the items, chosen by the policy — "
                <b>"uniform"</b>" (fewest votes first), "<b>"disagreement"</b>" (largest entropy of the votes so far) or "
                <b>"entropy variance"</b>" (largest posterior variance of the item's entropy under a Dirichlet prior fitted to the first n0 votes). Differences from uniform are paired (same votes to start from), over 20 simulations. As "
                <code>"annosat adaptive"</code>" (docs/plan.md)."</p>
            <div class="row">
                <label>"Votes every item starts with (n0) "
                    <input type="number" id="adaptive-n0" min="2" max="50"
                        prop:value=move || plan.n0.get()
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                                plan.n0.set(v.clamp(2, 50));
                            }
                        } />
                </label>
                <button id="adaptive-run" on:click=run
                    prop:disabled=move || st.summary.get().is_none() || busy(st)>"Simulate"</button>
            </div>
            <PlanStatusLine tool=Tool::Adaptive />
            <AdaptiveResult />
        </section>
    }
}

#[component]
fn AdaptiveResult() -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        let r = st.plan.adaptive.get()?;
        let a: &AdaptiveResult = &r.value;
        let csv = a.to_csv();
        let download =
            move |_| crate::export::download_text(&csv, "text/csv", "annosat-adaptive.csv");
        let lines = a
            .summary()
            .into_iter()
            .map(|l| view! { <li>{l}</li> })
            .collect_view();
        Some(view! {
            <ul id="adaptive-summary" class="plan-summary">{lines}</ul>
            <p class="note">"Each panel: the metric of the votes collected so far against all of each item's votes (p_full), vs the budget — annotators per item on average (the x axis); mean and 95% band over the simulations."</p>
            <section class="charts" id="adaptive-charts">
                <AdaptiveChart metric=Metric::Kl />
                <AdaptiveChart metric=Metric::EntropyCorr />
                <AdaptiveChart metric=Metric::Jsd />
                <AdaptiveChart metric=Metric::MajorityAgreement />
            </section>
            <button id="adaptive-csv" class="link" on:click=download>"Download the simulation (CSV, with the paired differences)"</button>
        })
    }
}

/// One metric vs the budget, a line per policy.
#[component]
fn AdaptiveChart(metric: Metric) -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(el), Some(r)) = (canvas.get(), st.plan.adaptive.get()) else {
            return;
        };
        let a = &r.value;
        let colours = [
            RGBColor(37, 99, 235),
            RGBColor(234, 88, 12),
            RGBColor(22, 163, 74),
        ];
        let series: Vec<(&str, RGBColor, Vec<CurvePoint>)> = a
            .config
            .policies
            .iter()
            .enumerate()
            .map(|(p, policy)| {
                let pts = (0..a.config.budgets.len())
                    .map(|b| a.point(p, metric, b))
                    .collect();
                (policy.name(), colours[p % 3], pts)
            })
            .collect();
        let x_max = *a.config.budgets.last().unwrap_or(&1) as f64;
        let title = crate::chart::curves::title(metric);
        let y = crate::chart::curves::y_desc(metric);
        // Where the lines are not: distances fall with the budget, agreements rise.
        let legend = if metric.lower_is_better() {
            SeriesLabelPosition::UpperRight
        } else {
            SeriesLabelPosition::LowerRight
        };
        let what = format!("adaptive chart {}", metric.name());
        figure::paint(el, &what, |root| {
            draw_lines(root, title, y, x_max, &series, legend)
        });
    });
    view! {
        <figure class="chart" data-metric=metric.name()>
            <canvas node_ref=canvas width=W height=H class="plan-canvas"></canvas>
        </figure>
    }
}
