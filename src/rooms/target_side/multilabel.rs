//! The Target room for multilabel votes (each annotator may tick several labels): the answer per
//! metric in words, readouts at the slider's N, one panel per metric and the per-label table —
//! all from the core's `MlReport`, the report `annosat curves` prints as JSON.

use crate::chart::figure;
use crate::chart::multilabel::panel;
use crate::state::St;
use annosat_core::multilabel::MlMetric;
use leptos::prelude::*;

fn fmt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}"))
        .unwrap_or_else(|| "undefined".into())
}

#[component]
pub fn MultilabelView() -> impl IntoView {
    let st = expect_context::<St>();
    // The saturation share changed: the report is for another x, so it is computed again.
    Effect::new(move |_| {
        let x = st.x.get() as f64 / 100.0;
        let stale = st
            .ml
            .with_untracked(|r| r.as_ref().is_some_and(|r| (r.target - x).abs() > 1e-9));
        if stale {
            st.compute();
        }
    });
    view! {
        <MlAnswer />
        <MlReadouts />
        <super::BandToggle />
        <section class="charts ml-charts">
            {MlMetric::ALL.into_iter().map(|m| view! { <MlChart metric=m /> }).collect::<Vec<_>>()}
        </section>
        <MlLabels />
    }
}

#[component]
fn MlAnswer() -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        st.ml.get().map(|r| {
            let votes = r.metrics.first().map_or(0, |m| m.saturation.votes);
            let bounded = r.metrics.iter().filter(|m| m.saturation.bounded_by_votes).count();
            let lede = format!(
                "Multilabel votes: {} labels, each annotator may tick any number of them. How close N annotators' per-label shares come to all {votes}, per metric. {} of {} points are bounded by the votes: against the items' own {votes} votes every curve ends at its best at N = {votes}, so a point past N = {} says more about the vote count than about the metric.",
                r.labels.len(),
                bounded,
                r.metrics.len(),
                votes / 5
            );
            view! {
                <section class="card answer" id="ml-answer">
                    <p>{lede}</p>
                    <ul>
                        {r.metrics.iter().map(|m| view! {
                            <li data-metric=m.metric.name() data-n=m.saturation.n.map(|n| n.to_string()).unwrap_or_default()
                                data-bounded=m.saturation.bounded_by_votes.to_string()>{m.sentence.clone()}</li>
                        }).collect::<Vec<_>>()}
                    </ul>
                </section>
            }
        })
    }
}

#[component]
fn MlReadouts() -> impl IntoView {
    let st = expect_context::<St>();
    let one = move |m: MlMetric| {
        let point = move || {
            let n = st.n.get();
            st.ml.with(|r| {
                r.as_ref()
                    .and_then(|r| r.metric(m).points.iter().find(|p| p.point.n == n).copied())
            })
        };
        let raw = move || {
            point()
                .and_then(|p| p.point.mean)
                .map(|v| v.to_string())
                .unwrap_or_default()
        };
        let ci = move || match point() {
            Some(p) if p.point.lo.is_some() => {
                let items = p
                    .items_lo
                    .map(|lo| format!("; items [{}, {}]", fmt(Some(lo)), fmt(p.items_hi)))
                    .unwrap_or_default();
                format!(
                    "95% of repeats in [{}, {}]{items}",
                    fmt(p.point.lo),
                    fmt(p.point.hi)
                )
            }
            Some(_) => "undefined: every subsampled entropy is 0 at N = 1".to_string(),
            None => "no curves for this data yet".to_string(),
        };
        view! {
            <div class="readout" data-metric=m.name() data-value=raw title=m.title()>
                <span class="metric">{m.name()}</span>
                <span class="value">{move || point().map_or("—".into(), |p| fmt(p.point.mean))}</span>
                <span class="ci">{ci}</span>
            </div>
        }
    };
    view! { <section class="readouts ml-readouts">{MlMetric::ALL.into_iter().map(one).collect::<Vec<_>>()}</section> }
}

#[component]
fn MlChart(metric: MlMetric) -> impl IntoView {
    let st = expect_context::<St>();
    let file = move |ext: &str| st.export_name(metric.name(), ext);
    let panel = move || {
        let items = st.target.item_band.get();
        st.ml
            .with(|r| r.as_ref().map(|r| panel(r.metric(metric), items)))
    };
    figure::points_figure(
        (metric.name(), metric.title()),
        (st.n, st.logx),
        file,
        panel,
    )
}

/// Per label: how common it is and where its own JS distance saturates (which labels need more
/// annotators), with its F1 at the slider's N.
#[component]
fn MlLabels() -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        st.ml.get().map(|r| {
            let n = st.n.get();
            let mut rows: Vec<_> = r.per_label.iter().collect();
            rows.sort_by(|a, b| b.mean_share.total_cmp(&a.mean_share));
            let rows = rows
                .into_iter()
                .map(|l| {
                    let s = &l.saturation;
                    let items = s
                        .items
                        .map(|i| {
                            let end = |v: Option<u32>| v.map_or("past the grid".into(), |v| v.to_string());
                            if i.lo == i.hi {
                                format!(" (items {})", end(i.lo))
                            } else {
                                format!(" (items {}–{})", end(i.lo), end(i.hi))
                            }
                        })
                        .unwrap_or_default();
                    let point = match s.n {
                        Some(p) if s.bounded_by_votes => format!("N = {p}{items}, bounded by the votes"),
                        Some(p) => format!("N = {p}{items}"),
                        None => "not reached".into(),
                    };
                    let at = |pts: &[annosat_core::multilabel::MlPoint]| {
                        fmt(pts.iter().find(|p| p.n == n).and_then(|p| p.mean))
                    };
                    view! {
                        <tr data-label=l.label.clone()>
                            <td><bdi>{l.label.clone()}</bdi></td>
                            <td class="num">{format!("{:.3}", l.mean_share)}</td>
                            <td class="num">{l.majority_items}</td>
                            <td class="num">{at(&l.jsd)}</td>
                            <td class="num">{at(&l.f1)}</td>
                            <td>{point}</td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>();
            let pct = (r.target * 100.0).round();
            view! {
                <section class="card ml-labels" id="ml-labels">
                    <h3>"Per label"</h3>
                    <table>
                        <thead><tr>
                            <th>"label"</th><th>"mean share"</th><th>"majority items"</th>
                            <th>{format!("JS distance at N = {n}")}</th><th>{format!("F1 at N = {n}")}</th>
                            <th>{format!("{pct}% of its JS distance's improvement by")}</th>
                        </tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </section>
            }
        })
    }
}
