//! A chart's place on the page, shared by every panel with an N marker: the canvas, the marker at
//! the slider's N over it (from the `plot::Geom` the last drawing returned), and the SVG export
//! that draws the same chart into a file. The drawing itself stays in the chart's module.

use crate::plot::Geom;
use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;

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

/// A panel with only an SVG export: `canvas` (`size` pixels) under `key` and `title`, the marker,
/// and the SVG button calling `export`.
pub fn svg_figure(
    (key, title): (&'static str, &'static str),
    size: (u32, u32),
    canvas: NodeRef<html::Canvas>,
    marker: impl Fn() -> Option<AnyView> + Copy + Send + Sync + 'static,
    export: impl Fn() + 'static,
) -> impl IntoView {
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
