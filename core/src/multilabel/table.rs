//! The multilabel vote table: each annotator's rating of an item is a *set* of labels.
//!
//! Why a type of its own: a single-label [`crate::VoteTable`] counts one class per vote, so a
//! rating that ticks three labels would become three votes of three people. Here a rating is a
//! `u64` bitset over at most [`MAX_LABELS`] labels (bit l set: the annotator ticked label l), so an
//! empty rating ("ticked nothing") is a rating too, and subsampling N annotators draws N ratings.

use serde::{Deserialize, Serialize};

/// Most labels a multilabel table holds (one bit each in a `u64`).
pub const MAX_LABELS: usize = 64;

/// Items × annotators × labels as bits; items keep their order of first appearance. Serialised
/// (the app's bundle) through [`RawMultilabelTable`], so a file that breaks the invariants is
/// refused when read instead of panicking later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMultilabelTable", into = "RawMultilabelTable")]
pub struct MultilabelTable {
    labels: Vec<String>,
    item_ids: Vec<String>,
    /// Item i's ratings are `ratings[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    ratings: Vec<u64>,
    /// The annotator of each rating (an index into `annotator_ids`), parallel to `ratings`.
    annotators: Vec<u32>,
    annotator_ids: Vec<String>,
}

impl MultilabelTable {
    /// A table from per-item ratings (`ratings[i]`: item i's (annotator index, label bits)).
    /// Panics on more than [`MAX_LABELS`] labels, a length mismatch, a bit past the labels or an
    /// item without ratings: the importer checks all of these and says so first.
    pub fn new(
        labels: Vec<String>,
        item_ids: Vec<String>,
        annotator_ids: Vec<String>,
        ratings: Vec<Vec<(u32, u64)>>,
    ) -> Self {
        assert!(!labels.is_empty() && labels.len() <= MAX_LABELS);
        assert_eq!(item_ids.len(), ratings.len());
        let mask = label_mask(labels.len());
        let mut offsets = Vec::with_capacity(item_ids.len() + 1);
        offsets.push(0u32);
        let (mut bits, mut who) = (Vec::new(), Vec::new());
        for r in &ratings {
            assert!(!r.is_empty(), "an item without ratings");
            for &(a, b) in r {
                assert_eq!(b & !mask, 0, "a label bit past the labels");
                assert!((a as usize) < annotator_ids.len());
                who.push(a);
                bits.push(b);
            }
            offsets.push(bits.len() as u32);
        }
        MultilabelTable {
            labels,
            item_ids,
            offsets,
            ratings: bits,
            annotators: who,
            annotator_ids,
        }
    }

    /// The items `order` (table rows), in that order, with all of their ratings and the same
    /// annotators and labels (the model side leaves out items without a text).
    pub fn reordered(&self, order: &[usize]) -> MultilabelTable {
        let ratings = order
            .iter()
            .map(|&i| {
                let r = self.ratings(i).iter().copied();
                self.annotators(i).iter().copied().zip(r).collect()
            })
            .collect();
        let ids = order.iter().map(|&i| self.item_ids[i].clone()).collect();
        MultilabelTable::new(
            self.labels.clone(),
            ids,
            self.annotator_ids.clone(),
            ratings,
        )
    }

