//! What the Sources room shows of a measurement: a sentence per metric, the human curve with the
//! source's level per metric, and the panel view (ν by panel size, each annotator's ν).

use super::chart;
use super::state::Measured;
use crate::chart::figure;
use crate::state::St;
use annosat_core::worth::{MetricWorth, WorthMetric};
use leptos::html;
use leptos::prelude::*;
use std::sync::Arc;

/// "worth 2.8 humans [2.6, 3.0] for JS distance" (the core's words, per metric).
fn sentence(w: &MetricWorth, pool: u32) -> String {
    format!("{} for {}", w.words(pool), chart::label(w.metric))
}

/// A table cell: "2.8 [2.6, 3.0]", "< 1", "> 50".
fn cell(w: &MetricWorth, pool: u32) -> String {
    let words = w.words(pool);
    words
        .strip_prefix("worth ")
        .unwrap_or(&words)
        .replace(" humans", "")
        .replace(" human", "")
}

#[component]
pub(super) fn Result() -> impl IntoView {
    let st = expect_context::<St>();
    let src = st.sources;
    move || {
        let r = src.shown(&st.dataset.get())?;
        let w = &r.report.worth;
        let pool = w.pool;
        let csv = r.report.csv();
        let file = format!("annosat-worth-{}.csv", st.dataset.get_untracked());
        let download = move |_| crate::export::download_text(&csv, "text/csv", &file);
        let lines = w.metrics.iter().map(|m| {
            view! {
                <li data-metric=m.metric.key() data-nu=m.nu.map(|v| v.to_string()).unwrap_or_default()
                    data-bound=m.bound.map(|b| format!("{b:?}").to_lowercase()).unwrap_or_default()>{sentence(m, pool)}</li>
            }
        }).collect_view();
        let th = annosat_core::import::thousands;
        let over = if w.over_annotators {
            "items, reference splits and the human annotators"
        } else {
            "items and reference splits"
        };
        let items = format!(
            "{} items in both ({} only in the human votes, {} only in the source, {} left out with fewer than 2 human votes or no source vote); pool up to {} human votes per item; intervals: 95% over {over}.",
            th(w.items), th(w.only_humans.len()), th(w.only_source.len()), th(w.left_out.len()), pool
        );
        let mut heading = format!("{}, measured in this dataset's annotators", r.source);
        if let Some(c) = heading.get(0..1) {
            heading.replace_range(0..1, &c.to_uppercase());
        }
        let grid_nu = w.get(WorthMetric::SquaredError).and_then(|m| m.nu);
        let closed = match (w.j_over_e, w.closed_form_nu) {
            (Some(je), Some(nu)) => Some(format!(
                "Squared error in closed form (the pool's bias and variance): ν = {nu:.2}{}. Li, Yu & Li's ν_MSE = J/E against this reference: {je:.2}.",
                grid_nu.map(|g| format!(" (interpolated between the curve's grid points above: {g:.2})")).unwrap_or_default()
            )),
            (Some(je), None) => Some(format!("Li, Yu & Li's ν_MSE = J/E against this reference: {je:.2}.")),
            _ => None,
        };
        let notes = r.notes.clone();
        Some(view! {
            <section class="card summary" id="sources-result">
                <h3 id="sources-heading">{heading}</h3>
                <p id="sources-items">{items}</p>
                {(!notes.is_empty()).then(|| view! { <ul class="notes" id="sources-notes">{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul> })}
                <ul class="sentences" id="sources-sentences">{lines}</ul>
                {closed.map(|c| view! { <p class="hint" id="sources-closed">{c}</p> })}
                <button id="sources-csv" class="link" on:click=download>"Download as CSV (what annosat worth prints)"</button>
            </section>
            <p class="hint key" id="sources-key">
                <span class="swatch" style="background:#2563eb"></span>" the human curve: N pool votes against the reference   "
                <span class="swatch" style="background:#d97706"></span>" the source's level; the dot is where the curve reaches it (ν), the shade its 95% interval"
            </p>
            <section class="charts sources-charts" id="sources-charts">
                {r.report.worth.metrics.iter().map(|m| view! { <WorthChart metric=m.metric /> }).collect_view()}
            </section>
            <PanelView r=r.clone() />
        })
    }
}

#[component]
fn WorthChart(metric: WorthMetric) -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(el), Some(r)) = (canvas.get(), st.sources.result.get()) else {
            return;
        };
        let Some(w) = r.report.worth.get(metric) else {
            return;
        };
        let what = format!("sources chart {}", metric.key());
        figure::paint(el, &what, |root| {
            chart::draw_worth(root, w, r.report.worth.pool)
        });
    });
    view! {
        <figure class="chart" data-metric=metric.key()>
            <canvas node_ref=canvas width=chart::W height=chart::H class="sources-canvas"></canvas>
        </figure>
    }
}

