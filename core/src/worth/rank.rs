//! Which of your annotators pull their weight: each person of a long file read in typical
//! annotators, against the others on the items they labelled.
//!
//! For annotator a: the source is a's votes; the human side is everyone else's votes on the items
//! a labelled (split by annotator, as `worth` splits files with ids). So a's ν is "how many of
//! the others' votes a's one vote is worth" on a's own items: about 1 for a typical annotator,
//! below 1 for a careless one. An annotator is flagged **below one** where the interval of their
//! JS-distance ν lies wholly under 1. Beside it, a Dawid–Skene summary: the expected share of a's
//! votes on each item's true class under the model fitted to the whole file. Annotators with
//! fewer than [`MIN_ITEMS`] items are counted, not ranked.
//!
//! *Intervals* cover which items and reference splits and, with `over_annotators`, which of the
//! other annotators: each row is a `worth` measurement whose human side is the others, whose
//! replacement jackknife ([`super::crossed`]) runs over groups of them. One annotator's
//! jackknife is noisy (a handful of groups, each run a point estimate), and the others are
//! largely the same people for every row, so the annotators' share is pooled: the mean over the
//! ranked rows of each row's raw share, per metric, widens every row.

use super::{report, MetricWorth, WorthConfig, WorthError, WorthMetric};
use crate::agreement::{dawid_skene, DsConfig};
use crate::votes::{Annotation, VoteTable};
use serde::{Deserialize, Serialize};

/// Fewest items an annotator needs to be ranked.
pub const MIN_ITEMS: u32 = 20;
/// The metric whose interval decides "below one".
pub const FLAG_METRIC: WorthMetric = WorthMetric::Jsd;

/// One annotator's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnnotatorRow {
    pub id: String,
    pub items: u32,
    /// ν per metric against the other annotators on these items.
    pub worth: Vec<MetricWorth>,
    /// The interval of [`FLAG_METRIC`]'s ν lies wholly below 1.
    pub below_one: bool,
    /// Dawid–Skene: the expected share of their votes on the items' true class.
    pub ds_accuracy: f64,
}

/// The ranking: rows by [`FLAG_METRIC`]'s ν, lowest first; and what was not ranked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ranking {
    pub rows: Vec<AnnotatorRow>,
    /// Annotators with fewer than [`MIN_ITEMS`] items, and their votes.
    pub unranked: u32,
    pub unranked_votes: u32,
    /// The intervals cover which other annotators as well as items and splits.
    #[serde(default)]
    pub over_annotators: bool,
}

impl Ranking {
    /// `annosat annotators --format csv`, also the Sources room's export: one row per ranked
    /// annotator, lowest first: `id,items,below_one,ds_accuracy`, then `nu,lo,hi` per metric.
    pub fn csv(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::from("id,items,below_one,ds_accuracy");
        for m in WorthMetric::ALL {
            let k = m.key();
            let _ = write!(out, ",{k}_nu,{k}_lo,{k}_hi");
        }
        out.push('\n');
        let cell = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.4}"));
        for row in &self.rows {
            let _ = write!(
                out,
                "{},{},{},{:.4}",
                csv_field(&row.id),
                row.items,
                row.below_one,
                row.ds_accuracy
            );
            for m in WorthMetric::ALL {
                let w = row.worth.iter().find(|w| w.metric == m);
                let _ = write!(
                    out,
                    ",{},{},{}",
                    cell(w.and_then(|w| w.nu)),
                    cell(w.and_then(|w| w.lo)),
                    cell(w.and_then(|w| w.hi))
                );
            }
            out.push('\n');
        }
        out
    }
}

