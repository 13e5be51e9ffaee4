//! Aggregation vs N: how often the label that majority vote (or Dawid–Skene) gives an item from N
//! of its votes matches the label it gives from all of them.
//!
//! At each N and repeat, each item with at least N votes keeps a seeded N of them (without
//! replacement; items with fewer are left out at that N, as in the α curve). Majority vote labels
//! each item from its N votes; Dawid–Skene (data with annotator ids only) is fitted afresh on all
//! items' N-vote subsamples together — its annotators' confusion matrices come from those votes —
//! and labels each item by its largest posterior. An item's score is the project's tie credit
//! ([`crate::metrics::majority_agreement`]: |A ∩ B| / |A| of the two arg-max sets; 1 or 0 without
//! ties; a tie at N is broken by chance, a tie in all votes accepts any of its classes, so no
//! class order breaks a tie); the curve is the
//! mean over items, summarised over repeats like every curve.

use super::dawid_skene::{dawid_skene, DsConfig, DsFit};
use crate::curves::CurvePoint;
use crate::metrics::calibration::majority_agreement;
use crate::sample;
use crate::votes::{Annotation, VoteTable};

const PURPOSE_AGGREGATE: u64 = 0xA_66;

/// One way of turning an item's votes into a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AggregationMethod {
    MajorityVote,
    DawidSkene,
}

impl AggregationMethod {
    /// The metric's name in the CLI's output.
    pub fn metric_name(self) -> &'static str {
        match self {
            AggregationMethod::MajorityVote => "majority_match",
            AggregationMethod::DawidSkene => "dawid_skene_match",
        }
    }
}

/// Dawid–Skene's runs, for the user to judge them by.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DsRuns {
    /// The fit on all votes: EM rounds and whether it converged.
    pub full_iterations: u32,
    pub full_converged: bool,
    /// Fits on subsamples, and how many of them stopped at `max_iter`.
    pub runs: u32,
    pub unconverged: u32,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AggregationCurve {
    pub methods: Vec<AggregationMethod>,
    pub grid: Vec<u32>,
    pub repeats: u32,
    /// Items used at each N.
    pub items: Vec<u32>,
    /// Present when Dawid–Skene ran (the votes have annotator ids).
    pub dawid_skene: Option<DsRuns>,
    /// `values[(m * grid.len() + g) * repeats + r]`.
    values: Vec<f64>,
}

impl AggregationCurve {
    pub fn point_at(&self, m: usize, g: usize) -> CurvePoint {
        let r = self.repeats as usize;
        let at = (m * self.grid.len() + g) * r;
        let v = self.values[at..at + r]
            .iter()
            .copied()
            .filter(|x| !x.is_nan())
            .collect();
        CurvePoint::of_repeats(self.grid[g], v)
    }
}

/// The curves of `table` for `grid` (empty: 1..=most votes an item has); Dawid–Skene when `ds`
/// is given and the table has annotator ids. `progress(done, total)` after each (N, repeat).
pub fn aggregation_curve(
    table: &VoteTable,
    grid: &[u32],
    repeats: u32,
    seed: u64,
    ds: Option<&DsConfig>,
    progress: &mut dyn FnMut(u64, u64),
) -> AggregationCurve {
    let k = table.num_classes();
    let mut grid: Vec<u32> = if grid.is_empty() {
        (1..=table.max_total()).collect()
    } else {
        grid.to_vec()
    };
    grid.sort_unstable();
    grid.dedup();
    grid.retain(|&n| n >= 1 && n <= table.max_total());
    // Each item's votes as (annotator, class); annotator ids only with per-annotator rows.
    let mut votes: Vec<Vec<(u32, u16)>> = vec![Vec::new(); table.num_items()];
    let with_ids = !table.annotations().is_empty();
    if with_ids {
        for a in table.annotations() {
            votes[a.item as usize].push((a.annotator, a.label));
        }
    } else {
        for (i, v) in votes.iter_mut().enumerate() {
            for (c, &n) in table.counts(i).iter().enumerate() {
                v.extend(std::iter::repeat_n((u32::MAX, c as u16), n as usize));
            }
        }
    }
    let mut methods = vec![AggregationMethod::MajorityVote];
    let ds = ds.filter(|_| with_ids);
    if ds.is_some() {
        methods.push(AggregationMethod::DawidSkene);
    }
    let all: Vec<usize> = (0..votes.len()).filter(|&i| !votes[i].is_empty()).collect();
    let full_mv: Vec<Vec<f64>> = votes.iter().map(|v| fractions(v, k)).collect();
    let mut runs = DsRuns::default();
    let full_ds: Vec<Vec<f64>> = match ds {
        Some(cfg) => {
            let n = table.annotator_ids().len();
            let (fit, at) = fit_on(&votes, &all, |i| votes[i].len(), n, k, cfg);
            runs.full_iterations = fit.iterations;
            runs.full_converged = fit.converged;
            let mut post = vec![Vec::new(); votes.len()];
            for (j, &i) in at.iter().enumerate() {
                post[i] = fit.posterior(j).to_vec();
            }
            post
        }
        None => Vec::new(),
    };
    let (ng, nr) = (grid.len(), repeats as usize);
    let mut values = vec![f64::NAN; methods.len() * ng * nr];
    let mut items = vec![0u32; ng];
    let total = (ng * nr) as u64;
    let mut picked: Vec<Vec<(u32, u16)>> = vec![Vec::new(); votes.len()];
    for (g, &n) in grid.iter().enumerate() {
        let used: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| votes[i].len() >= n as usize)
            .collect();
        items[g] = used.len() as u32;
        for r in 0..nr {
            for &i in &used {
                let mut rng = sample::stream(seed, PURPOSE_AGGREGATE, i as u64, r as u64);
                let p = &mut picked[i];
                p.clone_from(&votes[i]);
                sample::partial_shuffle(p, n as usize, &mut rng);
                p.truncate(n as usize);
            }
            if !used.is_empty() {
                let mv: f64 = used
                    .iter()
                    .map(|&i| majority_agreement(&fractions(&picked[i], k), &full_mv[i]))
                    .sum();
                values[g * nr + r] = mv / used.len() as f64;
                if let Some(cfg) = ds {
                    let na = table.annotator_ids().len();
                    let (fit, at) = fit_on(&picked, &used, |_| n as usize, na, k, cfg);
                    runs.runs += 1;
                    runs.unconverged += (!fit.converged) as u32;
                    let s: f64 = at
                        .iter()
                        .enumerate()
                        .map(|(j, &i)| majority_agreement(fit.posterior(j), &full_ds[i]))
                        .sum();
                    values[(ng + g) * nr + r] = s / used.len() as f64;
                }
            }
            progress((g * nr + r + 1) as u64, total);
        }
    }
    AggregationCurve {
        methods,
        grid,
        repeats,
        items,
        dawid_skene: ds.map(|_| runs),
        values,
    }
}

