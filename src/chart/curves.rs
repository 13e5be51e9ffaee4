//! A target-side metric-vs-N panel (plotters): the mean over repeats, its 95% band (over items when
//! the item bootstrap is given, else over repeats), a marker at N and the labelled point where x% of
//! the improvement is captured. One drawing function serves the canvas and the SVG export, for the
//! Target room's panels and the Plan room's extrapolated ones (a shell module, so neither room
//! reaches into the other).

use crate::chart::plot::{self, Geom, Look, XAxis};
use annosat_core::answer::Extrapolated;
use annosat_core::curves::{Curves, ItemBands, Metric, Saturation};
use plotters::coord::Shift;
use plotters::prelude::*;

pub const W: u32 = 640;
pub const H: u32 = 340;

pub fn title(m: Metric) -> &'static str {
    match m {
        Metric::Jsd => "JS distance to p_full (lower is closer)",
        Metric::EntropyCorr => "entropy correlation (ranking items by ambiguity)",
        Metric::Kl => "KL(p_full ‖ p̃_N) in nats (distribution match)",
        Metric::MajorityAgreement => "majority agreement with p_full",
    }
}

pub(crate) fn y_desc(m: Metric) -> &'static str {
    match m {
        Metric::Jsd => "JS distance (nats, sqrt)",
        Metric::EntropyCorr => "Pearson r",
        Metric::Kl => "KL (nats)",
        Metric::MajorityAgreement => "share of items",
    }
}

/// The big target-side panels (the Plan room's panels too).
pub(crate) const LOOK: Look = Look::PANEL;

/// The curve a bounded metric's headline is read from, drawn over the within-data one: the
/// extrapolated curves, their item band, and the headline's point with its interval.
pub struct Overlay<'a> {
    pub curves: &'a Curves,
    pub bands: Option<&'a ItemBands>,
    pub answer: &'a Extrapolated,
}

/// Draws one panel, with the red N marker when `n` is given (exports; on the page the marker is an
/// element over the canvas, so dragging N redraws nothing); the band is over items when `items`
/// is given, else over repeats; `overlay` adds the extrapolated curve the headline is read from.
/// Errors are plotters'.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &Curves,
    m: Metric,
    n: Option<u32>,
    (sat, items, bounded): (Saturation, Option<&ItemBands>, bool),
    logx: bool,
    overlay: Option<&Overlay>,
) -> Result<Geom, String> {
    let pts = banded(c, m, items);
    let ext = overlay.map(|o| banded(o.curves, m, o.bands));
    let all = || pts.iter().chain(ext.iter().flatten());
    let lo = all()
        .filter_map(|p| p.lo)
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let hi = all().filter_map(|p| p.hi).fold(f64::NEG_INFINITY, f64::max);
    let hi = if hi > lo {
        hi + 0.05 * (hi - lo)
    } else {
        lo + 1.0
    };
    let x_max = overlay
        .and_then(|o| o.curves.grid.last())
        .max(c.grid.last())
        .copied()
        .unwrap_or(1);
    let x = XAxis {
        x_max: x_max as f64,
        logx,
    };
    let mut chart = plot::frame(root, LOOK, title(m), Some(y_desc(m)), x, (lo, hi))?;
    mean_with_band(&mut chart, x, &pts, (RGBColor(37, 99, 235), 0.2))?;
    if let (Some(o), Some(ext)) = (overlay, &ext) {
        draw_overlay(&mut chart, x, o, ext, (lo, hi))?;
    }
    if let Some(sn) = sat.n {
        let text = if bounded {
            format!("{:.0}% by N={sn}, bounded by the votes", sat.x * 100.0)
        } else {
            format!("{:.0}% by N={sn}", sat.x * 100.0)
        };
        let label = plot::PointLabel {
            text,
            colour: RGBColor(22, 163, 74),
            font_px: 14,
            flip_past: 0.6,
        };
        plot::point_marker(&mut chart, x, sn, label, (lo, hi))?;
    }
    plot::finish(root, chart, x, n, (lo, hi))
}

/// A metric's points with the band over items where `items` is given (else over repeats).
fn banded(
    c: &Curves,
    m: Metric,
    items: Option<&ItemBands>,
) -> Vec<annosat_core::curves::CurvePoint> {
    c.points(m)
        .into_iter()
        .enumerate()
        .filter(|(_, p)| p.mean.is_some())
        .map(|(g, mut p)| {
            if let Some(b) = items {
                (p.lo, p.hi) = b.band(m, g);
            }
            p
        })
        .collect()
}

/// A mean curve in `colour` over its band (the colour at `alpha`).
fn mean_with_band<DB: DrawingBackend>(
    chart: &mut plot::Chart<'_, DB>,
    x: XAxis,
    pts: &[annosat_core::curves::CurvePoint],
    (colour, alpha): (RGBColor, f64),
) -> Result<(), String> {
    let band: Vec<(u32, f64, f64)> = pts
        .iter()
        .map(|p| (p.n, p.lo.unwrap_or(0.0), p.hi.unwrap_or(0.0)))
        .collect();
    plot::band(chart, x, &band, colour.mix(alpha))?;
    chart
        .draw_series(LineSeries::new(
            pts.iter()
                .map(|p| (x.at(p.n as f64), p.mean.unwrap_or(0.0))),
            colour.stroke_width(2),
        ))
        .map_err(plot::err)?;
    Ok(())
}

/// The extrapolated curve in orange with its band, and the headline's point with its interval as
/// a shaded column.
fn draw_overlay<DB: DrawingBackend>(
    chart: &mut plot::Chart<'_, DB>,
    x: XAxis,
    o: &Overlay,
    pts: &[annosat_core::curves::CurvePoint],
    (lo, hi): (f64, f64),
) -> Result<(), String> {
    let orange = RGBColor(234, 88, 12);
    let point = &o.answer.answer.point;
    if let Some(iv) = &point.items {
        let a = x.at(iv.lo.unwrap_or(1) as f64);
        let b = x.at(iv.hi.map_or(x.x_max, |h| h as f64));
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(a, lo), (b, hi)],
                orange.mix(0.08).filled(),
            )))
            .map_err(plot::err)?;
    }
    mean_with_band(chart, x, pts, (orange, 0.15))?;
    if let Some(pn) = point.n {
        let text = match point.items.and_then(|iv| iv.lo.zip(iv.hi)) {
            Some((a, b)) => format!("extrapolated: about {pn} ({a}–{b})"),
            None => format!("extrapolated: about {pn}"),
        };
        let label = plot::PointLabel {
            text,
            colour: orange,
            font_px: 14,
            flip_past: 0.6,
        };
        // Below the within-data label, so the two never overlap.
        plot::point_marker(chart, x, pn, label, (lo, hi - 0.08 * (hi - lo)))?;
    }
    Ok(())
}
