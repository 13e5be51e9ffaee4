//! The Models room's paired comparison of two arms at the slider's N (wins, mean difference,
//! sign and t tests over the (split, model seed) units), and for each metric the link to the
//! Plan room's comparison of the same two arms: the votes per item it would take to see the
//! difference in an evaluation with human votes (`compare_jobs`).

use super::{chart, grid_n, ModelsSt};
use crate::state::St;
use annosat_core::models::{paired, Manifest, ModelMetric};
use annosat_core::power::PowerMetric;
use leptos::prelude::*;
use std::sync::Arc;

fn p_fmt(p: Option<f64>) -> String {
    match p {
        None => "–".into(),
        Some(p) if p < 0.001 => "<0.001".into(),
        Some(p) => format!("{p:.3}"),
    }
}

/// The model-side metric's counterpart in an evaluation with human votes, where there is one.
fn evaluated(k: ModelMetric) -> Option<PowerMetric> {
    match k {
        ModelMetric::Kl => Some(PowerMetric::Kl),
        ModelMetric::EntropyCorr => Some(PowerMetric::EntropyCorr),
        ModelMetric::Accuracy => Some(PowerMetric::Accuracy),
        _ => None,
    }
}

#[component]
pub(super) fn Compare(m: Arc<Manifest>, own: bool, path: String) -> impl IntoView {
    let st = expect_context::<St>();
    let ms = expect_context::<ModelsSt>();
    let arms = m.arms();
    // The Plan room compares arms of the dataset's own export against its votes.
    let exports = expect_context::<crate::data::Exports>();
    let dataset = st.dataset.get_untracked();
    let linkable = !own
        && exports.list.with_untracked(|e| match e {
            Some(Ok(list)) => {
                crate::data::pick_export(list, &dataset, false).is_some_and(|e| e.path == path)
            }
            _ => false,
        });
    let select = move |sig: RwSignal<String>, id: &'static str| {
        let opts = arms
            .iter()
            .map(|a| {
                let a2 = a.clone();
                view! { <option value=a.clone() selected=move || sig.get() == a2>{a.clone()}</option> }
            })
            .collect_view();
        view! { <select id=id on:change=move |ev| sig.set(event_target_value(&ev))>{opts}</select> }
    };
    // Arms this manifest does not have (own data trains only the checked ones): compare the first
    // two it has, preferring soft against a non-baseline.
    let have = m.arms();
    let pick = |want: &str, not: &str| {
        if have.iter().any(|a| a == want) {
            return want.to_string();
        }
        have.iter()
            .find(|a| *a != not && !chart::is_baseline(a))
            .or_else(|| have.iter().find(|a| *a != not))
            .cloned()
            .unwrap_or_default()
    };
    let a0 = pick(&ms.cmp_a.get_untracked(), "");
    let b0 = pick(&ms.cmp_b.get_untracked(), &a0);
    if a0 != ms.cmp_a.get_untracked() {
        ms.cmp_a.set(a0.clone());
    }
    if b0 != ms.cmp_b.get_untracked() {
        ms.cmp_b.set(b0);
    }
    let sel_a = select(ms.cmp_a, "cmp-a");
    let sel_b = select(ms.cmp_b, "cmp-b");
    let m2 = m.clone();
    let n_at = move || grid_n(&m2, st.n.get());
    let rows = move || {
        let n = grid_n(&m, st.n.get());
        let (a, b) = (ms.cmp_a.get(), ms.cmp_b.get());
        ModelMetric::ALL
            .into_iter()
            .filter(|&k| k.compared())
            .map(|k| {
                let mean = |arm: &str| {
                    m.curve(arm, k).into_iter().find(|p| p.n == n).map(|p| format!("{:.4}", p.mean)).unwrap_or_else(|| "–".into())
                };
                let (a2, b2) = (a.clone(), b.clone());
                let link = evaluated(k).filter(|_| linkable).map(|pm| {
                    let go = move |_| {
                        st.compare.open((a2.clone(), b2.clone()), n, pm);
                        st.room.set(crate::state::Room::Plan);
                    };
                    let title = format!("{a} vs {b} on {}: the votes per item an evaluation with human votes needs to see it", k.label());
                    view! { <button class="link cmp-votes" data-metric=k.key() title=title on:click=go>"votes per item to see it →"</button> }
                });
                match paired(&m, &a, &b, n, k) {
                    Some(p) => view! {
                        <tr data-metric=k.key()>
                            <td>{k.label()}</td><td>{mean(&a)}</td><td>{mean(&b)}</td>
                            <td class="wins">{format!("{}–{}–{}", p.wins, p.losses, p.ties)}</td>
                            <td>{format!("{:+.4}", p.mean_diff)}</td><td>{p_fmt(Some(p.p_sign))}</td><td>{p_fmt(p.p_t)}</td>
                            <td>{link}</td>
                        </tr>
                    }.into_any(),
                    None if m.units().len() > 1 => view! { <tr data-metric=k.key()><td>{k.label()}</td><td>{mean(&a)}</td><td>{mean(&b)}</td><td colspan="4">"undefined in every paired run (too few test items per fold or split for this metric)"</td><td>{link}</td></tr> }.into_any(),
                    None => view! { <tr data-metric=k.key()><td>{k.label()}</td><td colspan="6">"no paired runs"</td><td></td></tr> }.into_any(),
                }
            })
            .collect_view()
    };
    view! {
        <section class="card compare" id="compare">
            <h2>"Paired comparison at N = " <span id="cmp-n">{n_at}</span></h2>
            <p class="hint">"Arms at one (split seed, model seed) share the item split, initialisation, minibatch order and vote subsample: each is a paired unit. Wins count units where the first arm is better (lower, or higher for entropy correlation, RES and accuracy); p from the exact sign test and the paired t-test. N snaps to the trained grid at or below the slider."</p>
            <div class="row">{sel_a}" vs "{sel_b}</div>
            <div class="table-wrap">
                <table class="movers" id="compare-table">
                    <thead><tr><th>"metric"</th><th>"first"</th><th>"second"</th><th>"wins–losses–ties"</th><th>"mean diff"</th><th>"p (sign)"</th><th>"p (t)"</th><th>"in an evaluation"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}
