//! One metric-vs-N panel drawn with plotters on a canvas: the mean line, its 95% band over repeats,
//! and a marker at the current N.

use annosat_core::curves::{Curves, Metric};
use leptos::html;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::sync::Arc;

fn y_label(m: Metric) -> &'static str {
    match m {
        Metric::Jsd => "JS distance to p_full",
        Metric::EntropyCorr => "Pearson r of H(p_N) vs H(p_full)",
        Metric::Kl => "KL(p_full ‖ p̃_N) (nats)",
        Metric::MajorityAgreement => "majority agreement (share)",
    }
}

fn draw(
    canvas: web_sys::HtmlCanvasElement,
    curves: &Curves,
    m: Metric,
    n: u32,
) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or("no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let pts = curves.points(m);
    let defined: Vec<_> = pts.iter().filter(|p| p.mean.is_some()).collect();
    let lo = defined
        .iter()
        .filter_map(|p| p.lo)
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let hi = defined
        .iter()
        .filter_map(|p| p.hi)
        .fold(f64::NEG_INFINITY, f64::max);
    let hi = if hi > lo { hi * 1.05 } else { lo + 1.0 };
    let x_max = *curves.grid.last().unwrap_or(&1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(m.name(), ("sans-serif", 18))
        .margin(12)
        .margin_right(24)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(1f64..x_max, lo..hi)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("annotators per item (N)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .y_desc(y_label(m))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(|e| e.to_string())?;
    let blue = RGBColor(37, 99, 235);
    let band: Vec<(f64, f64)> = defined
        .iter()
        .map(|p| (p.n as f64, p.hi.unwrap()))
        .chain(defined.iter().rev().map(|p| (p.n as f64, p.lo.unwrap())))
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(band, blue.mix(0.18))))
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(LineSeries::new(
            defined.iter().map(|p| (p.n as f64, p.mean.unwrap())),
            blue.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?;
    let red = RGBColor(220, 38, 38);
    chart
        .draw_series(LineSeries::new(
            [(n as f64, lo), (n as f64, hi)],
            red.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

#[component]
pub fn CurveChart(curves: Arc<Curves>, metric: Metric, n: ReadSignal<u32>) -> impl IntoView {
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let n = n.get();
        if let Some(c) = canvas.get() {
            if let Err(e) = draw(c, &curves, metric, n) {
                leptos::logging::error!("chart {}: {e}", metric.name());
            }
        }
    });
    view! {
        <figure class="chart">
            <canvas node_ref=canvas width="640" height="340" data-metric=metric.name()></canvas>
        </figure>
    }
}
