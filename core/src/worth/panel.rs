//! A source with several annotators (an LLM judge panel, a crowd with worker ids): ν by panel size
//! j — the panel's own saturation curve — and each annotator's own ν.

use super::human::HumanSplit;
use super::{measure, MetricWorth, Prepared, WorthConfig, WorthMetric};
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

/// ν of a panel of j of its J annotators, per metric: `panel.<metric> = [{j, nu, lo, hi}]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PanelPoint {
    pub j: u32,
    /// Mean over the subsets; `lo`, `hi` their 2.5th and 97.5th percentiles (a subset whose ν is
    /// bounded counts at that end: `None` there).
    pub nu: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    /// Subsets measured, and how many were below or above the human curve.
    pub subsets: u32,
    pub below: u32,
    pub above: u32,
}

/// A panel's saturation curve ν_m(j) and each annotator's own ν_m (which judge is worth most, for
/// which metric).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Panel {
    pub annotators: Vec<String>,
    pub curve: Vec<(WorthMetric, Vec<PanelPoint>)>,
    /// Per annotator (in `annotators` order), its ν per metric with intervals.
    pub each: Vec<Vec<MetricWorth>>,
}

/// Each panel member covers at least this share of the source's items: judges, not a crowd.
pub const PANEL_COVERAGE: f64 = 0.5;

/// A panel needs per-annotator rows (long format or judge files), at least two annotators (a
/// gold file is one), and each of them on at least [`PANEL_COVERAGE`] of the items: a crowd of
/// workers each on a few items is one source, not a "panel of 253" ([`crowd`] summarises it).
pub(super) fn is_panel(source: &VoteTable) -> bool {
    let per = items_per_annotator(source);
    per.len() >= 2
        && per
            .iter()
            .all(|&n| n as f64 >= PANEL_COVERAGE * source.num_items() as f64)
}

/// Distinct items each annotator labelled (empty without per-annotator rows).
fn items_per_annotator(source: &VoteTable) -> Vec<u32> {
    let mut seen: Vec<(u32, u32)> = source
        .annotations()
        .iter()
        .map(|a| (a.annotator, a.item))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    let mut per = vec![0u32; source.annotator_ids().len()];
    for (a, _) in seen {
        per[a as usize] += 1;
    }
    per
}

/// How a source with annotator ids that is not a panel spreads over its workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crowd {
    pub workers: u32,
    /// Items per worker: fewest, median, most.
    pub min: u32,
    pub median: u32,
    pub max: u32,
}

impl Crowd {
    /// "a crowd of 253 workers (1–40 items each, median 3): measured as one source".
    pub fn words(&self) -> String {
        format!(
            "a crowd of {} workers ({}–{} items each, median {}): measured as one source; a panel view needs every annotator on at least {:.0}% of the items",
            self.workers,
            self.min,
            self.max,
            self.median,
            PANEL_COVERAGE * 100.0
        )
    }
}

/// The spread of a source's workers, for a source with annotator ids that is not a panel.
pub fn crowd(source: &VoteTable) -> Option<Crowd> {
    let mut per = items_per_annotator(source);
    if per.len() < 2 || is_panel(source) {
        return None;
    }
    per.sort_unstable();
    Some(Crowd {
        workers: per.len() as u32,
        min: per[0],
        median: per[per.len() / 2],
        max: per[per.len() - 1],
    })
}