    pub fn labels(&self) -> &[String] {
        &self.labels
    }
    pub fn n_labels(&self) -> usize {
        self.labels.len()
    }
    pub fn item_ids(&self) -> &[String] {
        &self.item_ids
    }
    pub fn n_items(&self) -> usize {
        self.item_ids.len()
    }
    pub fn annotator_ids(&self) -> &[String] {
        &self.annotator_ids
    }
    /// Item i's ratings as label bitsets, in file order.
    pub fn ratings(&self, item: usize) -> &[u64] {
        &self.ratings[self.offsets[item] as usize..self.offsets[item + 1] as usize]
    }
    /// Item i's annotators (indices into [`Self::annotator_ids`]), parallel to [`Self::ratings`].
    pub fn annotators(&self, item: usize) -> &[u32] {
        &self.annotators[self.offsets[item] as usize..self.offsets[item + 1] as usize]
    }
    /// How many annotators rated item i.
    pub fn votes(&self, item: usize) -> u32 {
        self.offsets[item + 1] - self.offsets[item]
    }
    /// The largest number of annotators any item has.
    pub fn max_votes(&self) -> u32 {
        (0..self.n_items())
            .map(|i| self.votes(i))
            .max()
            .unwrap_or(0)
    }
    /// The smallest number of annotators any item has.
    pub fn min_votes(&self) -> u32 {
        (0..self.n_items())
            .map(|i| self.votes(i))
            .min()
            .unwrap_or(0)
    }
    /// Whether some annotator ticked two or more labels of one item (what shows a long file
    /// is multilabel).
    pub fn has_several_labels_in_a_rating(&self) -> bool {
        self.ratings.iter().any(|r| r.count_ones() > 1)
    }
    /// Item i's per-label tick counts (how many of its annotators ticked each label).
    pub fn counts(&self, item: usize) -> Vec<u32> {
        let mut c = vec![0u32; self.n_labels()];
        add_counts(self.ratings(item), &mut c);
        c
    }
    /// Item i's per-label shares: the fraction of its annotators who ticked each label.
    pub fn shares(&self, item: usize) -> Vec<f64> {
        let m = self.votes(item) as f64;
        self.counts(item).iter().map(|&c| c as f64 / m).collect()
    }
}

/// The table's fields as they are stored, checked on the way in.
#[derive(Serialize, Deserialize)]
pub struct RawMultilabelTable {
    labels: Vec<String>,
    item_ids: Vec<String>,
    offsets: Vec<u32>,
    ratings: Vec<u64>,
    annotators: Vec<u32>,
    annotator_ids: Vec<String>,
}

impl From<MultilabelTable> for RawMultilabelTable {
    fn from(t: MultilabelTable) -> Self {
        RawMultilabelTable {
            labels: t.labels,
            item_ids: t.item_ids,
            offsets: t.offsets,
            ratings: t.ratings,
            annotators: t.annotators,
            annotator_ids: t.annotator_ids,
        }
    }
}

impl TryFrom<RawMultilabelTable> for MultilabelTable {
    type Error = String;
    fn try_from(r: RawMultilabelTable) -> Result<Self, String> {
        let bad = |what: &str| Err(format!("not a valid multilabel table: {what}"));
        if r.labels.is_empty() || r.labels.len() > MAX_LABELS {
            return bad("1 to 64 labels");
        }
        if r.offsets.len() != r.item_ids.len() + 1 || r.offsets.first() != Some(&0) {
            return bad("one offset per item and one more");
        }
        if r.offsets.windows(2).any(|w| w[1] <= w[0]) {
            return bad("every item has ratings, in order");
        }
        if *r.offsets.last().unwrap() as usize != r.ratings.len()
            || r.annotators.len() != r.ratings.len()
        {
            return bad("one annotator per rating");
        }
        let mask = label_mask(r.labels.len());
        if r.ratings.iter().any(|&b| b & !mask != 0) {
            return bad("a label bit past the labels");
        }
        if r.annotators
            .iter()
            .any(|&a| a as usize >= r.annotator_ids.len())
        {
            return bad("an annotator index past the annotators");
        }
        Ok(MultilabelTable {
            labels: r.labels,
            item_ids: r.item_ids,
            offsets: r.offsets,
            ratings: r.ratings,
            annotators: r.annotators,
            annotator_ids: r.annotator_ids,
        })
    }
}

/// The bits of the first `labels` labels.
pub fn label_mask(labels: usize) -> u64 {
    if labels >= 64 {
        u64::MAX
    } else {
        (1u64 << labels) - 1
    }
}

/// Adds each rating's ticks into `counts` (one counter per label).
pub fn add_counts(ratings: &[u64], counts: &mut [u32]) {
    for &r in ratings {
        add_one(r, counts);
    }
}

/// Adds one rating's ticks into `counts`.
#[inline]
pub fn add_one(mut r: u64, counts: &mut [u32]) {
    while r != 0 {
        counts[r.trailing_zeros() as usize] += 1;
        r &= r - 1;
    }
}
