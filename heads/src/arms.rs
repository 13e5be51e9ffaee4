//! Training arms: the ways of turning an item's N subsampled votes into a training target.
//!
//! Every arm sees the same N votes of an item (a prefix of one seeded shuffle, so the N = 5 votes are
//! among the N = 10 ones); arms differ only in how the votes become a target:
//! - `hard`: one-hot majority of the N votes, ties broken by a seeded draw;
//! - `ls<ε>`: label smoothing of that one-hot, (1−ε)·onehot + ε/K;
//! - `soft`: the vote distribution p_N;
//! - `dirichlet`: p_N smoothed with α = 1/K pseudo-counts per class, (c + 1/K)/(N + 1);
//! - `sls`: stochastic label sampling, one of the N votes drawn per item per epoch (one-hot);
//! - `multipass`: the N votes cycled as one-hot targets, vote `e mod N` in epoch e, so each epoch
//!   still has one example per item (dataset size fixed);
//! - `temp_hard`: the `hard` model with one temperature T fitted on the validation items' p_N
//!   (not trained separately: post-hoc smoothing, after Zhang et al. 2021).

use crate::split::run_key;
use annosat_core::sample;
use rand_chacha::ChaCha8Rng;

/// Purpose tags for this module's random streams (distinct from the core's).
pub const PURPOSE_VOTES: u64 = 0x7_01;
pub const PURPOSE_TIE: u64 = 0x7_02;
pub const PURPOSE_SLS: u64 = 0x7_03;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arm {
    Hard,
    Smooth(f64),
    Soft,
    Dirichlet,
    Sls,
    Multipass,
    TempHard,
}

/// The label-smoothing intensities of the grid.
pub const EPSILONS: [f64; 5] = [0.05, 0.1, 0.2, 0.3, 0.5];

impl Arm {
    /// Every arm, in the order exports list them.
    pub fn all() -> Vec<Arm> {
        let mut v = vec![Arm::Hard];
        v.extend(EPSILONS.iter().map(|&e| Arm::Smooth(e)));
        v.extend([
            Arm::Soft,
            Arm::Dirichlet,
            Arm::Sls,
            Arm::Multipass,
            Arm::TempHard,
        ]);
        v
    }

    pub fn name(self) -> String {
        match self {
            Arm::Hard => "hard".into(),
            Arm::Smooth(e) => format!("ls{e}"),
            Arm::Soft => "soft".into(),
            Arm::Dirichlet => "dirichlet".into(),
            Arm::Sls => "sls".into(),
            Arm::Multipass => "multipass".into(),
            Arm::TempHard => "temp_hard".into(),
        }
    }

    pub fn parse(s: &str) -> Option<Arm> {
        Arm::all().into_iter().find(|a| a.name() == s)
    }

    /// Arms that need their own head (temp_hard reuses hard's).
    pub fn trained(self) -> bool {
        self != Arm::TempHard
    }

    /// Whether the target changes every epoch.
    pub fn per_epoch(self) -> bool {
        matches!(self, Arm::Sls | Arm::Multipass)
    }
}

/// The targets of one run — one arm at one N, on one (split seed, model seed) — for the sweep and
/// for fine-tuning alike: the one place that keys their random streams, so both draw the same ties
/// and the same per-epoch votes.
#[derive(Debug, Clone, Copy)]
pub struct RunTargets {
    pub arm: Arm,
    pub n: u32,
    pub split_seed: u64,
    pub model_seed: u64,
}

impl RunTargets {
    /// A static arm's target for `item`, from the item's vote order (its first N votes).
    pub fn static_row(&self, item: usize, order: &[u16], k: usize, out: &mut [f32]) {
        let key = run_key(self.model_seed, self.n);
        let mut tie = sample::stream(self.split_seed, PURPOSE_TIE, item as u64, key);
        static_target(self.arm, &order[..self.n as usize], k, &mut tie, out);
    }

    /// The stream of a per-epoch arm's draws in `epoch`, consumed item by item in training order.
    pub fn epoch_stream(&self, epoch: usize) -> ChaCha8Rng {
        let key = run_key(self.model_seed, self.n);
        sample::stream(self.split_seed, PURPOSE_SLS, key, epoch as u64)
    }

    /// A per-epoch arm's one-hot target in `epoch`, drawing from `rng` (see [`Self::epoch_stream`]).
    pub fn epoch_row(&self, order: &[u16], epoch: usize, rng: &mut ChaCha8Rng, out: &mut [f32]) {
        out.fill(0.0);
        out[epoch_vote(self.arm, &order[..self.n as usize], epoch, rng)] = 1.0;
    }
}

/// An item's votes in a seeded random order; its first N entries are the N-vote subsample.
pub fn vote_order(counts: &[u32], split_seed: u64, item: usize, model_seed: u64) -> Vec<u16> {
    let mut votes = Vec::new();
    sample::expand(counts, &mut votes);
    let mut rng = sample::stream(split_seed, PURPOSE_VOTES, item as u64, model_seed);
    let n = votes.len();
    sample::partial_shuffle(&mut votes, n, &mut rng);
    votes
}

fn counts_of(votes: &[u16], k: usize) -> Vec<u32> {
    let mut c = vec![0u32; k];
    for &v in votes {
        c[v as usize] += 1;
    }
    c
}

