//! One model-side panel: a metric against N for every visible arm — mean line, min–max band over
//! runs (model seeds × split seeds), a dot where the arm captures x% of its change — only where the
//! export's verdict says the change is detectable in the improving direction — and a marker
//! at the slider's N; the constant and kNN baselines as dashed lines; runs trained in this tab
//! (train.rs) as hollow diamonds.

use crate::chart::plot::{self, Geom, Look, XAxis};
use annosat_core::models::{captured_at, Manifest, ModelMetric};
use plotters::coord::Shift;
use plotters::prelude::*;

pub const W: u32 = 460;
pub const H: u32 = 300;

/// A fixed colour per arm, so toggling arms never repaints the others.
pub fn colour(arm: &str) -> RGBColor {
    match arm {
        "hard" => RGBColor(31, 41, 55),
        "ls0.05" => RGBColor(253, 186, 116),
        "ls0.1" => RGBColor(249, 115, 22),
        "ls0.2" => RGBColor(234, 88, 12),
        "ls0.3" => RGBColor(194, 65, 12),
        "ls0.5" => RGBColor(124, 45, 18),
        "soft" => RGBColor(37, 99, 235),
        "dirichlet" => RGBColor(22, 163, 74),
        "sls" => RGBColor(147, 51, 234),
        "multipass" => RGBColor(219, 39, 119),
        "smoothed" => RGBColor(234, 88, 12),
        "temp_hard" => RGBColor(107, 114, 128),
        "deterministic" => RGBColor(13, 148, 136),
        "shuffled_sls" => RGBColor(202, 138, 4),
        "constant" => RGBColor(120, 120, 120),
        "knn" => RGBColor(30, 30, 30),
        _ => RGBColor(100, 100, 100),
    }
}

/// Baselines are drawn dashed and without a band, so they read as reference lines, not arms.
pub fn is_baseline(arm: &str) -> bool {
    matches!(arm, "constant" | "knn")
}

pub fn css(arm: &str) -> String {
    let c = colour(arm);
    format!("rgb({},{},{})", c.0, c.1, c.2)
}

/// The Models room's smaller panels.
const LOOK: Look = Look::MODEL;

/// Draws one panel, with the N marker when `n` is given (on the page it is an element over the
/// canvas instead); returns where the plotting area is.
#[allow(clippy::too_many_arguments)]
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    m: &Manifest,
    metric: ModelMetric,
    arms: &[String],
    here: &[(String, u32, f64)],
    n: Option<u32>,
    x: f64,
    logx: bool,
) -> Result<Geom, String> {
    let curves: Vec<_> = arms.iter().map(|a| (a, m.curve(a, metric))).collect();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (_, c) in &curves {
        for p in c {
            lo = lo.min(p.min);
            hi = hi.max(p.max);
        }
    }
    for (_, _, v) in here {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.06).max(1e-3);
    let (lo, hi) = (lo - pad, hi + pad);
    let axis = XAxis {
        x_max: m.ns().last().copied().unwrap_or(1).max(2) as f64,
        logx,
    };
    let mut chart = plot::frame(root, LOOK, metric.label(), None, axis, (lo, hi))?;
    for (arm, c) in &curves {
        let col = colour(arm);
        let line = c.iter().map(|p| (axis.at(p.n as f64), p.mean));
        if is_baseline(arm) {
            chart
                .draw_series(DashedLineSeries::new(line, 6, 4, col.stroke_width(2)))
                .map_err(plot::err)?;
        } else {
            let band: Vec<(u32, f64, f64)> = c.iter().map(|p| (p.n, p.min, p.max)).collect();
            plot::band(&mut chart, axis, &band, col.mix(0.12))?;
            chart
                .draw_series(LineSeries::new(line, col.stroke_width(2)))
                .map_err(plot::err)?;
        }
        // A baseline has a verdict too: its dot where it saturates, like an arm's.
        let saturates = m
            .verdict(arm, None)
            .and_then(|v| v.get(metric))
            .is_some_and(|v| v.has_point());
        if let Some(at) = captured_at(c, x).filter(|_| saturates) {
            if let Some(p) = c.iter().find(|p| p.n == at) {
                chart
                    .draw_series(std::iter::once(Circle::new(
                        (axis.at(at as f64), p.mean),
                        5,
                        col.filled(),
                    )))
                    .map_err(plot::err)?;
            }
        }
    }
    // Trained here: a hollow diamond per run, in its arm's colour (also for arms not shown).
    for (arm, at, v) in here {
        let col = colour(arm);
        let (x0, y0) = (axis.at(*at as f64), *v);
        chart
            .draw_series(std::iter::once(
                EmptyElement::at((x0, y0))
                    + Polygon::new(vec![(0, -7), (7, 0), (0, 7), (-7, 0)], WHITE.filled())
                    + PathElement::new(
                        vec![(0, -7), (7, 0), (0, 7), (-7, 0), (0, -7)],
                        col.stroke_width(2),
                    ),
            ))
            .map_err(plot::err)?;
    }
    plot::finish(root, chart, axis, n, (lo, hi))
}
