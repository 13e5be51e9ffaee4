//! The vote table: items × K classes of integer counts.
//!
//! Why counts and not probabilities: every downstream step (subsampling without replacement,
//! log look-up tables, exact reproducibility) needs the integers. Probabilities are derived on demand.

use serde::{Deserialize, Serialize};

/// Most classes a table may have. Majority sets are kept as `u64` bit masks in the hot loop.
pub const MAX_CLASSES: usize = 64;

/// One annotator's label for one item, kept when the input was in long format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Annotation {
    /// Row index into [`VoteTable::item_ids`].
    pub item: u32,
    /// Index into [`VoteTable::annotator_ids`].
    pub annotator: u32,
    /// Class index into [`VoteTable::classes`].
    pub label: u16,
}

/// Most votes one item may have (the importer refuses more; [`VoteTable::check`] too).
pub const MAX_ITEM_VOTES: u32 = 999_999_999;

/// Items × classes of vote counts. Items may have different totals ("ragged").
///
/// Deserialised through [`VoteTable::check`]: a bundle file is input too, and a table that decoded
/// with the wrong number of counts would panic later, far from the file (found by fuzzing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawVoteTable")]
pub struct VoteTable {
    classes: Vec<String>,
    item_ids: Vec<String>,
    /// Row-major, `item_ids.len() * classes.len()`.
    counts: Vec<u32>,
    annotator_ids: Vec<String>,
    annotations: Vec<Annotation>,
}

/// The fields as stored, before [`VoteTable::check`].
#[derive(Deserialize)]
struct RawVoteTable {
    classes: Vec<String>,
    item_ids: Vec<String>,
    counts: Vec<u32>,
    annotator_ids: Vec<String>,
    annotations: Vec<Annotation>,
}

impl TryFrom<RawVoteTable> for VoteTable {
    type Error = String;
    fn try_from(r: RawVoteTable) -> Result<Self, String> {
        let t = VoteTable {
            classes: r.classes,
            item_ids: r.item_ids,
            counts: r.counts,
            annotator_ids: r.annotator_ids,
            annotations: r.annotations,
        };
        t.check()?;
        Ok(t)
    }
}

impl VoteTable {
    /// The invariants every table keeps, whatever it came from: counts shaped items × classes, at
    /// most [`MAX_CLASSES`] classes, at most [`MAX_ITEM_VOTES`] votes per item, and per-annotator
    /// rows (when present) that point inside the table and add up to the counts.
    pub fn check(&self) -> Result<(), String> {
        let k = self.classes.len();
        if k > MAX_CLASSES {
            return Err(format!("{k} classes (at most {MAX_CLASSES})"));
        }
        if Some(self.counts.len()) != self.item_ids.len().checked_mul(k) {
            return Err(format!(
                "{} counts for {} items × {k} classes",
                self.counts.len(),
                self.item_ids.len()
            ));
        }
        if k > 0 {
            for (i, row) in self.counts.chunks(k).enumerate() {
                let total = row.iter().map(|&c| c as u64).sum::<u64>();
                if total > MAX_ITEM_VOTES as u64 {
                    return Err(format!(
                        "item {i} has {total} votes (at most {MAX_ITEM_VOTES})"
                    ));
                }
            }
        }
        if self.annotations.is_empty() {
            return Ok(());
        }
        let mut tally = vec![0u32; self.counts.len()];
        for a in &self.annotations {
            let (i, l) = (a.item as usize, a.label as usize);
            if i >= self.item_ids.len()
                || l >= k
                || a.annotator as usize >= self.annotator_ids.len()
            {
                return Err(format!("an annotation points outside the table: {a:?}"));
            }
            tally[i * k + l] += 1;
        }
        if tally != self.counts {
            return Err("the per-annotator rows do not add up to the counts".into());
        }
        Ok(())
    }

    /// Builds a table from row-major counts. Panics only on a programming error (shape mismatch);
    /// user input goes through [`crate::import`], which validates first.
    pub fn new(classes: Vec<String>, item_ids: Vec<String>, counts: Vec<u32>) -> Self {
        assert_eq!(counts.len(), classes.len() * item_ids.len(), "counts shape");
        assert!(classes.len() <= MAX_CLASSES);
        VoteTable {
            classes,
            item_ids,
            counts,
            annotator_ids: Vec::new(),
            annotations: Vec::new(),
        }
    }

    /// Attaches per-annotator rows (long-format input). Counts must already agree with them.
    pub fn with_annotations(
        mut self,
        annotator_ids: Vec<String>,
        annotations: Vec<Annotation>,
    ) -> Self {
        self.annotator_ids = annotator_ids;
        self.annotations = annotations;
        self
    }

    pub fn classes(&self) -> &[String] {
        &self.classes
    }
    pub fn item_ids(&self) -> &[String] {
        &self.item_ids
    }
    pub fn num_classes(&self) -> usize {
        self.classes.len()
    }
    pub fn num_items(&self) -> usize {
        self.item_ids.len()
    }
    /// Per-annotator ids; empty when the input had only counts.
    pub fn annotator_ids(&self) -> &[String] {
        &self.annotator_ids
    }
    /// Per-annotator rows; empty when the input had only counts.
    pub fn annotations(&self) -> &[Annotation] {
        &self.annotations
    }