/// Majority class of `votes`, ties broken by `rng` (uniform over the tied classes).
pub fn majority(votes: &[u16], k: usize, rng: &mut ChaCha8Rng) -> usize {
    let c = counts_of(votes, k);
    let best = *c.iter().max().expect("k > 0");
    let tied: Vec<usize> = (0..k).filter(|&j| c[j] == best).collect();
    if tied.len() == 1 {
        tied[0]
    } else {
        tied[sample::below(rng, tied.len() as u32) as usize]
    }
}

/// The fixed target of an arm from an item's N votes, written into `out` (length K).
/// For per-epoch arms this is their expected target, p_N (used for validation).
pub fn static_target(arm: Arm, votes: &[u16], k: usize, tie: &mut ChaCha8Rng, out: &mut [f32]) {
    let n = votes.len() as f64;
    let c = counts_of(votes, k);
    match arm {
        Arm::Hard | Arm::TempHard | Arm::Smooth(_) => {
            let m = majority(votes, k, tie);
            let eps = if let Arm::Smooth(e) = arm { e } else { 0.0 };
            for (j, o) in out.iter_mut().enumerate() {
                let one = if j == m { 1.0 } else { 0.0 };
                *o = ((1.0 - eps) * one + eps / k as f64) as f32;
            }
        }
        Arm::Soft | Arm::Sls | Arm::Multipass => {
            for (o, &cj) in out.iter_mut().zip(&c) {
                *o = (cj as f64 / n) as f32;
            }
        }
        Arm::Dirichlet => {
            let alpha = 1.0 / k as f64;
            for (o, &cj) in out.iter_mut().zip(&c) {
                *o = ((cj as f64 + alpha) / (n + 1.0)) as f32;
            }
        }
    }
}

/// The one-hot class a per-epoch arm trains on in `epoch`.
pub fn epoch_vote(arm: Arm, votes: &[u16], epoch: usize, rng: &mut ChaCha8Rng) -> usize {
    match arm {
        Arm::Sls => votes[sample::below(rng, votes.len() as u32) as usize] as usize,
        Arm::Multipass => votes[epoch % votes.len()] as usize,
        _ => unreachable!("only sls and multipass change per epoch"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng() -> ChaCha8Rng {
        sample::stream(1, PURPOSE_TIE, 0, 0)
    }

    #[test]
    fn targets_follow_their_definitions() {
        let votes = [0u16, 1, 1, 2]; // counts 1, 2, 1
        let mut t = [0f32; 3];
        static_target(Arm::Hard, &votes, 3, &mut rng(), &mut t);
        assert_eq!(t, [0.0, 1.0, 0.0]);
        static_target(Arm::Smooth(0.3), &votes, 3, &mut rng(), &mut t);
        assert!((t[1] - 0.8).abs() < 1e-6 && (t[0] - 0.1).abs() < 1e-6);
        static_target(Arm::Soft, &votes, 3, &mut rng(), &mut t);
        assert_eq!(t, [0.25, 0.5, 0.25]);
        static_target(Arm::Dirichlet, &votes, 3, &mut rng(), &mut t);
        let want = [
            (1.0 + 1.0 / 3.0) / 5.0,
            (2.0 + 1.0 / 3.0) / 5.0,
            (1.0 + 1.0 / 3.0) / 5.0,
        ];
        for (a, b) in t.iter().zip(want) {
            assert!((*a as f64 - b).abs() < 1e-6);
        }
        assert!((t.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn ties_are_broken_both_ways_by_the_seed() {
        let votes = [0u16, 1];
        let picks: std::collections::BTreeSet<usize> = (0..40)
            .map(|i| majority(&votes, 2, &mut sample::stream(9, PURPOSE_TIE, i, 0)))
            .collect();
        assert_eq!(picks.into_iter().collect::<Vec<_>>(), vec![0, 1]);
    }

    #[test]
    fn multipass_cycles_and_sls_draws_from_the_votes() {
        let votes = [2u16, 0, 1];
        let mp: Vec<usize> = (0..6)
            .map(|e| epoch_vote(Arm::Multipass, &votes, e, &mut rng()))
            .collect();
        assert_eq!(mp, vec![2, 0, 1, 2, 0, 1]);
        let mut r = rng();
        let mut seen = [0; 3];
        for e in 0..300 {
            seen[epoch_vote(Arm::Sls, &votes, e, &mut r)] += 1;
        }
        assert!(seen.iter().all(|&s| s > 70), "{seen:?}");
    }

    #[test]
    fn subsamples_are_nested_prefixes_of_one_shuffle() {
        let order = vote_order(&[30, 50, 20], 42, 7, 0);
        assert_eq!(order.len(), 100);
        assert_eq!(counts_of(&order, 3), vec![30, 50, 20]);
        assert_eq!(order, vote_order(&[30, 50, 20], 42, 7, 0));
        assert_ne!(order, vote_order(&[30, 50, 20], 42, 7, 1));
    }

    #[test]
    fn names_round_trip() {
        for a in Arm::all() {
            assert_eq!(Arm::parse(&a.name()), Some(a));
        }
        assert_eq!(Arm::all().len(), 11);
    }
}
