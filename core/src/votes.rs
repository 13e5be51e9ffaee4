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

/// Items × classes of vote counts. Items may have different totals ("ragged").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VoteTable {
    classes: Vec<String>,
    item_ids: Vec<String>,
    /// Row-major, `item_ids.len() * classes.len()`.
    counts: Vec<u32>,
    annotator_ids: Vec<String>,
    annotations: Vec<Annotation>,
}

impl VoteTable {
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
