//! The target-side room: how far the labels themselves are from their full-vote value — the status
//! line (progress, time left, Stop), the saturation summary, readouts, four metric panels
//! (chart.rs) and the per-item view (items.rs).

mod answer;
pub mod chart;
mod items;
mod multilabel;
mod ratings;

use crate::chart::curves::title;
use crate::state::{St, Status, REPEATS, SYNTHETIC};
use annosat_core::curves::Metric;
use answer::AnswerCard;
use chart::CurveChart;
use items::ItemsView;
use leptos::prelude::*;
use multilabel::MultilabelView;
use ratings::{RatingsView, ScaleToggle};

#[component]
pub fn TargetRoom() -> impl IntoView {
    let st = expect_context::<St>();
    let multilabel = move || {
        st.summary
            .with(|s| s.as_ref().is_some_and(|s| s.multilabel))
    };
    view! {
        <StatusLine />
        <Show when=multilabel fallback=|| view! {
            <ScaleToggle />
            <RatingsView />
            <AnswerCard />
            <Readouts />
            <BandToggle />
            <section class="charts">
                <CurveChart metric=Metric::Kl />
                <CurveChart metric=Metric::EntropyCorr />
                <CurveChart metric=Metric::Jsd />
                <CurveChart metric=Metric::MajorityAgreement />
            </section>
            <ItemsView />
        }>
            <MultilabelView />
        </Show>
    }
}

#[component]
fn StatusLine() -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        match st.status.get() {
        Status::Idle => {
            let items = st
                .curves
                .with(|c| c.as_ref().map(|c| c.items.first().copied().unwrap_or(0)))
                .or_else(|| st.ml.with(|r| r.as_ref().map(|r| r.items.first().copied().unwrap_or(0))))
                .unwrap_or(0);
            // Multilabel curves run in one worker.
            let workers = if st.ml.with(|r| r.is_some()) { 1 } else { crate::bridge::size() };
            let intervals = match st.took.bands_ms.get() {
                ms if ms > 0.0 && st.bands.with(|b| b.is_some()) => {
                    format!(", the item intervals after {ms:.0} ms")
                }
                _ => st
                    .ml
                    .with(|r| r.as_ref().and_then(|r| r.bootstrap))
                    .map(|b| format!(", with the intervals of {} item resamples", b.resamples))
                    .unwrap_or_default(),
            };
            let text = format!(
                "{}{items} items, {REPEATS} repeats per N, seed {}; computed in {:.0} ms in {workers} worker{}{intervals}.",
                if st.dataset.get() == SYNTHETIC {
                    "Synthetic data (generated here, not human labels): "
                } else {
                    ""
                },
                st.seed.get(),
                st.took.curves_ms.get(),
                if workers == 1 { "" } else { "s" }
            );
            view! { <p class="status" id="status" data-state="idle">{text}</p> }.into_any()
        }
        Status::Busy { stage, done, since } => {
            let what = match stage.as_str() {
                "parse" => "reading the file",
                "compute" => "computing the curves",
                "intervals" => "curves drawn; item intervals (resampling the items)",
                "ratings" => "curves drawn; the rating curves (on the scale)",
                "annotators" => "item intervals drawn; the annotators' share (leaving out groups of annotators in turn)",
                other => other,
            };
            let text = format!("{what}… {:.0}%{}", done * 100.0, crate::room_jobs::time_left(done, since));
            view! {
                <p class="status" id="status" data-state="busy">{text}
                    <progress max="1" value=done></progress>
                    <button id="stop" class="link" on:click=move |_| st.stop()>"Stop"</button>
                </p>
            }
            .into_any()
        }
        Status::Stopped(text) => view! {
            <p class="status" id="status" data-state="stopped">{text} " "
                <button id="compute-again" class="link" on:click=move |_| st.compute()>"Compute again"</button>
            </p>
        }
        .into_any(),
        Status::Failed(e) => {
            view! { <p class="error" id="status" data-state="error" role="alert"><bdi>{e}</bdi></p> }
                .into_any()
        }
    }
    }
}

/// Whether the panels' band is over items (the item bootstrap) or over repeats (the single-label
/// and the multilabel panels alike).
#[component]
pub(super) fn BandToggle() -> impl IntoView {
    let st = expect_context::<St>();
    view! {
        <p class="band-toggle">
            <label>
                <input type="checkbox" id="item-band" prop:checked=move || st.target.item_band.get()
                    on:change=move |ev| st.target.item_band.set(event_target_checked(&ev)) />
                " Band: 95% over items (unticked: over repeats)"
            </label>
        </p>
    }
}

fn fmt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}"))
        .unwrap_or_else(|| "undefined".into())
}

#[component]
fn Readouts() -> impl IntoView {
    let st = expect_context::<St>();
    let one = move |m: Metric| {
        let point = move || {
            st.curves
                .with(|c| c.as_ref().and_then(|c| c.point(m, st.n.get())))
        };
        let raw = move || {
            point()
                .and_then(|p| p.mean)
                .map(|v| v.to_string())
                .unwrap_or_default()
        };
        let items = move || {
            let n = st.n.get();
            let g = st
                .curves
                .with(|c| c.as_ref().and_then(|c| c.grid.iter().position(|&x| x == n)))?;
            st.bands
                .with(|b| b.as_ref().map(|b| b.band(m, g)))
                .filter(|(lo, _)| lo.is_some())
                .map(|(lo, hi)| format!("; items [{}, {}]", fmt(lo), fmt(hi)))
        };
        let ci = move || match point() {
            Some(p) if p.lo.is_some() => {
                format!(
                    "95% of repeats in [{}, {}]{}",
                    fmt(p.lo),
                    fmt(p.hi),
                    items().unwrap_or_default()
                )
            }
            Some(_) => "undefined: every subsampled entropy is 0 at N = 1".to_string(),
            None => "no curves for this data yet".to_string(),
        };
        view! {
            <button class="readout" class:selected=move || st.metric.get() == m data-metric=m.name() data-value=raw
                on:click=move |_| st.metric.set(m) title=title(m)>
                <span class="metric">{m.name()}</span>
                <span class="value">{move || if point().is_some() { fmt(point().and_then(|p| p.mean)) } else { "—".into() }}</span>
                <span class="ci">{ci}</span>
            </button>
        }
    };
    view! { <section class="readouts">{Metric::ALL.map(one).to_vec()}</section> }
}
