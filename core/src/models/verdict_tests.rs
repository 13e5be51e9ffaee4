//! The verdict rule on data with a known answer: predictions built as the human distribution
//! moved towards another by d_N, so Brier(N) = d_N² · C exactly and the improvement fraction at
//! every N is known, in every resample alike.

use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const NS: [u32; 7] = [1, 2, 5, 10, 20, 50, 100];
const K: usize = 3;

fn dirichlet_row(rng: &mut ChaCha8Rng) -> Vec<f64> {
    let g: Vec<f64> = (0..K)
        .map(|_| -libm::log(rng.random::<f64>().max(1e-12)))
        .collect();
    let s: f64 = g.iter().sum();
    g.iter().map(|x| x / s).collect()
}

/// Two splits × `items` items, 3 model seeds; at each N the prediction is
/// human + d(N) · (other − human) with `other` a fixed (or, when `fresh`, per-N) random distribution.
fn blocks(items: usize, seed: u64, d: impl Fn(usize) -> f64, fresh: bool) -> Vec<Block> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..2)
        .map(|_| {
            let human: Vec<f64> = (0..items).flat_map(|_| dirichlet_row(&mut rng)).collect();
            let fixed: Vec<f64> = (0..items).flat_map(|_| dirichlet_row(&mut rng)).collect();
            let mut runs = Vec::new();
            for s in 0..3u64 {
                for (ni, &n) in NS.iter().enumerate() {
                    let other: Vec<f64> = if fresh {
                        (0..items).flat_map(|_| dirichlet_row(&mut rng)).collect()
                    } else {
                        fixed.clone()
                    };
                    let pred = human
                        .iter()
                        .zip(&other)
                        .map(|(h, o)| h + d(ni) * (o - h))
                        .collect();
                    runs.push(RunPredictions {
                        arm: "soft".into(),
                        seed: s,
                        n,
                        pred,
                    });
                }
            }
            Block {
                human,
                strata: vec![0; items],
                runs,
            }
        })
        .collect()
}

fn brier(v: &[ArmVerdicts]) -> MetricVerdict {
    *v[0].get(ModelMetric::Brier).unwrap()
}

// Share of the improvement captured at each grid N: 90% is passed between N = 20 and N = 50.
const CAPTURED: [f64; 7] = [0.0, 0.3, 0.6, 0.8, 0.85, 0.95, 1.0];

#[test]
fn a_clear_improvement_saturates_at_the_known_point() {
    let b = blocks(200, 1, |i| (1.0 - CAPTURED[i]).sqrt() * 0.8 + 0.1, false);
    let v = verdicts(&b, K, &VerdictConfig::default());
    let m = brier(&v);
    assert_eq!(m.verdict, Verdict::Saturates, "{m:?}");
    // Brier = (0.1 + 0.8·√(1 − F))² C: not linear in F, so compute the known point from d itself.
    let d = |i: usize| (1.0 - CAPTURED[i]).sqrt() * 0.8 + 0.1;
    let f: Vec<f64> = (0..7)
        .map(|i| (d(0).powi(2) - d(i).powi(2)) / (d(0).powi(2) - d(6).powi(2)))
        .collect();
    let known = NS[f.iter().position(|&x| x >= 0.9).unwrap()];
    assert_eq!(m.n90, Some(known), "{m:?} {f:?}");
    // Every resample has the same fractions (Brier scales by one constant per resample).
    assert_eq!((m.n90_lo, m.n90_hi), (Some(known), Some(known)), "{m:?}");
    assert!(m.change.unwrap() < 0.0 && m.change_hi.unwrap() < 0.0);
    // KL improves too, and is judged on the same draws.
    let kl = v[0].get(ModelMetric::Kl).unwrap();
    assert_eq!(kl.verdict, Verdict::Saturates, "{kl:?}");
}

