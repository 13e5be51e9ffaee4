//! One multilabel model-side panel: a metric against N for every arm of a `multilabel.json` export —
//! the mean over model seeds, its 95% band over the test items (a k-fold sweep: every item once),
//! and the constant baseline dashed.

use super::chart::colour;
use crate::chart::plot::{self, Geom, Look, XAxis};
use annosat_core::multilabel::export::MlExport;
use annosat_core::multilabel::models::MlModelMetric;
use plotters::coord::Shift;
use plotters::prelude::*;

pub const W: u32 = 460;
pub const H: u32 = 300;

const LOOK: Look = Look::MODEL;

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    e: &MlExport,
    metric: MlModelMetric,
    n: Option<u32>,
) -> Result<Geom, String> {
    let ev = &e.evaluation;
    let curves: Vec<_> = ev.curves.iter().filter(|c| c.metric == metric).collect();
    let values = curves
        .iter()
        .flat_map(|c| c.lo.iter().chain(&c.hi).chain(&c.mean))
        .filter_map(|v| *v);
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    if !lo.is_finite() {
        plot::empty(root, "undefined for every arm")?;
        return Err("nothing to draw".into());
    }
    let pad = 0.06 * (hi - lo).max(1e-6);
    let (lo, hi) = (lo - pad, hi + pad);
    let x = XAxis {
        x_max: ev.ns.last().copied().unwrap_or(1) as f64,
        logx: false,
    };
    let mut chart = plot::frame(root, LOOK, metric.title(), None, x, (lo, hi))?;
    for c in &curves {
        let col = colour(&c.arm);
        let pts: Vec<(u32, f64)> = ev
            .ns
            .iter()
            .zip(&c.mean)
            .filter_map(|(&n, m)| Some((n, (*m)?)))
            .collect();
        if c.arm == "constant" {
            chart
                .draw_series(DashedLineSeries::new(
                    pts.iter().map(|&(n, v)| (x.at(n as f64), v)),
                    6,
                    4,
                    col.stroke_width(2),
                ))
                .map_err(plot::err)?;
            continue;
        }
        let band: Vec<(u32, f64, f64)> = ev
            .ns
            .iter()
            .zip(c.lo.iter().zip(&c.hi))
            .filter_map(|(&n, (l, h))| Some((n, (*l)?, (*h)?)))
            .collect();
        plot::band(&mut chart, x, &band, col.mix(0.15))?;
        chart
            .draw_series(LineSeries::new(
                pts.iter().map(|&(n, v)| (x.at(n as f64), v)),
                col.stroke_width(2),
            ))
            .map_err(plot::err)?;
        chart
            .draw_series(
                pts.iter()
                    .map(|&(n, v)| Circle::new((x.at(n as f64), v), 3, col.filled())),
            )
            .map_err(plot::err)?;
    }
    plot::finish(root, chart, x, n, (lo, hi))
}
