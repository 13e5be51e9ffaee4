//! A multilabel metric-vs-N panel: the core's `MlReport` (what the CLI's JSON holds) as a
//! [`points`](crate::chart::points) panel — the band over items when asked and bootstrapped, else
//! over repeats, and the labelled point where x% of the improvement is captured.

use crate::chart::points::Panel;
use annosat_core::multilabel::report::MetricReport;

/// One metric's panel; the band is over items when `items` (and the report has it), else over
/// repeats.
pub fn panel(m: &MetricReport, items: bool) -> Panel<'static> {
    let points = m
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
    let s = &m.saturation;
    let point = s.n.map(|sn| {
        let bounded = if s.bounded_by_votes { " (bounded)" } else { "" };
        (
            sn,
            format!("{:.0}% by N={sn}{bounded}", s.x * 100.0),
            s.bounded_by_votes,
        )
    });
    Panel {
        title: m.metric.title(),
        points,
        x_max: m.points.last().map_or(1, |p| p.point.n),
        beside: None,
        point,
    }
}