#[test]
fn a_flat_curve_with_noise_shows_no_detectable_change() {
    let mut flat = 0;
    for seed in 0..10 {
        let b = blocks(150, 100 + seed, |_| 0.5, true);
        let m = brier(&verdicts(&b, K, &VerdictConfig::default()));
        if m.verdict == Verdict::NoDetectableChange {
            flat += 1;
            assert!(m.n90.is_none() && m.change_lo.unwrap() < 0.0 && m.change_hi.unwrap() > 0.0);
        }
    }
    // Nominal 95%: 9.5 of 10 expected; 8 allows one unlucky draw.
    assert!(flat >= 8, "{flat} of 10 flat curves judged flat");
}

#[test]
fn a_fall_worsens() {
    let b = blocks(200, 7, |i| CAPTURED[i].sqrt() * 0.8 + 0.1, false);
    let m = brier(&verdicts(&b, K, &VerdictConfig::default()));
    assert_eq!(m.verdict, Verdict::Worsens, "{m:?}");
    assert!(m.n90.is_none() && m.change_lo.unwrap() > 0.0);
    assert_eq!(m.short(), "worsens with N");
}

#[test]
fn the_measured_curve_is_the_mean_of_the_runs_exported_metrics() {
    let b = blocks(60, 3, |i| 0.1 + 0.05 * i as f64, true);
    let v = verdicts(
        &b,
        K,
        &VerdictConfig {
            resamples: 20,
            ..Default::default()
        },
    );
    let mean_at = |n: u32| {
        let vals: Vec<f64> = b
            .iter()
            .flat_map(|bl| {
                bl.runs
                    .iter()
                    .filter(move |r| r.n == n)
                    .map(move |r| (bl, r))
            })
            .map(|(bl, r)| RunMetrics::of(&r.pred, &bl.human, K).kl)
            .collect();
        vals.iter().sum::<f64>() / vals.len() as f64
    };
    let kl = v[0].get(ModelMetric::Kl).unwrap();
    assert_eq!(kl.change.unwrap(), mean_at(100) - mean_at(1));
}

#[test]
fn resampling_splits_as_blocks_widens_the_interval_when_splits_disagree() {
    // One split improves, the other does not: with blocks resampled, "which split" is uncertain,
    // so the interval is wider than each split's own.
    let mut b = blocks(200, 11, |i| (1.0 - CAPTURED[i]).sqrt() * 0.8 + 0.1, false);
    let flat = blocks(200, 12, |_| 0.5, true);
    b[1] = flat.into_iter().next().unwrap();
    let both = brier(&verdicts(&b, K, &VerdictConfig::default()));
    let one = brier(&verdicts(&b[..1], K, &VerdictConfig::default()));
    let w = |m: &MetricVerdict| m.half_width().unwrap();
    assert!(w(&both) > 2.0 * w(&one), "{both:?} {one:?}");
}

#[test]
fn judge_on_hand_made_curves() {
    let ns = [1, 10, 100];
    let c0 = [Some(1.0), Some(0.5), Some(0.4)];
    let noisy: Vec<[Option<f64>; 3]> = (0..50)
        .map(|i| {
            let e = (i as f64 - 25.0) / 250.0;
            [Some(1.0 + e), Some(0.5), Some(0.4 - e)]
        })
        .collect();
    let mut all: Vec<&[Option<f64>]> = vec![&c0];
    all.extend(noisy.iter().map(|c| c.as_slice()));
    let m = judge(&ns, &all, false, 0.9);
    assert_eq!(m.verdict, Verdict::Saturates);
    // 90% of 0.6 is 0.54, reached between N = 10 (0.5 drop) and N = 100.
    assert_eq!(m.n90, Some(100));
    // Resamples with a smaller drop cross 90% of it before N = 10.
    assert_eq!(m.short(), "N=100 [10, 100]");
    let undefined = [None, Some(0.1), Some(0.2)];
    let m = judge(&ns, &[&undefined, &undefined], true, 0.9);
    assert_eq!(m.verdict, Verdict::Undefined);
}

