//! The model side per label, under a multilabel export's panels: for each label, soft's and hard's
//! SoftBCE at the largest N against the label's floor, whether it changes with N (the verdict, so
//! labels that improve late show a late point or "bounded by your votes"), and both arms' F1 — all
//! read from the export's `per_label` curves.

use annosat_core::multilabel::export::MlExport;
use annosat_core::multilabel::model_labels::{MlLabelCurve, MlLabelMetric};
use leptos::prelude::*;
use std::sync::Arc;

fn find<'a>(
    e: &'a MlExport,
    arm: &str,
    label: usize,
    m: MlLabelMetric,
) -> Option<&'a MlLabelCurve> {
    e.per_label
        .iter()
        .find(|c| c.arm == arm && c.label == label && c.metric == m)
}

#[component]
pub(super) fn MlLabelTable(e: Arc<MlExport>) -> impl IntoView {
    if e.per_label.is_empty() {
        return ().into_any();
    }
    let last = e.evaluation.ns.last().copied().unwrap_or(0);
    let cell = |arm: &'static str, l: usize, m: MlLabelMetric, with_n: bool| {
        let c = find(&e, arm, l, m);
        // "0.377 [0.366, 0.389]": the value, its interval on a second line.
        let value = c.map_or("—".into(), |c| c.verdict.last_text());
        let (head, band) = match value.split_once(' ') {
            Some((h, b)) => (h.to_string(), b.to_string()),
            None => (value.clone(), String::new()),
        };
        let verdict = c.map_or(String::new(), |c| c.verdict.verdict.key().to_string());
        let words = c.map_or(String::new(), |c| match c.verdict.bounded_by {
            Some(b) => format!("improves; bounded by your {b} votes"),
            None => c.verdict.headline(),
        });
        let bounded = c
            .and_then(|c| c.verdict.bounded_by)
            .map_or(String::new(), |b| b.to_string());
        view! {
            <td class="num" data-arm=arm data-metric=m.name() data-verdict=verdict.clone() data-bounded=bounded>{head}" "<span class="sub">{band}</span></td>
            {with_n.then(|| view! { <td class="verdict" data-arm=arm data-verdict=verdict>{words}</td> })}
        }
    };
    let rows = e
        .labels
        .iter()
        .enumerate()
        .map(|(l, name)| {
            let floor = e
                .label_floors
                .get(l)
                .map_or("—".into(), |f| format!("{f:.3}"));
            view! {
                <tr data-label=name.clone()>
                    <td>{name.clone()}</td>
                    <td class="num">{floor}</td>
                    {cell("soft", l, MlLabelMetric::SoftBce, true)}
                    {cell("hard", l, MlLabelMetric::SoftBce, true)}
                    {cell("constant", l, MlLabelMetric::SoftBce, false)}
                    {cell("soft", l, MlLabelMetric::F1, false)}
                    {cell("hard", l, MlLabelMetric::F1, false)}
                </tr>
            }
        })
        .collect::<Vec<_>>();
    view! {
        <section class="card ml-labels" id="ml-model-labels">
            <h3>"Per label: which labels a head learns with more annotators"</h3>
            <p class="status">{format!(
                "SoftBCE and F1 of each label at N = {last}, with 95% intervals over the same item resamples; \"with N\" is the verdict on the N = {} → {last} change. \
                 The floor is the label's mean full-vote entropy: the SoftBCE of a head that predicts every share exactly.",
                e.evaluation.ns.first().copied().unwrap_or(0)
            )}</p>
            <table class="ml-model-labels">
                <thead>
                    <tr>
                        <th rowspan="2">"label"</th><th rowspan="2">"floor"</th>
                        <th colspan="5">{format!("SoftBCE at N = {last} (lower is better), and its change with N")}</th>
                        <th colspan="2">{format!("F1 at N = {last}")}</th>
                    </tr>
                    <tr>
                        <th>"soft"</th><th>"with N"</th><th>"hard"</th><th>"with N"</th><th>"constant"</th>
                        <th>"soft"</th><th>"hard"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
    .into_any()
}
