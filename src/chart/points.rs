//! A metric-vs-N panel drawn from points (N, mean, low, high): the mean line, its band, an
//! optional second line (a prediction to set the curve against), an optional labelled point and
//! the N marker for exports. The multilabel and the rating panels are this panel with their own
//! points; the target side's own panels (`chart::curves`) add overlays this one does not have.

use crate::chart::plot::{self, Geom, Look, PointLabel, XAxis};
use plotters::coord::Shift;
use plotters::prelude::*;

pub const W: u32 = 560;
pub const H: u32 = 300;

const LOOK: Look = Look::PANEL;

/// What one panel shows.
pub struct Panel<'a> {
    pub title: &'a str,
    /// (N, mean, low, high) where the mean is defined.
    pub points: Vec<(u32, f64, f64, f64)>,
    /// The x axis' last N.
    pub x_max: u32,
    /// A dashed grey line over the same N (its legend words): a prediction beside the curve.
    pub beside: Option<(&'a str, Vec<(u32, f64)>)>,
    /// A labelled point (the saturation point): N, its words, whether the votes bound it.
    pub point: Option<(u32, String, bool)>,
}

/// Draws `p` with the N marker at `n` (exports) on a linear or log N axis.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &Panel<'_>,
    n: Option<u32>,
    logx: bool,
) -> Result<Geom, String> {
    let beside = p.beside.as_ref().map_or(&[][..], |(_, v)| &v[..]);
    let lo = p
        .points
        .iter()
        .map(|q| q.2)
        .chain(beside.iter().map(|q| q.1))
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let hi = p
        .points
        .iter()
        .map(|q| q.3)
        .chain(beside.iter().map(|q| q.1))
        .fold(f64::NEG_INFINITY, f64::max);
    let hi = if hi > lo {
        hi + 0.05 * (hi - lo)
    } else {
        lo + 1.0
    };
    let x = XAxis {
        x_max: p.x_max as f64,
        logx,
    };
    let mut chart = plot::frame(root, LOOK, p.title, None, x, (lo, hi))?;
    let blue = RGBColor(37, 99, 235);
    let band: Vec<(u32, f64, f64)> = p.points.iter().map(|q| (q.0, q.2, q.3)).collect();
    plot::band(&mut chart, x, &band, blue.mix(0.2))?;
    chart
        .draw_series(LineSeries::new(
            p.points.iter().map(|q| (x.at(q.0 as f64), q.1)),
            blue.stroke_width(2),
        ))
        .map_err(plot::err)?;
    if let Some((words, line)) = &p.beside {
        let grey = RGBColor(100, 100, 100);
        chart
            .draw_series(DashedLineSeries::new(
                line.iter().map(|q| (x.at(q.0 as f64), q.1)),
                5,
                4,
                grey.stroke_width(2),
            ))
            .map_err(plot::err)?
            .label(*words)
            .legend(move |(a, b)| PathElement::new([(a, b), (a + 18, b)], grey.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(210, 210, 210))
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(plot::err)?;
    }
    if let Some((sn, text, bounded)) = &p.point {
        let colour = if *bounded {
            RGBColor(180, 83, 9)
        } else {
            RGBColor(22, 163, 74)
        };
        let label = PointLabel {
            text: text.clone(),
            colour,
            font_px: 13,
            flip_past: 0.5,
        };
        plot::point_marker(&mut chart, x, *sn, label, (lo, hi))?;
    }
    plot::finish(root, chart, x, n, (lo, hi))
}