/// An id as a CSV field: quoted where it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Ranks the annotators of a long `table`; `progress` counts annotators (0–1).
pub fn rank(
    table: &VoteTable,
    cfg: &WorthConfig,
    progress: &mut dyn FnMut(f64),
) -> Result<Ranking, WorthError> {
    let ann = table.annotations();
    let (n, k, na) = (
        table.num_items(),
        table.num_classes(),
        table.annotator_ids().len(),
    );
    let ds = (!ann.is_empty()).then(|| dawid_skene(ann, n, na, k, &DsConfig::default()));
    let mut by: Vec<Vec<&Annotation>> = vec![Vec::new(); na];
    for v in ann {
        by[v.annotator as usize].push(v);
    }
    let (mut rows, mut unranked, mut unranked_votes) = (Vec::new(), 0, 0);
    let crossed = cfg.over_annotators && cfg.bootstrap > 0;
    let items_only = WorthConfig {
        over_annotators: false,
        ..cfg.clone()
    };
    let mut shares: Vec<Vec<f64>> = Vec::new();
    for (a, votes) in by.iter().enumerate() {
        progress(a as f64 / na.max(1) as f64);
        let mut items: Vec<u32> = votes.iter().map(|v| v.item).collect();
        items.sort_unstable();
        items.dedup();
        if (items.len() as u32) < MIN_ITEMS {
            unranked += 1;
            unranked_votes += votes.len() as u32;
            continue;
        }
        let (humans, source) = split_off(table, a as u32, &items);
        let r = report(&humans, &source, &items_only, 0, &mut |_| {})?;
        if crossed {
            if let Some(v) = super::source_shares(&humans, &source, cfg)? {
                shares.push(v);
            }
        }
        let flag = r.worth.metrics.iter().find(|m| m.metric == FLAG_METRIC);
        let ds_accuracy = ds.as_ref().map_or(f64::NAN, |d| {
            votes
                .iter()
                .map(|v| d.posterior(v.item as usize)[v.label as usize])
                .sum::<f64>()
                / votes.len() as f64
        });
        rows.push(AnnotatorRow {
            id: table.annotator_ids()[a].clone(),
            items: items.len() as u32,
            below_one: flag.is_some_and(below_one),
            worth: r.worth.metrics,
            ds_accuracy,
        });
    }
    let nu = |r: &AnnotatorRow| {
        r.worth
            .iter()
            .find(|m| m.metric == FLAG_METRIC)
            .and_then(|m| m.nu)
            .unwrap_or(f64::NEG_INFINITY)
    };
    let over_annotators = !shares.is_empty();
    if over_annotators {
        let pooled: Vec<f64> = (0..WorthMetric::ALL.len())
            .map(|j| {
                let v: Vec<f64> = shares
                    .iter()
                    .map(|s| s[j])
                    .filter(|x| x.is_finite())
                    .collect();
                v.iter().sum::<f64>() / v.len().max(1) as f64
            })
            .collect();
        for row in &mut rows {
            super::crossed::widen(&mut row.worth, &pooled);
            row.below_one = row
                .worth
                .iter()
                .find(|m| m.metric == FLAG_METRIC)
                .is_some_and(below_one);
        }
    }
    rows.sort_by(|a, b| nu(a).total_cmp(&nu(b)));
    progress(1.0);
    Ok(Ranking {
        rows,
        unranked,
        unranked_votes,
        over_annotators,
    })
}

/// A ν whose interval lies under one typical annotator: its upper end below 1, or the whole
/// of it below the human curve's start ("worth fewer than 1 human", no end inside the curve).
fn below_one(m: &MetricWorth) -> bool {
    match (m.bound, m.hi) {
        (_, Some(h)) => h < 1.0,
        (Some(super::Bound::Below), None) => m.floor <= 1,
        _ => false,
    }
}

/// The other annotators' votes on `items` (with their ids, so the reference splits by person) and
/// annotator `a`'s votes there, as two tables over the same items.
fn split_off(table: &VoteTable, a: u32, items: &[u32]) -> (VoteTable, VoteTable) {
    let k = table.num_classes();
    let mut row = vec![u32::MAX; table.num_items()];
    for (j, &i) in items.iter().enumerate() {
        row[i as usize] = j as u32;
    }
    let (mut h, mut s) = (vec![0u32; items.len() * k], vec![0u32; items.len() * k]);
    let mut others = Vec::new();
    for v in table.annotations() {
        let j = row[v.item as usize];
        if j == u32::MAX {
            continue;
        }
        if v.annotator == a {
            s[j as usize * k + v.label as usize] += 1;
        } else {
            h[j as usize * k + v.label as usize] += 1;
            others.push(Annotation { item: j, ..*v });
        }
    }
    let ids: Vec<String> = items
        .iter()
        .map(|&i| table.item_ids()[i as usize].clone())
        .collect();
    let classes = table.classes().to_vec();
    (
        VoteTable::new(classes.clone(), ids.clone(), h)
            .with_annotations(table.annotator_ids().to_vec(), others),
        VoteTable::new(classes, ids, s),
    )
}
