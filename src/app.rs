//! The page: title, what saturation means, the N slider, readouts and two curve panels.

use crate::chart::CurveChart;
use crate::data::{self, Loaded};
use annosat_core::curves::Metric;
use leptos::prelude::*;

#[derive(Clone)]
enum State {
    Loading,
    Failed(String),
    Ready(Loaded),
}

/// The default dataset: ChaosNLI SNLI, 1,514 items with 100 votes each.
const DEFAULT_DATASET: &str = "chaosnli_snli";

#[component]
pub fn App() -> impl IntoView {
    let (state, set_state) = signal(State::Loading);
    leptos::task::spawn_local(async move {
        set_state.set(match data::load(DEFAULT_DATASET).await {
            Ok(l) => State::Ready(l),
            Err(e) => State::Failed(e),
        });
    });
    view! {
        <header>
            <h1>"annosat"</h1>
            <p class="tagline">"How many annotators per item does your metric need?"</p>
        </header>
        <p class="lede">
            "Subsample each item's votes to N annotators and compare the resulting label distribution "
            "with the full one. A metric has saturated once more annotators stop changing it. Kohli "
            "(2026, arXiv 2605.29797) found on ChaosNLI that distribution match (KL) saturates by about "
            "N=10, while ranking items by ambiguity (entropy correlation) needs N of 20–50."
        </p>
        {move || match state.get() {
            State::Loading => view! { <p class="status" id="status">"Loading ChaosNLI-SNLI and computing curves…"</p> }.into_any(),
            State::Failed(e) => view! { <p class="error" id="status" role="alert">{e}</p> }.into_any(),
            State::Ready(l) => view! { <Explorer loaded=l /> }.into_any(),
        }}
    }
}

fn fmt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}"))
        .unwrap_or_else(|| "undefined".into())
}

#[component]
fn Explorer(loaded: Loaded) -> impl IntoView {
    let curves = loaded.curves.clone();
    let max_n = *curves.grid.last().unwrap_or(&1);
    let (n, set_n) = signal(data::n_from_url().unwrap_or(10).clamp(1, max_n));
    let readout = move |m: Metric| {
        let curves = curves.clone();
        let point = move || curves.point(m, n.get());
        let raw = {
            let point = point.clone();
            move || {
                point()
                    .and_then(|p| p.mean)
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            }
        };
        let shown = {
            let point = point.clone();
            move || fmt(point().and_then(|p| p.mean))
        };
        let ci = move || match point() {
            Some(p) if p.lo.is_some() => {
                format!("95% of repeats in [{}, {}]", fmt(p.lo), fmt(p.hi))
            }
            _ => "undefined: every subsampled entropy is 0 at N = 1".to_string(),
        };
        view! {
            <div class="readout" data-metric=m.name() data-value=raw>
                <span class="metric">{m.name()}</span>
                <span class="value">{shown}</span>
                <span class="ci">{ci}</span>
            </div>
        }
    };
    let summary = format!(
        "{}: {} items, classes {}; {} repeats, seed {}; computed in {:.0} ms in this browser.",
        loaded.name,
        loaded.items,
        loaded.classes.join(" / "),
        data::REPEATS,
        data::SEED,
        loaded.compute_ms
    );
    view! {
        <section class="controls">
            <label for="n-slider">"Annotators per item, N = " <output id="n-value">{move || n.get()}</output></label>
            <input
                id="n-slider"
                type="range"
                min="1"
                max=max_n.to_string()
                step="1"
                prop:value=move || n.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                        set_n.set(v.clamp(1, max_n));
                    }
                }
            />
            <p class="summary" id="summary">{summary}</p>
        </section>
        <section class="readouts">
            {readout(Metric::Jsd)}
            {readout(Metric::EntropyCorr)}
            {readout(Metric::Kl)}
            {readout(Metric::MajorityAgreement)}
        </section>
        <section class="charts">
            <CurveChart curves=loaded.curves.clone() metric=Metric::Jsd n=n />
            <CurveChart curves=loaded.curves.clone() metric=Metric::EntropyCorr n=n />
        </section>
    }
}