/// The panel's curve ν(j) per metric and each annotator's ν (a source with annotator ids).
#[component]
fn PanelView(r: Arc<Measured>) -> impl IntoView {
    let Some(p) = r.report.panel.clone() else {
        let why = match &r.report.crowd {
            Some(c) => format!("No panel view: the source is {}.", c.words()),
            None => "No panel view: the source has fewer than two annotators with ids (a wide count file or a gold file).".into(),
        };
        return view! { <p class="hint" id="sources-no-panel">{why}</p> }.into_any();
    };
    let pool = r.report.worth.pool;
    let head = r
        .report
        .worth
        .metrics
        .iter()
        .map(|m| view! { <th>{chart::label(m.metric)}</th> })
        .collect_view();
    let rows = p
        .annotators
        .iter()
        .zip(&p.each)
        .map(|(id, ms)| {
            let cells = ms
                .iter()
                .map(|m| view! { <td class="num" data-metric=m.metric.key()>{cell(m, pool)}</td> })
                .collect_view();
            view! { <tr><th scope="row"><bdi>{id.clone()}</bdi></th>{cells}</tr> }
        })
        .collect_view();
    let undefined = p
        .each
        .iter()
        .flatten()
        .any(|m| m.nu.is_none() && m.bound.is_none());
    let charts = p
        .curve
        .iter()
        .map(|(m, pts)| view! { <PanelChart metric=*m outside=chart::outside(pts) /> })
        .collect_view();
    view! {
        <section class="card" id="sources-panel">
            <h3>{format!("The panel by size: ν with j of its {} annotators ({} random subsets each)", p.annotators.len(), r.subsets)}</h3>
            <section class="charts sources-charts" id="sources-panel-charts">{charts}</section>
            <table class="sources-each" id="sources-each">
                <caption>"Each annotator alone: worth ν humans [95% interval over items and splits]"</caption>
                <thead><tr><th>"annotator"</th>{head}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
            {undefined.then(|| view! { <p class="hint" id="sources-undefined">"undefined: the measure has no value for that source, as an entropy correlation when one vote per item gives every item the same entropy."</p> })}
        </section>
    }.into_any()
}

#[component]
fn PanelChart(metric: WorthMetric, outside: String) -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(el), Some(r)) = (canvas.get(), st.sources.result.get()) else {
            return;
        };
        let Some(p) = r.report.panel.as_ref() else {
            return;
        };
        let Some((_, pts)) = p.curve.iter().find(|(m, _)| *m == metric) else {
            return;
        };
        let what = format!("panel chart {}", metric.key());
        figure::paint(el, &what, |root| {
            chart::draw_panel(root, metric, pts, r.report.worth.pool)
        });
    });
    view! {
        <figure class="chart" data-metric=metric.key()>
            <canvas node_ref=canvas width=chart::W height=chart::H class="sources-canvas"></canvas>
            {(!outside.is_empty()).then(|| view! { <figcaption class="hint outside">{outside}</figcaption> })}
        </figure>
    }
}
