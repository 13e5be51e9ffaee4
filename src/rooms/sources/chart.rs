//! The Sources room's panels (plotters): per metric, the human curve d(p_N, p_R) over N with the
//! source's level as a horizontal line crossing it at ν (its interval shaded); and the panel's
//! own curve ν(j) over the number of its annotators j.

use crate::chart::plot::{self, Look, XAxis};
use annosat_core::worth::{Bound, MetricWorth, PanelPoint, WorthMetric};
use plotters::coord::Shift;
use plotters::prelude::*;

pub const W: u32 = 520;
pub const H: u32 = 300;

const LOOK: Look = Look::PANEL;

pub fn title(m: WorthMetric) -> &'static str {
    match m {
        WorthMetric::Jsd => "JS distance to the reference",
        WorthMetric::EntropyCorr => "entropy correlation with the reference",
        WorthMetric::Kl => "KL(p_R ‖ p) in nats",
        WorthMetric::MajorityAgreement => "majority agreement with the reference",
        WorthMetric::SquaredError => "squared error ‖p − p_R‖²",
        WorthMetric::MeanRatingSe => "mean rating's squared error (m − m_R)²",
        WorthMetric::MeanRatingCorr => "mean rating's correlation with the reference",
    }
}

fn y_desc(m: WorthMetric) -> &'static str {
    match m {
        WorthMetric::Jsd => "JS distance (nats, sqrt)",
        WorthMetric::EntropyCorr => "Pearson r",
        WorthMetric::Kl => "KL (nats)",
        WorthMetric::MajorityAgreement => "share of items",
        WorthMetric::SquaredError => "squared error",
        WorthMetric::MeanRatingSe => "scale points²",
        WorthMetric::MeanRatingCorr => "Pearson r",
    }
}

/// The metric's name in sentences.
pub fn label(m: WorthMetric) -> &'static str {
    match m {
        WorthMetric::Jsd => "JS distance",
        WorthMetric::EntropyCorr => "entropy correlation",
        WorthMetric::Kl => "KL",
        WorthMetric::MajorityAgreement => "majority agreement",
        WorthMetric::SquaredError => "squared error",
        WorthMetric::MeanRatingSe => "mean rating's squared error",
        WorthMetric::MeanRatingCorr => "mean rating's correlation",
    }
}

/// The human curve's and the source's colours (the page's key under the charts names them).
pub const BLUE: RGBColor = RGBColor(37, 99, 235);
pub const ORANGE: RGBColor = RGBColor(217, 119, 6);

/// y range of the values with a little room above and below.
fn span(v: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(1e-3);
    (lo - pad, hi + pad)
}

/// The human curve, the source's level and ν.
pub fn draw_worth<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    w: &MetricWorth,
    pool: u32,
) -> Result<(), String> {
    let pts: Vec<(u32, f64)> = w
        .human
        .iter()
        .filter_map(|&(n, v)| v.map(|v| (n, v)))
        .collect();
    if pts.is_empty() {
        return plot::empty(root, "no human curve");
    }
    let x = XAxis {
        x_max: pool.max(2) as f64,
        logx: pool > 20,
    };
    let (lo, hi) = span(pts.iter().map(|p| p.1).chain(w.source));
    let mut chart = plot::frame(
        root,
        LOOK,
        title(w.metric),
        Some(y_desc(w.metric)),
        x,
        (lo, hi),
    )?;
    if let Some(level) = w.source {
        // ν's interval as a shaded column; an open end runs to the axis' end.
        let (a, b) = (
            w.lo.unwrap_or(if w.bound == Some(Bound::Above) {
                pool as f64
            } else {
                1.0
            }),
            w.hi.unwrap_or(if w.bound == Some(Bound::Below) {
                1.0
            } else {
                pool as f64
            }),
        );
        if w.lo.is_some() || w.hi.is_some() {
            let (a, b) = (x.at(a.max(1.0)), x.at(b.clamp(1.0, pool as f64)));
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(a, lo), (b, hi)],
                    ORANGE.mix(0.15).filled(),
                )))
                .map_err(plot::err)?;
        }
        let (x0, x1) = x.range();
        chart
            .draw_series(LineSeries::new(
                [(x0, level), (x1, level)],
                ORANGE.stroke_width(2),
            ))
            .map_err(plot::err)?;
        if let Some(nu) = w.nu {
            let at = x.at(nu);
            chart
                .draw_series(LineSeries::new(
                    [(at, lo), (at, hi)],
                    ORANGE.stroke_width(1),
                ))
                .map_err(plot::err)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (at, level),
                    5,
                    ORANGE.filled(),
                )))
                .map_err(plot::err)?;
        }
    }
    chart
        .draw_series(LineSeries::new(
            pts.iter().map(|&(n, v)| (x.at(n as f64), v)),
            BLUE.stroke_width(2),
        ))
        .map_err(plot::err)?;
    drop(chart);
    root.present().map_err(plot::err)
}

