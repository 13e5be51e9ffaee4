//! Training arms: the ways of turning an item's N subsampled votes into a training target, and the
//! two baselines every arm is compared with.
//!
//! Every arm sees the same N votes of an item (a prefix of one seeded shuffle, so the N = 5 votes are
//! among the N = 10 ones); arms differ only in how the votes become a target:
//! - `hard`: one-hot majority of the N votes, ties broken by a seeded draw;
//! - `ls<ε>`: label smoothing of that one-hot, (1−ε)·onehot + ε/K;
//! - `soft`: the vote distribution p_N;
//! - `dirichlet`: p_N smoothed with α = 1/K pseudo-counts per class, (c + 1/K)/(N + 1);
//! - `multipass` and `sls` deliver the votes themselves, a few per epoch (see *Delivery* below);
//! - `deterministic` (control): multipass without cycling, its first visit's votes every epoch;
//! - `shuffled_sls` (control): sls fed another training item's votes, which breaks the match between
//!   an item and its distribution (Gheibi & Ghazizadeh's two controls);
//! - `temp_hard`: the `hard` model with one temperature T fitted on the validation items' p_N
//!   (not trained separately: post-hoc smoothing, after Zhang et al. 2021);
//! - baselines, not heads: `constant` (the training items' mean p_N for every item) and `knn` (the
//!   mean p_N of the k training items nearest in feature space, k chosen on validation).
//!
//! **Delivery.** One vote per item per epoch (Gheibi & Ghazizadeh's definition) cannot reach large N:
//! early stopping keeps epochs 5–13, so a head would see at most that many of its N votes and every
//! curve above N ≈ 15 would measure epochs, not N. Instead an item's N votes are dealt over a cycle of
//! L = min(N, [`DELIVERY_EPOCHS`]) epochs, ⌊(v+1)N/L⌋ − ⌊vN/L⌋ votes in visit v, each visit's target
//! the share of its votes: for N ≤ 4 this is exactly one vote per epoch, and for every N all votes
//! have been delivered after L epochs. The best epoch of these arms is chosen from epoch L − 1 on
//! ([`Arm::first_eligible_epoch`]), so every run of them uses all N votes (`Run::votes_used`).
//! multipass deals the item's vote order the same way every cycle; sls deals a fresh seeded shuffle
//! of the N votes each cycle (sampling without replacement within a cycle).

use crate::split::run_key;
use annosat_core::sample;
use rand_chacha::ChaCha8Rng;

/// Purpose tags for this module's random streams (distinct from the core's).
pub const PURPOSE_VOTES: u64 = 0x7_01;
pub const PURPOSE_TIE: u64 = 0x7_02;
pub const PURPOSE_SLS: u64 = 0x7_03;
pub const PURPOSE_PARTNER: u64 = 0x7_04;

/// Epochs over which sls and multipass deliver all of an item's N votes (see the module docs).
pub const DELIVERY_EPOCHS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arm {
    Hard,
    Smooth(f64),
    Soft,
    Dirichlet,
    Sls,
    Multipass,
    Deterministic,
    ShuffledSls,
    TempHard,
    Constant,
    Knn,
}

/// The label-smoothing intensities of the grid.
pub const EPSILONS: [f64; 5] = [0.05, 0.1, 0.2, 0.3, 0.5];

