//! The Plan room's budget in rating terms, for classes read as a scale: the raters per item (and
//! the ratings in all, for the items planned) that a precise or reliable mean takes, and what a
//! given number of ratings buys — from the rating report's basis (`RatingBasis`: the items' mean
//! variance and ICC(1), and their item resamples), as `annosat ratings --budget` answers it.

use crate::state::St;
use annosat_core::ratings::{RatingAnswer, RatingGoal};
use leptos::prelude::*;

/// "34 raters per item, 34000 ratings for 1000 items (95% interval over items 33000–35000)".
fn in_all(a: &RatingAnswer, items: u64) -> String {
    let Some(n) = a.n else {
        return "no number of raters reaches it".into();
    };
    let t = |n: u32| n as u64 * items;
    let ci = match (a.lo, a.hi) {
        (Some(lo), Some(hi)) if lo != hi => {
            format!(" (95% interval over items {}–{})", t(lo), t(hi))
        }
        (Some(lo), None) => format!(
            " (95% interval over items from {}; some resamples never)",
            t(lo)
        ),
        _ => String::new(),
    };
    format!(
        "{n} raters per item, {} ratings for {items} items{ci}",
        t(n)
    )
}

#[component]
pub fn RatingBudgetCard() -> impl IntoView {
    let st = expect_context::<St>();
    let items_in_file = move || {
        st.summary
            .with(|s| s.as_ref().map_or(0, |s| s.items as u64))
    };
    let (eps, rho) = (RwSignal::new(0.1f64), RwSignal::new(0.9f64));
    let items = RwSignal::new(None::<u64>);
    let budget = RwSignal::new(None::<u64>);
    let items_now = move || items.get().unwrap_or_else(items_in_file);
    let budget_now = move || budget.get().unwrap_or_else(|| items_now() * 10);
    let number = |sig: RwSignal<f64>, ok: fn(f64) -> bool| {
        move |ev| {
            if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                if ok(v) {
                    sig.set(v);
                }
            }
        }
    };
    let whole = |sig: RwSignal<Option<u64>>| {
        move |ev| {
            if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                sig.set(Some(v.max(1)));
            }
        }
    };
    let lines = move || {
        st.ratings.report.with(|r| {
            let b = r.as_ref()?.basis.as_ref()?;
            let i = items_now();
            let p = b.answer(RatingGoal::Precision, eps.get());
            let q = b.answer(RatingGoal::Reliability, rho.get());
            Some(vec![
                (
                    "precision",
                    format!(
                        "Each item's mean within ±{} points: {}.",
                        eps.get(),
                        in_all(&p, i)
                    ),
                ),
                (
                    "reliability",
                    format!("The mean reliable at {}: {}.", rho.get(), in_all(&q, i)),
                ),
                ("budget", b.budget(i, budget_now()).sentence),
            ])
        })
    };
    view! {
        <section class="card" id="rating-budget">
            <h3>"Budget in ratings"</h3>
            {move || match lines() {
                None => view! {
                    <p class="small">"For classes read as a scale (the Target room's “Classes read as”): the raters per item a precise or reliable mean takes, and what a number of ratings buys."</p>
                }.into_any(),
                Some(lines) => view! {
                    <p class="small">"From the items' rating variance and single-rater ICC, with 95% intervals over item resamples (docs/ratings.md); past the ratings the file has, extrapolated in closed form."</p>
                    <p class="rb-controls">
                        <label>"Mean within ± " <input type="number" id="rb-eps" step="0.01" min="0.001" prop:value=move || eps.get().to_string() on:change=number(eps, |v| v > 0.0) /> " points"</label>
                        " · "
                        <label>"reliability " <input type="number" id="rb-rho" step="0.01" min="0.01" max="0.99" prop:value=move || rho.get().to_string() on:change=number(rho, |v| v > 0.0 && v < 1.0) /></label>
                        " · "
                        <label>"items " <input type="number" id="rb-items" min="1" prop:value=move || items_now().to_string() on:change=whole(items) /></label>
                        " · "
                        <label>"ratings in all " <input type="number" id="rb-budget" min="1" prop:value=move || budget_now().to_string() on:change=whole(budget) /></label>
                    </p>
                    <ul>
                        {lines.into_iter().map(|(k, s)| view! { <li data-line=k>{s}</li> }).collect::<Vec<_>>()}
                    </ul>
                }.into_any(),
            }}
        </section>
    }
}