/// ν(j) of a panel over its size j, with the subsets' 2.5–97.5% range.
pub fn draw_panel<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    metric: WorthMetric,
    pts: &[PanelPoint],
    pool: u32,
) -> Result<(), String> {
    let j_max = pts.last().map_or(2, |p| p.j).max(2);
    let vals = |p: &PanelPoint| [p.nu, p.lo, p.hi];
    let (_, hi) = span(pts.iter().flat_map(vals).flatten());
    if pts
        .iter()
        .all(|p| p.nu.is_none() && p.lo.is_none() && p.hi.is_none())
    {
        let side = if pts.iter().all(|p| p.above == 0) {
            "below the curve"
        } else if pts.iter().all(|p| p.below == 0) {
            "above the curve"
        } else {
            "outside the human curve"
        };
        return plot::empty(root, &format!("{}: every size {side}", label(metric)));
    }
    let hi = (hi * 1.1).min(pool as f64 * 1.05).max(1.0);
    let x = XAxis {
        x_max: j_max as f64,
        logx: false,
    };
    let caption = format!("{}: worth ν humans with j of its annotators", label(metric));
    let mut chart = plot::frame_with(
        root,
        LOOK,
        &caption,
        (
            "annotators of the source in the panel, j",
            Some("ν (humans)"),
        ),
        (x, (0.6, j_max as f64 + 0.4)),
        (0.0, hi),
    )?;
    // A size's range: an open lower end (subsets below the curve) runs to 0, an open upper end to
    // the top only when subsets lie above it; a size with every subset below has none.
    let band: Vec<(u32, f64, f64)> = pts
        .iter()
        .filter_map(|p| {
            let top = p.hi.or((p.above > 0).then_some(hi))?;
            Some((p.j, p.lo.unwrap_or(0.0), top))
        })
        .collect();
    // Bars, not a band: panel sizes are few, and a size may have a range without a mean.
    for &(j, lo_j, hi_j) in &band {
        let at = x.at(j as f64);
        let cap = 0.04;
        chart
            .draw_series(LineSeries::new(
                [(at, lo_j), (at, hi_j)],
                BLUE.mix(0.5).stroke_width(6),
            ))
            .map_err(plot::err)?;
        for y in [lo_j, hi_j] {
            chart
                .draw_series(LineSeries::new(
                    [(at - cap, y), (at + cap, y)],
                    BLUE.stroke_width(1),
                ))
                .map_err(plot::err)?;
        }
    }
    chart
        .draw_series(LineSeries::new(
            pts.iter()
                .filter_map(|p| p.nu.map(|nu| (x.at(p.j as f64), nu))),
            BLUE.stroke_width(2),
        ))
        .map_err(plot::err)?;
    chart
        .draw_series(pts.iter().filter_map(|p| {
            p.nu.map(|nu| Circle::new((x.at(p.j as f64), nu), 3, BLUE.filled()))
        }))
        .map_err(plot::err)?;
    drop(chart);
    root.present().map_err(plot::err)
}

/// What a panel chart cannot draw, in words: the sizes where some subsets fall outside the human
/// curve ("j = 1: 7 of 10 subsets below the curve").
pub fn outside(pts: &[PanelPoint]) -> String {
    let parts: Vec<String> = pts
        .iter()
        .filter(|p| p.below + p.above > 0)
        .map(|p| {
            let mut s = format!("j = {}:", p.j);
            if p.below > 0 {
                s.push_str(&format!(
                    " {} of {} subsets below the curve",
                    p.below, p.subsets
                ));
            }
            if p.above > 0 {
                s.push_str(&format!(" {} of {} above it", p.above, p.subsets));
            }
            s
        })
        .collect();
    parts.join("; ")
}