impl Arm {
    /// Every arm, in the order exports list them (baselines last).
    pub fn all() -> Vec<Arm> {
        let mut v = vec![Arm::Hard];
        v.extend(EPSILONS.iter().map(|&e| Arm::Smooth(e)));
        v.extend([
            Arm::Soft,
            Arm::Dirichlet,
            Arm::Sls,
            Arm::Multipass,
            Arm::Deterministic,
            Arm::ShuffledSls,
            Arm::TempHard,
            Arm::Constant,
            Arm::Knn,
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
            Arm::Deterministic => "deterministic".into(),
            Arm::ShuffledSls => "shuffled_sls".into(),
            Arm::TempHard => "temp_hard".into(),
            Arm::Constant => "constant".into(),
            Arm::Knn => "knn".into(),
        }
    }

    pub fn parse(s: &str) -> Option<Arm> {
        Arm::all().into_iter().find(|a| a.name() == s)
    }

    /// Arms that need their own head (temp_hard reuses hard's; baselines are no heads).
    pub fn trained(self) -> bool {
        !matches!(self, Arm::TempHard | Arm::Constant | Arm::Knn)
    }

    /// The baselines: predictions from the training items' votes, no head.
    pub fn baseline(self) -> bool {
        matches!(self, Arm::Constant | Arm::Knn)
    }

    /// Whether the target changes every epoch.
    pub fn per_epoch(self) -> bool {
        matches!(self, Arm::Sls | Arm::Multipass | Arm::ShuffledSls)
    }

    /// The first epoch whose model may be kept at budget `n`: per-epoch arms only once all N votes
    /// have been delivered.
    pub fn first_eligible_epoch(self, n: u32) -> usize {
        if self.per_epoch() {
            visits(n) - 1
        } else {
            0
        }
    }

    /// How many distinct votes of an item (for shuffled_sls: of its partner) a run of this arm at
    /// budget `n` has trained on when its best epoch is `best_epoch`.
    pub fn votes_used(self, n: u32, best_epoch: usize) -> u32 {
        match self {
            Arm::Sls | Arm::Multipass | Arm::ShuffledSls => {
                let l = visits(n);
                bag(n, l, (best_epoch + 1).min(l) - 1).end as u32
            }
            Arm::Deterministic => bag(n, visits(n), 0).len() as u32,
            _ => n,
        }
    }
}

/// L: the visits (epochs) in one delivery cycle at budget `n`.
fn visits(n: u32) -> usize {
    (n as usize).clamp(1, DELIVERY_EPOCHS)
}

/// The positions (in a cycle's vote order) delivered in visit `v` of `l`: an even deal of `n`.
fn bag(n: u32, l: usize, v: usize) -> std::ops::Range<usize> {
    let n = n as usize;
    v * n / l..(v + 1) * n / l
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
    /// A static arm's target for `item`, from the item's vote order (its first N votes). For
    /// per-epoch arms (and baselines) it is p_N, their expected target (used for validation).
    pub fn static_row(&self, item: usize, order: &[u16], k: usize, out: &mut [f32]) {
        let key = run_key(self.model_seed, self.n);
        let mut tie = sample::stream(self.split_seed, PURPOSE_TIE, item as u64, key);
        static_target(self.arm, &order[..self.n as usize], k, &mut tie, out);
    }

    /// A per-epoch arm's target in `epoch`: the share of the votes dealt to this visit. `item` and
    /// `order` are the item whose votes are delivered (for shuffled_sls, the partner's; see
    /// [`partners`]).
    pub fn epoch_row(&self, item: usize, order: &[u16], epoch: usize, out: &mut [f32]) {
        let l = visits(self.n);
        let (cycle, v) = (epoch / l, epoch % l);
        let votes = &order[..self.n as usize];
        out.fill(0.0);
        let range = bag(self.n, l, v);
        let w = 1.0 / range.len() as f32;
        match self.arm {
            Arm::Multipass => {
                for &c in &votes[range] {
                    out[c as usize] += w;
                }
            }
            Arm::Sls | Arm::ShuffledSls => {
                let key = run_key(self.model_seed, self.n);
                let mut rng = sample::stream(
                    self.split_seed,
                    PURPOSE_SLS,
                    key,
                    ((cycle as u64) << 32) | item as u64,
                );
                let mut deal = votes.to_vec();
                sample::partial_shuffle(&mut deal, range.end, &mut rng);
                for &c in &deal[range] {
                    out[c as usize] += w;
                }
            }
            _ => unreachable!("only sls, shuffled_sls and multipass change per epoch"),
        }
    }
}

/// shuffled_sls's partners: a seeded permutation of the training items with no fixed point (for
/// two or more items), so every item is fed another item's votes.
pub fn partners(train: &[usize], split_seed: u64, model_seed: u64) -> Vec<usize> {
    let mut p: Vec<usize> = train.to_vec();
    let mut rng = sample::stream(split_seed, PURPOSE_PARTNER, model_seed, 0);
    let n = p.len();
    sample::partial_shuffle(&mut p, n, &mut rng);
    // A cyclic shift of a shuffled order: item p[j] gets p[j+1]'s votes.
    let mut out = vec![0; n];
    for j in 0..n {
        let (who, from) = (p[j], p[(j + 1) % n]);
        let at = train.iter().position(|&t| t == who).expect("in train");
        out[at] = from;
    }
    out
}

/// Every item's votes in its seeded order ([`vote_order`]): the N-vote subsample of item i is the
/// first N of `orders[i]`, nested in N. One call for the sweep, the planner and both fine-tunes.
pub fn vote_orders(
    table: &annosat_core::VoteTable,
    split_seed: u64,
    model_seed: u64,
) -> Vec<Vec<u16>> {
    (0..table.num_items())
        .map(|i| vote_order(table.counts(i), split_seed, i, model_seed))
        .collect()
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
/// For per-epoch arms and baselines this is p_N (their validation target).
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
        Arm::Soft | Arm::Sls | Arm::Multipass | Arm::ShuffledSls | Arm::Constant | Arm::Knn => {
            for (o, &cj) in out.iter_mut().zip(&c) {
                *o = (cj as f64 / n) as f32;
            }
        }
        Arm::Deterministic => {
            let first = &votes[bag(votes.len() as u32, visits(votes.len() as u32), 0)];
            out.fill(0.0);
            for &v in first {
                out[v as usize] += 1.0 / first.len() as f32;
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
        static_target(Arm::Deterministic, &votes, 3, &mut rng(), &mut t);
        assert_eq!(t, [1.0, 0.0, 0.0], "N=4: the first vote only");
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

    fn run(arm: Arm, n: u32) -> RunTargets {
        RunTargets {
            arm,
            n,
            split_seed: 3,
            model_seed: 1,
        }
    }

    /// Sum over the first `epochs` visits of the delivered vote counts (share × bag size).
    fn delivered(r: RunTargets, order: &[u16], epochs: usize) -> Vec<f32> {
        let l = visits(r.n);
        let mut total = vec![0f32; 3];
        let mut t = [0f32; 3];
        for e in 0..epochs {
            r.epoch_row(7, order, e, &mut t);
            let size = bag(r.n, l, e % l).len() as f32;
            for (a, b) in total.iter_mut().zip(t) {
                *a += b * size;
            }
        }
        total
    }

    #[test]
    fn multipass_and_sls_at_n_100_deliver_all_100_votes_in_one_cycle() {
        let order = vote_order(&[30, 50, 20], 42, 7, 0);
        for arm in [Arm::Multipass, Arm::Sls] {
            let r = run(arm, 100);
            // Every vote once per cycle of DELIVERY_EPOCHS epochs: the counts come back whole.
            let once = delivered(r, &order, DELIVERY_EPOCHS);
            assert_eq!(
                once.iter().map(|x| x.round() as u32).collect::<Vec<_>>(),
                [30, 50, 20]
            );
            let twice = delivered(r, &order, 2 * DELIVERY_EPOCHS);
            assert_eq!(
                twice.iter().map(|x| x.round() as u32).collect::<Vec<_>>(),
                [60, 100, 40]
            );
            assert_eq!(arm.first_eligible_epoch(100), DELIVERY_EPOCHS - 1);
            assert_eq!(arm.votes_used(100, DELIVERY_EPOCHS - 1), 100);
            assert_eq!(arm.votes_used(100, 20), 100);
        }
        assert_eq!(Arm::Deterministic.votes_used(100, 20), 25);
        assert_eq!(Arm::Soft.votes_used(100, 0), 100);
    }

    #[test]
    fn small_budgets_deliver_one_vote_per_epoch() {
        let order = [2u16, 0, 1];
        let mut t = [0f32; 3];
        let mp: Vec<usize> = (0..6)
            .map(|e| {
                run(Arm::Multipass, 3).epoch_row(0, &order, e, &mut t);
                t.iter().position(|&x| x == 1.0).unwrap()
            })
            .collect();
        assert_eq!(mp, vec![2, 0, 1, 2, 0, 1]);
        // sls: a fresh shuffle per cycle, without replacement inside it, different across cycles.
        let cycles: Vec<Vec<usize>> = (0..8)
            .map(|c| {
                (0..3)
                    .map(|v| {
                        run(Arm::Sls, 3).epoch_row(5, &order, c * 3 + v, &mut t);
                        t.iter().position(|&x| x == 1.0).unwrap()
                    })
                    .collect()
            })
            .collect();
        for c in &cycles {
            let mut s = c.clone();
            s.sort_unstable();
            assert_eq!(s, vec![0, 1, 2]);
        }
        assert!(cycles.iter().any(|c| c != &cycles[0]));
        assert_eq!(Arm::Sls.votes_used(3, 0), 1);
        assert_eq!(Arm::Sls.votes_used(3, 1), 2);
        assert_eq!(Arm::Sls.first_eligible_epoch(3), 2);
        assert_eq!(Arm::Sls.first_eligible_epoch(1), 0);
    }

    #[test]
    fn partners_are_a_permutation_without_fixed_points() {
        let train: Vec<usize> = (10..60).collect();
        let p = partners(&train, 42, 0);
        let mut s = p.clone();
        s.sort_unstable();
        assert_eq!(s, train);
        assert!(train.iter().zip(&p).all(|(a, b)| a != b));
        assert_eq!(p, partners(&train, 42, 0));
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
        assert_eq!(Arm::all().len(), 15);
    }
}
