//! The vote count the answer is read against, for ragged files.
//!
//! Against the items' own votes the curves end at the largest vote count, where only the few items
//! that have it remain: on a file with 63–78 votes per item every point past 63 rests on a
//! shrinking handful, and one item with ten times the others' votes moves the whole curve's end
//! (the improvement fractions are read between the curve's first and last point). So the answer
//! is read against the count most items reach — [`REACH`] of them, the 20th percentile of the
//! counts — and items with more votes are subsampled to it (seeded, so the same file always gives
//! the same table). The CLI's `curves` and `extrapolate` and the app's curves and extrapolations
//! use [`cap_votes`]; the app also caps at its own limit on the N axis.

use crate::sample;
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

/// Share of the items that reach the reference vote count.
pub const REACH: f64 = 0.8;
/// The cut's streams (per item); the seed is fixed so the table never depends on `--seed`.
const PURPOSE_CAP: u64 = 0xCA9;
const SEED: u64 = 0;

/// What [`cap_votes`] cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cap {
    /// The votes every item now has at most.
    pub votes: u32,
    /// Items that had more, and the most any had.
    pub items: u32,
    pub max_before: u32,
    /// The cut came from a fixed limit (the app's N axis) rather than the [`REACH`] count.
    pub by_limit: bool,
}

impl Cap {
    /// One line for stderr or the page.
    pub fn note(&self) -> String {
        let why = if self.by_limit {
            "the most votes per item this computes".to_string()
        } else {
            format!(
                "the count {}% of items reach, so no answer hinges on the few items with the most votes",
                (REACH * 100.0).round()
            )
        };
        format!(
            "{} item(s) with more than {} votes (up to {}) were subsampled to {}: {why}",
            self.items, self.votes, self.max_before, self.votes
        )
    }
}

/// The count at least [`REACH`] of the items with votes reach (at least 2 where any item has 2).
pub fn reference_votes(table: &VoteTable) -> u32 {
    let mut totals: Vec<u32> = (0..table.num_items())
        .map(|i| table.total(i))
        .filter(|&t| t > 0)
        .collect();
    if totals.is_empty() {
        return 0;
    }
    totals.sort_unstable();
    let at = ((1.0 - REACH) * totals.len() as f64).floor() as usize;
    let max = *totals.last().expect("not empty");
    totals[at.min(totals.len() - 1)].max(2).min(max)
}

/// `table` with every item's votes cut to the reference count (and to `limit`, where given);
/// `None` when no item has more.
pub fn cap_votes(table: &VoteTable, limit: Option<u32>) -> Option<(VoteTable, Cap)> {
    let reach = reference_votes(table);
    let votes = limit.map_or(reach, |l| reach.min(l));
    let max_before = table.max_total();
    if max_before <= votes {
        return None;
    }
    let mut counts = Vec::with_capacity(table.num_items() * table.num_classes());
    let mut items = 0;
    for i in 0..table.num_items() {
        let c = table.counts(i);
        if table.total(i) > votes {
            items += 1;
            let mut rng = sample::stream(SEED, PURPOSE_CAP, i as u64, 0);
            counts.extend(sample::subsample_counts(c, votes, &mut rng).expect("more votes"));
        } else {
            counts.extend_from_slice(c);
        }
    }
    let cap = Cap {
        votes,
        items,
        max_before,
        by_limit: votes < reach,
    };
    Some((
        VoteTable::new(table.classes().to_vec(), table.item_ids().to_vec(), counts),
        cap,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(totals: &[u32]) -> VoteTable {
        let counts = totals.iter().flat_map(|&t| [t / 2, t - t / 2]).collect();
        VoteTable::new(
            vec!["a".into(), "b".into()],
            (0..totals.len()).map(|i| format!("i{i}")).collect(),
            counts,
        )
    }

    #[test]
    fn an_outlier_is_cut_to_what_most_items_have() {
        let mut totals = vec![100; 99];
        totals.push(1000);
        let (t, cap) = cap_votes(&table(&totals), None).expect("cut");
        assert_eq!((cap.votes, cap.items, cap.max_before), (100, 1, 1000));
        assert_eq!(t.max_total(), 100);
        assert_eq!(t.counts(99).iter().sum::<u32>(), 100);
        // A uniform file is left alone.
        assert!(cap_votes(&table(&[10; 50]), None).is_none());
    }

    #[test]
    fn a_ragged_file_ends_at_the_count_most_items_reach() {
        // 63–78 votes: 80% of the items have at least the 20th percentile.
        let totals: Vec<u32> = (0..100).map(|i| 63 + (i * 16 / 100)).collect();
        let t = table(&totals);
        let r = reference_votes(&t);
        let reach = totals.iter().filter(|&&x| x >= r).count();
        assert!(reach >= 80, "{r}: {reach}");
        assert!(totals.iter().filter(|&&x| x > r).count() < 80);
        let (capped, cap) = cap_votes(&t, None).unwrap();
        assert_eq!(capped.max_total(), r);
        assert!(!cap.by_limit);
        // The app's limit cuts further, and says so.
        let (_, by) = cap_votes(&t, Some(50)).unwrap();
        assert!(by.by_limit && by.votes == 50);
        assert!(by.note().contains("the most votes per item this computes"));
    }
}
