//! A chart's place on the page, shared by every panel with an N marker: the canvas, the marker at
//! the slider's N over it (from the `plot::Geom` the last drawing returned), and the SVG export
//! that draws the same chart into a file. The drawing itself stays in the chart's module.

use crate::chart::plot::Geom;
use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

/// The N marker over a chart of `size` pixels, where `geom` says N lies.
pub fn marker(
    geom: RwSignal<Option<Geom>>,
    n: RwSignal<u32>,
    size: (u32, u32),
) -> impl Fn() -> Option<AnyView> + Copy {
    move || {
        geom.get().map(|g| {
            view! { <div class="n-marker" style=g.marker_style(n.get(), size)></div> }.into_any()
        })
    }
}

/// Draws with `draw` on an SVG canvas of `size` pixels and downloads it as `file`.
pub fn download_svg(
    size: (u32, u32),
    file: &str,
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>),
) {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root);
    }
    crate::export::download_text(&svg, "image/svg+xml", file);
}

/// A panel with only an SVG export: `canvas` (`size` pixels) under `key` and `title`, the N
/// marker from `geom` at `n`, and the SVG button: `draw` paints the panel with the marker at N
/// (`None`: nothing to export) into the file `file()` names.
pub fn svg_figure(
    (key, title): (&'static str, &'static str),
    size: (u32, u32),
    canvas: NodeRef<html::Canvas>,
    (geom, n): (RwSignal<Option<Geom>>, RwSignal<u32>),
    file: impl Fn() -> String + 'static,
    draw: impl Fn(&DrawingArea<SVGBackend<'_>, Shift>, u32) -> Option<()> + 'static,
) -> impl IntoView {
    let marker = marker(geom, n, size);
    let export = move || {
        let mut svg = String::new();
        let drawn = {
            let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            draw(&root, n.get_untracked())
        };
        if drawn.is_some() {
            crate::export::download_text(&svg, "image/svg+xml", &file());
        }
    };
    view! {
        <figure class="chart" data-metric=key>
            <div class="chart-wrap">
                <canvas node_ref=canvas width=size.0.to_string() height=size.1.to_string()
                    data-metric=key aria-label=title></canvas>
                {marker}
            </div>
            <figcaption>
                <button class="link" on:click=move |_| export() data-export="svg">"SVG"</button>
            </figcaption>
        </figure>
    }
}

/// Paints `el` with `draw` (a fresh plotters canvas each time); a drawing error is logged under
/// `what` (a panel keeps what it drew before). `None` when the canvas has no 2-d context or the
/// drawing failed.
pub fn paint<T, E: std::fmt::Display>(
    el: web_sys::HtmlCanvasElement,
    what: &str,
    draw: impl FnOnce(&DrawingArea<CanvasBackend, Shift>) -> Result<T, E>,
) -> Option<T> {
    let backend = CanvasBackend::with_canvas_object(el)?;
    match draw(&backend.into_drawing_area()) {
        Ok(t) => Some(t),
        Err(e) => {
            leptos::logging::error!("{what}: {e}");
            None
        }
    }
}

/// Downloads the canvas `el` as a PNG named `file` with the N marker drawn in: `redraw(Some(n))`
/// paints it with the marker, the PNG is taken, and `redraw(None)` paints it back (the page's
/// marker is an element over the canvas, not part of the drawing).
pub fn download_png(
    el: &web_sys::HtmlCanvasElement,
    file: &str,
    n: u32,
    redraw: impl Fn(Option<u32>),
) {
    redraw(Some(n));
    if let Ok(url) = el.to_data_url() {
        crate::export::download_url(&url, file);
    }
    redraw(None);
}

/// Paints a panel with an N marker: `draw` when there is something to draw (the `Geom` it returns
/// placed in `geom` for the marker), else the empty panel saying `note` and no marker — a panel
/// never keeps the last dataset's drawing.
pub fn paint_panel<E: std::fmt::Display>(
    el: web_sys::HtmlCanvasElement,
    what: &str,
    geom: RwSignal<Option<Geom>>,
    note: &str,
    draw: Option<impl FnOnce(&DrawingArea<CanvasBackend, Shift>) -> Result<Geom, E>>,
) {
    match draw {
        Some(draw) => {
            if let Some(g) = paint(el, what, draw) {
                geom.set(Some(g));
            }
        }
        None => {
            geom.set(None);
            paint(el, what, |root| crate::chart::plot::empty(root, note));
        }
    }
}

/// A [`points`](crate::chart::points) panel on the page under `key` and `title`: the canvas,
/// redrawn when what `panel` reads (tracked) or the axis `logx` changes, the N marker at `n`, and
/// the PNG and SVG downloads (the marker drawn in) into `file(ext)`. `panel` gives `None` while
/// there is nothing to draw; the panel then says so.
pub fn points_figure(
    (key, title): (&'static str, &'static str),
    (n, logx): (RwSignal<u32>, RwSignal<bool>),
    file: impl Fn(&str) -> String + Copy + Send + Sync + 'static,
    panel: impl Fn() -> Option<crate::chart::points::Panel<'static>> + Copy + Send + Sync + 'static,
) -> impl IntoView {
    use crate::chart::points::{draw, H, W};
    let canvas = NodeRef::<html::Canvas>::new();
    let geom = RwSignal::new(None::<Geom>);
    Effect::new(move |_| {
        let (p, lx) = (panel(), logx.get());
        let Some(el) = canvas.get() else { return };
        let draw = p.map(|p| move |root: &_| draw(root, &p, None, lx));
        paint_panel(
            el,
            &format!("chart {key}"),
            geom,
            "no curves for this data yet",
            draw,
        );
    });
    let export_png = move |_| {
        let (Some(el), Some(p)) = (canvas.get_untracked(), untrack(panel)) else {
            return;
        };
        let lx = logx.get_untracked();
        download_png(&el, &file("png"), n.get_untracked(), |at| {
            paint(el.clone(), "PNG export", |root| draw(root, &p, at, lx));
        });
    };
    let export_svg = move |_| {
        let Some(p) = untrack(panel) else { return };
        let (at, lx) = (Some(n.get_untracked()), logx.get_untracked());
        download_svg((W, H), &file("svg"), |root| {
            let _ = draw(root, &p, at, lx);
        });
    };
    let marker = marker(geom, n, (W, H));
    view! {
        <figure class="chart" data-metric=key>
            <div class="chart-wrap">
                <canvas node_ref=canvas width=W.to_string() height=H.to_string()
                    data-metric=key aria-label=title></canvas>
                {marker}
            </div>
            {caption(export_png, export_svg)}
        </figure>
    }
}

/// A panel's caption: its PNG and SVG download buttons.
pub fn caption(
    png: impl Fn(web_sys::MouseEvent) + 'static,
    svg: impl Fn(web_sys::MouseEvent) + 'static,
) -> impl IntoView {
    view! {
        <figcaption>
            <button class="link" on:click=png data-export="png">"PNG"</button>
            <button class="link" on:click=svg data-export="svg">"SVG"</button>
        </figcaption>
    }
}
