//! The Target room's metric panels on the page: what each panel draws, its tooltip, and its
//! exports, all through the chart module (`chart::curves` draws, `chart::figure` paints and
//! downloads).

use crate::chart::curves::{draw, title, Overlay, H, W};
use crate::chart::figure;
use crate::chart::plot::Geom;
use crate::state::St;
use annosat_core::answer::Extrapolated;
use annosat_core::curves::Curves;
use annosat_core::curves::{ItemBands, Metric, Saturation};
use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};
use std::sync::Arc;

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
    // Everything the panel draws, read once (tracked in the Effect, untracked in the exports).
    let shown = move || {
        let bands = st.target.item_band.get().then(|| st.bands.get()).flatten();
        let (over, b, logx) = (overlay(), bounded.get(), st.logx.get());
        let (c, s) = st.curves.get().zip(sat.get())?;
        Some(Shown {
            c,
            s,
            bands,
            over,
            bounded: b,
            logx,
        })
    };
    // The panel is drawn when the curves, x or the axis change — not when N moves: the N marker is
    // an element laid over the canvas (a slider step then costs no drawing at all).
    Effect::new(move |_| {
        let shown = shown();
        let Some(el) = canvas.get() else { return };
        // No curves for the data shown (new data, a computation stopped or failed): the panel
        // says so.
        let draw = shown.map(|v| move |root: &_| v.draw(root, metric, None));
        let (what, note) = (
            format!("chart {}", metric.name()),
            "no curves for this data yet",
        );
        figure::paint_panel(el, &what, geom, note, draw);
    });
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
    let file = move |ext: &str| st.export_name(metric.name(), ext);
    let export_png = move |_| {
        let (Some(el), Some(v)) = (canvas.get(), untrack(shown)) else {
            return;
        };
        figure::download_png(&el, &file("png"), st.n.get_untracked(), |n| {
            figure::paint(el.clone(), "PNG export", |root| v.draw(root, metric, n));
        });
    };
    let export_svg = move |_| {
        let Some(v) = untrack(shown) else { return };
        let n = Some(st.n.get_untracked());
        figure::download_svg((W, H), &file("svg"), |root| {
            let _ = v.draw(root, metric, n);
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
            {figure::caption(export_png, export_svg)}
        </figure>
    }
}

/// What one panel shows: the curves, their saturation, bands, the headline's extrapolation.
struct Shown {
    c: Arc<Curves>,
    s: Saturation,
    bands: Option<Arc<ItemBands>>,
    over: Option<(Arc<crate::plan_jobs::PlanResult>, Extrapolated)>,
    bounded: bool,
    logx: bool,
}

impl Shown {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        metric: Metric,
        n: Option<u32>,
    ) -> Result<Geom, String> {
        let inputs = (self.s, self.bands.as_deref(), self.bounded);
        let over = as_overlay(&self.over);
        draw(root, &self.c, metric, n, inputs, self.logx, over.as_ref())
    }
}

/// The drawing's view of the headline's extrapolation for this panel.
fn as_overlay(
    over: &Option<(Arc<crate::plan_jobs::PlanResult>, Extrapolated)>,
) -> Option<Overlay<'_>> {
    over.as_ref().map(|(r, e)| Overlay {
        curves: &r.curves,
        bands: r.bands.as_ref(),
        answer: e,
    })
}