/// The panel view: for j = 1..J, `subsets` seeded random sets of j annotators (without
/// replacement); and every annotator alone, with item-resample intervals. Each is measured
/// against the human side of the items it labelled (the shared one where that is all of them).
pub(super) fn panel_of(
    humans: &VoteTable,
    source: &VoteTable,
    p: &Prepared,
    splits: &[HumanSplit],
    cfg: &WorthConfig,
    subsets: u32,
    progress: &mut dyn FnMut(f64),
) -> Panel {
    let map = super::class_map(humans.classes(), source.classes()).expect("checked by match_items");
    // Per kept item: its (annotator, class) votes.
    let at = super::rows_by_id(p.s.item_ids());
    let mut votes: Vec<Vec<(u32, usize)>> = vec![Vec::new(); p.s.num_items()];
    for a in source.annotations() {
        if let Some(&i) = at.get(source.item_ids()[a.item as usize].as_str()) {
            votes[i].push((a.annotator, map[a.label as usize]));
        }
    }
    let k = humans.num_classes();
    let count = |i: usize, who: &[bool]| -> Option<Vec<u32>> {
        let mut c = vec![0u32; k];
        for &(a, l) in &votes[i] {
            if who[a as usize] {
                c[l] += 1;
            }
        }
        (c.iter().sum::<u32>() > 0).then_some(c)
    };
    let na = source.annotator_ids().len();
    let steps = (na + na * subsets as usize) as f64;
    let mut done = 0.0;
    let mut step = |progress: &mut dyn FnMut(f64)| {
        done += 1.0;
        progress(done / steps);
    };
    // Who is read against the human curve of the items they labelled, not of all items: an
    // annotator who skipped the hardest half would otherwise look worth more than one person.
    let on_their_items = |who: &[bool], cfg: &WorthConfig, resampled: bool| {
        let rows: Vec<usize> = (0..p.s.num_items())
            .filter(|&i| count(i, who).is_some())
            .collect();
        if rows.len() == p.s.num_items() {
            return measure::measure(splits, &|i| count(i, who), resampled).metrics;
        }
        match super::human::prepare(&super::select(&p.h, &rows), cfg, &mut |_| {}) {
            Ok(own) => measure::measure(&own, &|i| count(rows[i], who), resampled).metrics,
            // Too few of their items to split: nothing to say about them.
            Err(_) => measure::measure(splits, &|_| None, false).metrics,
        }
    };
    let each = (0..na)
        .map(|a| {
            let who: Vec<bool> = (0..na).map(|b| b == a).collect();
            let m = on_their_items(&who, cfg, true);
            step(progress);
            m
        })
        .collect();
    // The panel curve reads each subset's mean ν only: its human curves need no resamples.
    let plain = WorthConfig {
        bootstrap: 0,
        ..cfg.clone()
    };
    let metrics = cfg.metrics();
    let mut curve: Vec<(WorthMetric, Vec<PanelPoint>)> =
        metrics.iter().map(|&m| (m, Vec::new())).collect();
    for j in 1..=na {
        let mut per_metric: Vec<Vec<f64>> = vec![Vec::new(); metrics.len()];
        for r in 0..subsets {
            let mut order: Vec<usize> = (0..na).collect();
            let mut rng = crate::sample::stream(cfg.seed, 0x3E_71, j as u64, r as u64);
            crate::sample::partial_shuffle(&mut order, j, &mut rng);
            let mut who = vec![false; na];
            for &a in &order[..j] {
                who[a] = true;
            }
            let m = on_their_items(&who, &plain, false);
            step(progress);
            for (mi, w) in m.iter().enumerate() {
                per_metric[mi].push(measure::as_number((w.nu, w.bound)));
            }
        }
        for (mi, v) in per_metric.iter_mut().enumerate() {
            v.retain(|x| !x.is_nan());
            v.sort_by(f64::total_cmp);
            let finite: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
            let (lo, hi) = measure::ends(v);
            curve[mi].1.push(PanelPoint {
                j: j as u32,
                nu: (!finite.is_empty() && finite.len() == v.len())
                    .then(|| finite.iter().sum::<f64>() / finite.len() as f64),
                lo,
                hi,
                subsets: v.len() as u32,
                below: v.iter().filter(|x| **x == f64::NEG_INFINITY).count() as u32,
                above: v.iter().filter(|x| **x == f64::INFINITY).count() as u32,
            });
        }
    }
    Panel {
        annotators: source.annotator_ids().to_vec(),
        curve,
        each,
    }
}
