//! Which of your annotators pull their weight: each person of a long file read in typical
//! annotators, against the others on the items they labelled.
//!
//! For annotator a: the source is a's votes; the human side is everyone else's votes on the items
//! a labelled (split by annotator, as `worth` splits files with ids). So a's ν is "how many of
//! the others' votes a's one vote is worth" on a's own items: about 1 for a typical annotator,
//! below 1 for a careless one. An annotator is flagged **below one** where the interval of their
//! JS-distance ν lies wholly under 1. Beside it, a Dawid–Skene summary: the expected share of a's
//! votes on each item's true class under the model fitted to the whole file. Annotators with
//! fewer than [`MIN_ITEMS`] items are counted, not ranked. The intervals resample items (this
//! ranking does not yet carry an interval over annotators).

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
        let r = report(&humans, &source, cfg, 0, &mut |_| {})?;
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
    rows.sort_by(|a, b| nu(a).total_cmp(&nu(b)));
    progress(1.0);
    Ok(Ranking {
        rows,
        unranked,
        unranked_votes,
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
