//! A multilabel metric-vs-N panel (plotters): the mean over repeats, its 95% band (over items when
//! asked and bootstrapped, else over repeats), a marker at N for exports, and the labelled point
//! where x% of the improvement is captured — the multilabel twin of `curve_chart`, drawn from the
//! core's `MlReport` (what the CLI's JSON holds).

use crate::chart::plot::{self, Geom, Look, XAxis};
use annosat_core::multilabel::report::MetricReport;
use plotters::coord::Shift;
use plotters::prelude::*;

pub const W: u32 = 560;
pub const H: u32 = 300;

const LOOK: Look = Look::PANEL;

/// Draws one panel; the band is over items when `items` (and the report has it), else over
/// repeats. Errors are plotters'.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    m: &MetricReport,
    items: bool,
    n: Option<u32>,
    logx: bool,
) -> Result<Geom, String> {
    let pts: Vec<(u32, f64, f64, f64)> = m
        .points
        .iter()
        .filter_map(|p| {
            let mean = p.point.mean?;
            let (lo, hi) = if items && p.items_lo.is_some() {
                (p.items_lo, p.items_hi)
            } else {
                (p.point.lo, p.point.hi)
            };
            Some((p.point.n, mean, lo.unwrap_or(mean), hi.unwrap_or(mean)))
        })
        .collect();
    let lo = pts
        .iter()
        .map(|p| p.2)
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let hi = pts.iter().map(|p| p.3).fold(f64::NEG_INFINITY, f64::max);
    let hi = if hi > lo {
        hi + 0.05 * (hi - lo)
    } else {
        lo + 1.0
    };
    let x = XAxis {
        x_max: m.points.last().map_or(1, |p| p.point.n) as f64,
        logx,
    };
    let mut chart = plot::frame(root, LOOK, m.metric.title(), None, x, (lo, hi))?;
    let blue = RGBColor(37, 99, 235);
    let band: Vec<(u32, f64, f64)> = pts.iter().map(|p| (p.0, p.2, p.3)).collect();
    plot::band(&mut chart, x, &band, blue.mix(0.2))?;
    chart
        .draw_series(LineSeries::new(
            pts.iter().map(|p| (x.at(p.0 as f64), p.1)),
            blue.stroke_width(2),
        ))
        .map_err(plot::err)?;
    let s = &m.saturation;
    if let Some(sn) = s.n {
        let (text, colour) = if s.bounded_by_votes {
            (
                format!("{:.0}% by N={sn} (bounded)", s.x * 100.0),
                RGBColor(180, 83, 9),
            )
        } else {
            (
                format!("{:.0}% by N={sn}", s.x * 100.0),
                RGBColor(22, 163, 74),
            )
        };
        let label = plot::PointLabel {
            text,
            colour,
            font_px: 13,
            flip_past: 0.5,
        };
        plot::point_marker(&mut chart, x, sn, label, (lo, hi))?;
    }
    plot::finish(root, chart, x, n, (lo, hi))
}