    /// Counts of item `i`, one per class.
    pub fn counts(&self, i: usize) -> &[u32] {
        let k = self.classes.len();
        &self.counts[i * k..(i + 1) * k]
    }

    /// All counts, row-major.
    pub fn all_counts(&self) -> &[u32] {
        &self.counts
    }

    /// Number of votes item `i` received.
    pub fn total(&self, i: usize) -> u32 {
        self.counts(i).iter().sum()
    }

    /// Largest number of votes any item received (the natural top of the N axis).
    pub fn max_total(&self) -> u32 {
        (0..self.num_items())
            .map(|i| self.total(i))
            .max()
            .unwrap_or(0)
    }

    /// Smallest number of votes any item received.
    pub fn min_total(&self) -> u32 {
        (0..self.num_items())
            .map(|i| self.total(i))
            .min()
            .unwrap_or(0)
    }

    /// Empirical distribution of item `i` (counts / total). All zeros for an item without votes.
    pub fn distribution(&self, i: usize) -> Vec<f64> {
        let t = self.total(i);
        self.counts(i)
            .iter()
            .map(|&c| if t == 0 { 0.0 } else { c as f64 / t as f64 })
            .collect()
    }

    /// Attaches the per-annotator rows of `long` (the same data in long format, e.g. a dataset's
    /// annotations.csv) to this table, keeping this table's item and class order. Fails, naming the
    /// first difference, unless the two agree count for count.
    pub fn attach_annotations(self, long: &VoteTable) -> Result<VoteTable, String> {
        let item_of: std::collections::HashMap<&str, usize> = self
            .item_ids
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i))
            .collect();
        let mut class_of = Vec::with_capacity(long.num_classes());
        for c in long.classes() {
            let k = self
                .classes
                .iter()
                .position(|x| x == c)
                .ok_or_else(|| format!("label '{c}' is not a class of the vote table"))?;
            class_of.push(k as u16);
        }
        let k = self.num_classes();
        let mut counts = vec![0u32; self.counts.len()];
        let mut rows = Vec::with_capacity(long.annotations().len());
        for a in long.annotations() {
            let id = &long.item_ids()[a.item as usize];
            let i = *item_of
                .get(id.as_str())
                .ok_or_else(|| format!("item '{id}' is not in the vote table"))?;
            let label = class_of[a.label as usize];
            counts[i * k + label as usize] += 1;
            rows.push(Annotation {
                item: i as u32,
                annotator: a.annotator,
                label,
            });
        }
        if let Some(i) =
            (0..self.num_items()).find(|&i| counts[i * k..(i + 1) * k] != *self.counts(i))
        {
            return Err(format!(
                "item '{}' has other counts in the annotations than in the vote table",
                self.item_ids[i]
            ));
        }
        Ok(self.with_annotations(long.annotator_ids().to_vec(), rows))
    }

    /// A table with the items in a new order (`order[j]` = old index of new item `j`).
    /// Used by tests that check order invariance.
    pub fn reordered(&self, order: &[usize]) -> VoteTable {
        let mut ids = Vec::with_capacity(order.len());
        let mut counts = Vec::with_capacity(order.len() * self.num_classes());
        for &o in order {
            ids.push(self.item_ids[o].clone());
            counts.extend_from_slice(self.counts(o));
        }
        VoteTable::new(self.classes.clone(), ids, counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(counts: Vec<u32>, items: usize, annotations: Vec<Annotation>) -> RawVoteTable {
        RawVoteTable {
            classes: vec!["a".into(), "b".into()],
            item_ids: (0..items).map(|i| i.to_string()).collect(),
            counts,
            annotator_ids: vec!["w".into()],
            annotations,
        }
    }

    #[test]
    fn check_names_each_broken_invariant() {
        let err = |r| VoteTable::try_from(r).unwrap_err();
        assert!(VoteTable::try_from(raw(vec![1, 2], 1, vec![])).is_ok());
        assert!(err(raw(vec![1, 2, 3], 2, vec![])).contains("3 counts for 2 items"));
        assert!(err(raw(vec![u32::MAX, u32::MAX], 1, vec![])).contains("votes (at most"));
        let a = |annotator, label| Annotation {
            item: 0,
            annotator,
            label,
        };
        assert!(err(raw(vec![1, 0], 1, vec![a(3, 0)])).contains("outside the table"));
        assert!(err(raw(vec![1, 0], 1, vec![a(0, 2)])).contains("outside the table"));
        assert!(err(raw(vec![0, 1], 1, vec![a(0, 0)])).contains("do not add up"));
        assert!(VoteTable::try_from(raw(vec![1, 0], 1, vec![a(0, 0)])).is_ok());
    }
}