#[test]
fn an_arm_against_a_baseline_is_paired_over_the_same_draws() {
    // "soft" ends near the truth, "constant" stays far from it: soft is better at N_max, and the
    // baseline is never compared with itself.
    let mut b = blocks(150, 21, |i| (1.0 - CAPTURED[i]).sqrt() * 0.8 + 0.1, false);
    let far = blocks(150, 21, |_| 0.9, false);
    for (bl, f) in b.iter_mut().zip(far) {
        bl.runs.extend(f.runs.into_iter().map(|mut r| {
            r.arm = "constant".into();
            r
        }));
    }
    let e = evaluate(&b, K, &VerdictConfig::default());
    let v = e
        .versus
        .iter()
        .find(|v| v.arm == "soft" && v.metric == ModelMetric::Brier)
        .unwrap();
    assert_eq!(
        (v.baseline.as_str(), v.outcome.as_str(), v.n),
        ("constant", "better", 100)
    );
    assert!(v.diff.unwrap() < 0.0 && v.hi.unwrap() < 0.0, "{v:?}");
    assert!(e.versus.iter().all(|v| v.arm != v.baseline));
}

#[test]
fn folds_are_strata_every_resample_keeps_each_folds_size() {
    let strata: Vec<u32> = (0..50).map(|i| (i % 5) as u32).collect();
    let block = Block {
        human: vec![1.0 / 3.0; 150],
        strata: strata.clone(),
        runs: Vec::new(),
    };
    for b in 1..20 {
        let draw = resample(std::slice::from_ref(&block), 3, b);
        let idx = &draw[0].1;
        for f in 0..5u32 {
            assert_eq!(idx.iter().filter(|&&i| strata[i] == f).count(), 10);
        }
    }
}

#[test]
fn a_point_forced_by_few_votes_is_bounded_and_not_printed() {
    // The same clear improvement, on a grid that ends at 10 votes: its 90% point (N=7) lies past
    // the first fifth of the votes, so the data cannot show it.
    let grid = [1, 2, 3, 4, 5, 7, 10];
    let relabel = |mut b: Vec<Block>| {
        for r in b.iter_mut().flat_map(|b| b.runs.iter_mut()) {
            r.n = grid[NS.iter().position(|&n| n == r.n).unwrap()];
        }
        b
    };
    let b = relabel(blocks(
        200,
        1,
        |i| (1.0 - CAPTURED[i]).sqrt() * 0.8 + 0.1,
        false,
    ));
    let m = brier(&verdicts(&b, K, &VerdictConfig::default()));
    assert_eq!(
        (m.verdict, m.bounded_by, m.n90),
        (Verdict::Saturates, Some(10), Some(7))
    );
    assert!(!m.has_point());
    assert_eq!(
        m.headline(),
        "improves with N; its 90% point is bounded by your 10 votes"
    );
    assert_eq!(caption(Some(&m), Some(5), 0.8, VERDICT_X), m.short());
    // 90% captured by N=2 (a fifth of 10 votes): shown.
    let early: [f64; 7] = [0.0, 0.95, 0.97, 0.98, 0.99, 1.0, 1.0];
    let b = relabel(blocks(
        200,
        1,
        |i| (1.0 - early[i]).sqrt() * 0.8 + 0.1,
        false,
    ));
    let m = brier(&verdicts(&b, K, &VerdictConfig::default()));
    assert_eq!(
        (m.verdict, m.bounded_by, m.n90),
        (Verdict::Saturates, None, Some(2))
    );
    assert!(m.has_point() && m.headline().starts_with("saturates by N=2"));
    // 100 votes (the convention's reference) are never bounded.
    let m = brier(&verdicts(
        &blocks(200, 1, |i| (1.0 - CAPTURED[i]).sqrt() * 0.8 + 0.1, false),
        K,
        &VerdictConfig::default(),
    ));
    assert_eq!(m.bounded_by, None);
}
