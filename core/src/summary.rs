//! What a dataset looks like at a glance: size, votes per item, mean entropy. Shown in the app's
//! dataset picker and computed from the votes, never typed in.

use crate::logtable::xlnx;
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub items: usize,
    pub classes: Vec<String>,
    pub total_votes: u64,
    pub votes_min: u32,
    pub votes_median: f64,
    pub votes_max: u32,
    /// Mean over items of the Shannon entropy of p_full, in bits (as datasets usually report it).
    pub mean_entropy_bits: f64,
    /// Distinct annotators when per-annotator rows are known (then held-out splits are by annotator).
    #[serde(default)]
    pub annotators: Option<usize>,
    /// Multilabel votes: `classes` are the labels, the vote counts count ratings (one per
    /// annotator and item) and the entropy is the label-set entropy Σ_l H(p_l).
    #[serde(default)]
    pub multilabel: bool,
}

impl Summary {
    pub fn of(t: &VoteTable) -> Summary {
        let mut totals: Vec<u32> = (0..t.num_items()).map(|i| t.total(i)).collect();
        totals.sort_unstable();
        let n = totals.len();
        let median = if n == 0 {
            0.0
        } else if n % 2 == 1 {
            totals[n / 2] as f64
        } else {
            (totals[n / 2 - 1] as f64 + totals[n / 2] as f64) / 2.0
        };
        let h: f64 = (0..n)
            .map(|i| {
                -t.distribution(i).iter().map(|&p| xlnx(p)).sum::<f64>() / std::f64::consts::LN_2
            })
            .sum();
        Summary {
            items: n,
            classes: t.classes().to_vec(),
            total_votes: totals.iter().map(|&x| x as u64).sum(),
            votes_min: totals.first().copied().unwrap_or(0),
            votes_median: median,
            votes_max: totals.last().copied().unwrap_or(0),
            mean_entropy_bits: if n == 0 { 0.0 } else { h / n as f64 },
            annotators: (!t.annotations().is_empty()).then(|| t.annotator_ids().len()),
            multilabel: false,
        }
    }

    /// The same statistics of multilabel votes (ratings per item; label-set entropy in bits).
    pub fn of_multilabel(t: &crate::multilabel::MultilabelTable) -> Summary {
        let mut totals: Vec<u32> = (0..t.n_items()).map(|i| t.votes(i)).collect();
        totals.sort_unstable();
        let n = totals.len();
        let median = match n {
            0 => 0.0,
            _ if n % 2 == 1 => totals[n / 2] as f64,
            _ => (totals[n / 2 - 1] as f64 + totals[n / 2] as f64) / 2.0,
        };
        let h: f64 = (0..n)
            .map(|i| {
                t.shares(i)
                    .iter()
                    .map(|&p| -(xlnx(p) + xlnx(1.0 - p)) / std::f64::consts::LN_2)
                    .sum::<f64>()
            })
            .sum();
        Summary {
            items: n,
            classes: t.labels().to_vec(),
            total_votes: totals.iter().map(|&x| x as u64).sum(),
            votes_min: totals.first().copied().unwrap_or(0),
            votes_median: median,
            votes_max: totals.last().copied().unwrap_or(0),
            mean_entropy_bits: if n == 0 { 0.0 } else { h / n as f64 },
            annotators: Some(t.annotator_ids().len()),
            multilabel: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_summary() {
        let t = VoteTable::new(
            vec!["a".into(), "b".into()],
            vec!["x".into(), "y".into(), "z".into(), "w".into()],
            vec![1, 1, 4, 0, 2, 0, 3, 3],
        );
        let s = Summary::of(&t);
        assert_eq!(
            (s.items, s.total_votes, s.votes_min, s.votes_max),
            (4, 14, 2, 6)
        );
        assert_eq!(s.votes_median, 3.0);
        // entropies in bits: 1, 0, 0, 1 → mean 0.5
        assert!((s.mean_entropy_bits - 0.5).abs() < 1e-12);
    }
}