/// Vote fractions of an item's votes (majority vote's soft label; its arg-max is the label).
fn fractions(votes: &[(u32, u16)], k: usize) -> Vec<f64> {
    let mut c = vec![0.0; k];
    for &(_, l) in votes {
        c[l as usize] += 1.0 / votes.len() as f64;
    }
    c
}

/// Dawid–Skene on the first `len(i)` votes of each item in `items` (renumbered 0..), and the
/// items in the fit's order.
fn fit_on(
    votes: &[Vec<(u32, u16)>],
    items: &[usize],
    len: impl Fn(usize) -> usize,
    n_annotators: usize,
    k: usize,
    cfg: &DsConfig,
) -> (DsFit, Vec<usize>) {
    let flat: Vec<Annotation> = items
        .iter()
        .enumerate()
        .flat_map(|(j, &i)| {
            votes[i][..len(i)].iter().map(move |&(w, l)| Annotation {
                item: j as u32,
                annotator: w,
                label: l,
            })
        })
        .collect();
    (
        dawid_skene(&flat, items.len(), n_annotators, k, cfg),
        items.to_vec(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_with_ids() -> VoteTable {
        // 30 items, 5 annotators each; annotators 0–1 right, 2–4 say class 0 on every item.
        let mut anns = Vec::new();
        let mut counts = vec![0u32; 30 * 2];
        for i in 0..30u32 {
            let truth = (i % 3 == 0) as u16;
            for w in 0..5u32 {
                let label = if w < 2 { truth } else { 0 };
                anns.push(Annotation {
                    item: i,
                    annotator: w,
                    label,
                });
                counts[i as usize * 2 + label as usize] += 1;
            }
        }
        VoteTable::new(
            vec!["a".into(), "b".into()],
            (0..30).map(|i| format!("i{i}")).collect(),
            counts,
        )
        .with_annotations((0..5).map(|w| format!("w{w}")).collect(), anns)
    }

    #[test]
    fn all_votes_match_themselves_and_fewer_match_less() {
        let t = table_with_ids();
        let c = aggregation_curve(&t, &[], 20, 7, Some(&DsConfig::default()), &mut |_, _| {});
        assert_eq!(c.methods.len(), 2);
        assert_eq!(c.grid, vec![1, 2, 3, 4, 5]);
        for m in 0..2 {
            assert_eq!(c.point_at(m, 4).mean, Some(1.0), "all votes: method {m}");
            let one = c.point_at(m, 0).mean.unwrap();
            assert!(one < 1.0, "method {m} at N=1: {one}");
        }
        let ds = c.dawid_skene.as_ref().unwrap();
        assert!(ds.full_converged && ds.runs == 100);
    }

    #[test]
    fn without_annotator_ids_only_majority_vote_runs() {
        let t = VoteTable::new(
            vec!["a".into(), "b".into()],
            vec!["x".into(), "y".into()],
            vec![2, 2, 3, 0],
        );
        let c = aggregation_curve(
            &t,
            &[1, 4],
            10,
            1,
            Some(&DsConfig::default()),
            &mut |_, _| {},
        );
        assert_eq!(c.methods, vec![AggregationMethod::MajorityVote]);
        assert!(c.dawid_skene.is_none());
        // N=4: only x has 4 votes; all of them, so its tie {a, b} matches.
        assert_eq!(c.items, vec![2, 1]);
        assert_eq!(c.point_at(0, 1).mean, Some(1.0));
        // N=1: x's one vote is a or b, both in its full-data tie; y's is always a.
        assert_eq!(c.point_at(0, 0).mean, Some(1.0));
    }
}
