//! The Target room's metric panels on the page: what each panel draws, its tooltip, and its
//! exports, all through the chart module (`chart::curves` draws, `chart::figure` paints and
//! downloads).

use crate::chart::curves::{draw, title, Overlay, H, W};
use crate::chart::figure;
use crate::chart::plot::Geom;
use crate::state::St;
use annosat_core::curves::Metric;
use leptos::html;
use leptos::prelude::*;

fn fmt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}"))
        .unwrap_or_else(|| "undefined".into())
}

#[component]
pub fn CurveChart(metric: Metric) -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    let geom = RwSignal::new(None::<Geom>);
    let (tip, set_tip) = signal(None::<(f64, String)>);
    // Depends on x and the curves only, so dragging N does not recompute it for every redraw.
    let sat = Memo::new(move |_| {
        let x = st.x.get() as f64 / 100.0;
        st.curves
            .with(|c| c.as_ref().map(|c| c.saturation(metric, x)))
    });
    let bounded = Memo::new(move |_| st.bounded(metric));
    // A bounded metric's headline is read off the extrapolated curves: drawn over the panel.
    let overlay = move || {
        if !bounded.get() {
            return None;
        }
        st.extrapolated()
            .map(|(r, mut e)| (r, e.swap_remove(metric as usize)))
    };
    let overlay_untracked = move || untrack(overlay);
    // The panel is drawn when the curves, x or the axis change — not when N moves: the N marker is
    // an element laid over the canvas (a slider step then costs no drawing at all).
    {
        Effect::new(move |_| {
            let (logx, s) = (st.logx.get(), sat.get());
            let Some(el) = canvas.get() else { return };
            let bands = st.target.item_band.get().then(|| st.bands.get()).flatten();
            let (over, b) = (overlay(), bounded.get());
            let draw = st.curves.get().zip(s).map(|(c, s)| {
                move |root: &_| {
                    let inputs = (s, bands.as_deref(), b);
                    draw(
                        root,
                        &c,
                        metric,
                        None,
                        inputs,
                        logx,
                        as_overlay(&over).as_ref(),
                    )
                }
            });
            // No curves for the data shown (new data, a computation stopped or failed): the panel
            // says so.
            let (what, note) = (
                format!("chart {}", metric.name()),
                "no curves for this data yet",
            );
            figure::paint_panel(el, &what, geom, note, draw);
        });
    }
    // The red N marker over the canvas, placed in percent of the canvas (which CSS scales).
    let marker = figure::marker(geom, st.n, (W, H));
    let on_move = {
        move |ev: web_sys::MouseEvent| {
            let Some(el) = canvas.get() else { return };
            let Some(g) = geom.get_untracked() else {
                return;
            };
            let scale = el.width() as f64 / el.client_width().max(1) as f64;
            let px = ev.offset_x() as f64 * scale;
            let Some(c) = st.curves.get_untracked() else {
                return;
            };
            let n = g.n_at(px).round().max(1.0) as u32;
            let items = st.bands.with_untracked(|b| {
                let g = c.grid.iter().position(|&x| x == n)?;
                let (lo, hi) = b.as_ref()?.band(metric, g);
                Some(format!("; items {} – {}", fmt(lo), fmt(hi)))
            });
            let text = match c.point(metric, n) {
                Some(p) => format!(
                    "N={n}: {} (95% of repeats: {} – {}{})",
                    fmt(p.mean),
                    fmt(p.lo),
                    fmt(p.hi),
                    items.unwrap_or_default()
                ),
                None => format!("N={n}: no data"),
            };
            set_tip.set(Some((ev.offset_x() as f64, text)));
        }
    };
    // What the exports draw: the panel as shown, with the N marker drawn in.
    let bands_untracked = move || {
        let items = st.target.item_band.get_untracked();
        items.then(|| st.bands.get_untracked()).flatten()
    };
    let file = move |ext: &str| {
        let dataset = st.dataset.get_untracked();
        format!("annosat-{dataset}-{}.{ext}", metric.name())
    };
    let export_png = move |_| {
        let (Some(el), Some(c), Some(s)) =
            (canvas.get(), st.curves.get_untracked(), sat.get_untracked())
        else {
            return;
        };
        let (logx, bands, over) = (
            st.logx.get_untracked(),
            bands_untracked(),
            overlay_untracked(),
        );
        figure::download_png(&el, &file("png"), st.n.get_untracked(), |n| {
            figure::paint(el.clone(), "PNG export", |root| {
                let inputs = (s, bands.as_deref(), bounded.get_untracked());
                draw(
                    root,
                    &c,
                    metric,
                    n,
                    inputs,
                    logx,
                    as_overlay(&over).as_ref(),
                )
            });
        });
    };
    let export_svg = move |_| {
        let (Some(c), Some(s)) = (st.curves.get_untracked(), sat.get_untracked()) else {
            return;
        };
        let (logx, bands, over) = (
            st.logx.get_untracked(),
            bands_untracked(),
            overlay_untracked(),
        );
        figure::download_svg((W, H), &file("svg"), |root| {
            let inputs = (s, bands.as_deref(), bounded.get_untracked());
            let n = Some(st.n.get_untracked());
            let _ = draw(
                root,
                &c,
                metric,
                n,
                inputs,
                logx,
                as_overlay(&over).as_ref(),
            );
        });
    };
    let selected = move || st.metric.get() == metric;
    view! {
        <figure class="chart" class:selected=selected data-metric=metric.name()>
            <div class="chart-wrap">
                <canvas
                    node_ref=canvas
                    width=W.to_string()
                    height=H.to_string()
                    data-metric=metric.name()
                    aria-label=title(metric)
                    on:mousemove=on_move
                    on:mouseleave=move |_| set_tip.set(None)
                    on:click=move |_| st.metric.set(metric)
                ></canvas>
                {marker}
                {move || tip.get().map(|(x, t)| view! { <div class="tooltip" style=format!("left:{x:.0}px")>{t}</div> })}
            </div>
            <figcaption>
                <button class="link" on:click=export_png data-export="png">"PNG"</button>
                <button class="link" on:click=export_svg data-export="svg">"SVG"</button>
            </figcaption>
        </figure>
    }
}

/// The drawing's view of the headline's extrapolation for this panel.
fn as_overlay(
    over: &Option<(
        std::sync::Arc<crate::plan_jobs::PlanResult>,
        annosat_core::answer::Extrapolated,
    )>,
) -> Option<Overlay<'_>> {
    over.as_ref().map(|(r, e)| Overlay {
        curves: &r.curves,
        bands: r.bands.as_ref(),
        answer: e,
    })
}
