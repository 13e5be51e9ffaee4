//! The export's verdicts as a table: per visible arm, KL and entropy correlation — the change from
//! the first to the last N with its 95% interval over test items and splits, what that says
//! (saturates by N, no detectable change, worsens), and the value at the last N with its interval.
//! A pooled export's rows come once over all items and once within each source, because a pooled
//! correlation mixes the sources' differences into it (the note gives a source-only predictor's r).

use super::ModelsSt;
use annosat_core::models::{Manifest, ModelMetric};
use leptos::prelude::*;
use std::sync::Arc;

const SHOWN: [ModelMetric; 2] = [ModelMetric::Kl, ModelMetric::EntropyCorr];

#[component]
pub(super) fn Verdicts(m: Arc<Manifest>) -> impl IntoView {
    let ms = expect_context::<ModelsSt>();
    let nmax = m.ns().last().copied().unwrap_or(1);
    let mut sources: Vec<Option<String>> = vec![None];
    for v in &m.verdicts {
        if v.source.is_some() && !sources.contains(&v.source) {
            sources.push(v.source.clone());
        }
    }
    let pooled = sources.len() > 1;
    let m2 = m.clone();
    let rows = move || {
        let visible = ms.visible.get();
        sources
            .iter()
            .flat_map(|src| {
                let m = m2.clone();
                visible
                    .iter()
                    .filter_map(move |arm| {
                        let v = m.verdict(arm, src.as_deref())?;
                        let cells = SHOWN
                            .iter()
                            .map(|&k| match v.get(k) {
                                None => view! { <td>"–"</td> }.into_any(),
                                Some(x) => view! {
                                    <td data-metric=k.key() data-verdict=x.verdict.key() data-bounded=x.bounded_by.map(|m| m.to_string())>
                                        <b>{x.headline()}</b><br />
                                        <span class="sub">{format!("change {} · {} at N={nmax}", x.change_text(), x.last_text())}</span>
                                    </td>
                                }
                                .into_any(),
                            })
                            .collect_view();
                        let who = src.clone().unwrap_or_else(|| "all items".into());
                        let attr = who.clone();
                        let who = pooled.then_some(view! { <td>{who}</td> });
                        Some(view! { <tr data-arm=arm.clone() data-source=attr><td>{arm.clone()}</td>{who}{cells}</tr> })
                    })
                    .collect::<Vec<_>>()
            })
            .collect_view()
    };
    let note = m.source_only_entropy_corr.map(|r| {
        view! { <p class="note" id="source-only">{format!("A predictor that knows only each item's source (it predicts the source's mean distribution) has an entropy correlation of {r:.3} over all items: a pooled r mixes the sources' difference in ambiguity into it, so read the rows within each source.")}</p> }
    });
    view! {
        <section class="card" id="verdicts">
            <h2>"Does N change anything? N=1 → N=" {nmax}</h2>
            <p class="hint">"Each change comes with its 95% interval from a paired bootstrap (test items resampled within their split or fold, splits resampled as blocks; the same items at every N). Saturates: the interval excludes 0 in the improving direction, and the N capturing 90% of the change is given with its own interval — unless the curve ends below 100 votes and that N lies past the first fifth of them: then it is forced by the votes, and the table says so instead. Otherwise the data show no change, or a change for the worse, and no point is given. Half the change interval's width is about the smallest change these test items can detect."</p>
            {note}
            <div class="table-wrap"><table class="movers" id="verdict-table">
                <thead>
                    <tr><th>"arm"</th>{pooled.then_some(view! { <th>"items"</th> })}<th>"KL"</th><th>"entropy correlation"</th></tr>
                </thead>
                <tbody>{rows}</tbody>
            </table></div>
        </section>
    }
}
