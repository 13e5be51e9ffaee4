//! The item bootstrap against known answers: the analytic standard error of a mean, the closed
//! form of the squared distance under sampling without replacement, and coverage of the
//! population's 90% point on synthetic data with a known Dirichlet prior.

use annosat_core::curves::saturation::crossing;
use annosat_core::curves::{self, item_draws, CurveConfig, Curves, Metric};
use annosat_core::metrics::kl;
use annosat_core::synth::{generate, SynthConfig};
use annosat_core::{parse_votes, ImportOptions, VoteTable};
mod common;
use common::data_dir;

fn load(set: &str, file: &str) -> VoteTable {
    let path = data_dir().join(set).join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_votes(&bytes, &ImportOptions::default()).unwrap().0
}

/// Per item, the mean over `repeats` of `f(draw)` at N, from the very draws the engine uses.
fn per_item_means(
    t: &VoteTable,
    cfg: &CurveConfig,
    n: u32,
    f: impl Fn(&curves::ItemDraw) -> f64,
) -> Vec<f64> {
    let mut sums: Vec<f64> = Vec::new();
    for r in 0..cfg.repeats {
        let d = item_draws(t, cfg, n, r).unwrap();
        if sums.is_empty() {
            sums = vec![0.0; d.len()];
        }
        for (s, x) in sums.iter_mut().zip(&d) {
            *s += f(x);
        }
    }
    sums.iter().map(|s| s / cfg.repeats as f64).collect()
}

fn sd(v: &[f64]) -> f64 {
    let m = v.iter().sum::<f64>() / v.len() as f64;
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

fn smoothed_kl(d: &curves::ItemDraw, alpha: f64) -> f64 {
    let m: u32 = d.reference.iter().sum();
    let n: u32 = d.counts_n.iter().sum();
    let k = d.reference.len() as f64;
    let q: Vec<f64> = d.reference.iter().map(|&f| f as f64 / m as f64).collect();
    let p: Vec<f64> = d
        .counts_n
        .iter()
        .map(|&c| (c as f64 + alpha) / (n as f64 + k * alpha))
        .collect();
    kl(&q, &p)
}

/// At several N the bootstrap standard error of the mean curve is the analytic sd/√I of the
/// items' repeat-averaged values (jsd and kl, recomputed here from the engine's draws).
#[test]
fn bootstrap_standard_error_is_the_analytic_one() {
    for set in ["chaosnli_snli", "chaosnli_mnli"] {
        let t = load(set, "votes.csv");
        let cfg = CurveConfig {
            grid: vec![2, 5, 10, 30],
            repeats: 20,
            bootstrap: 400,
            ..Default::default()
        };
        let c = curves::compute(&t, &cfg).unwrap();
        let bands = c.item_bands().unwrap();
        assert!(!bands.blocks);
        let alpha = c.alpha;
        for (g, &n) in c.grid.iter().enumerate() {
            for (metric, vals) in [
                (Metric::Jsd, per_item_means(&t, &cfg, n, |d| d.jsd)),
                (
                    Metric::Kl,
                    per_item_means(&t, &cfg, n, |d| smoothed_kl(d, alpha)),
                ),
            ] {
                let analytic = sd(&vals) / (vals.len() as f64).sqrt();
                let boot = bands.se(metric, g).unwrap();
                let ratio = boot / analytic;
                println!(
                    "{set} {} N={n}: bootstrap se {boot:.5}, sd/√I {analytic:.5}, ratio {ratio:.3}",
                    metric.name()
                );
                assert!(
                    (0.9..=1.1).contains(&ratio),
                    "{set} {} at N={n}: {ratio}",
                    metric.name()
                );
                // The per-item means reproduce the curve's mean.
                let mean = vals.iter().sum::<f64>() / vals.len() as f64;
                let curve = c.point_at(metric, g).mean.unwrap();
                assert!((mean - curve).abs() < 1e-9 * curve.abs().max(1.0));
            }
        }
    }
}

/// E‖p_N − p_M‖² = (1 − ‖p_M‖²)/N · (M − N)/(M − 1) per item under sampling without
/// replacement; the engine's draws agree within 3 standard errors (over repeats).
#[test]
fn squared_distance_matches_its_closed_form() {
    for (set, file) in [("chaosnli_snli", "votes.csv"), ("cifar10h", "votes.csv")] {
        let t = load(set, file);
        let repeats = 100;
        let cfg = CurveConfig {
            repeats,
            ..Default::default()
        };
        for n in [2u32, 5, 10, 25] {
            let mut per_repeat = Vec::new();
            let mut expected = None;
            for r in 0..repeats {
                let d = item_draws(&t, &cfg, n, r).unwrap();
                let sq = |x: &curves::ItemDraw| {
                    let m: u32 = x.reference.iter().sum();
                    x.counts_n
                        .iter()
                        .zip(&x.reference)
                        .map(|(&c, &f)| {
                            let e = c as f64 / n as f64 - f as f64 / m as f64;
                            e * e
                        })
                        .sum::<f64>()
                };
                per_repeat.push(d.iter().map(sq).sum::<f64>() / d.len() as f64);
                expected.get_or_insert_with(|| {
                    d.iter()
                        .map(|x| {
                            let m: u32 = x.reference.iter().sum();
                            let p2: f64 = x
                                .reference
                                .iter()
                                .map(|&f| (f as f64 / m as f64).powi(2))
                                .sum();
                            let (n, m) = (n as f64, m as f64);
                            if m <= 1.0 {
                                0.0
                            } else {
                                (1.0 - p2) / n * (m - n) / (m - 1.0)
                            }
                        })
                        .sum::<f64>()
                        / d.len() as f64
                });
            }
            let mean = per_repeat.iter().sum::<f64>() / repeats as f64;
            let se = sd(&per_repeat) / (repeats as f64).sqrt();
            let e = expected.unwrap();
            println!("{set} N={n}: draws {mean:.6} ± {se:.6}, closed form {e:.6}");
            assert!(
                (mean - e).abs() < 3.0 * se,
                "{set} N={n}: {mean} vs {e} (se {se})"
            );
        }
    }
}

/// Parts over any split of the repeats give the same bootstrap, bit for bit, and turning the
/// bootstrap on changes no curve value.
#[test]
fn bootstrap_is_the_same_for_any_split_of_the_repeats() {
    let t = load("chaosnli_snli", "votes_old5.csv");
    let cfg = CurveConfig {
        repeats: 13,
        bootstrap: 50,
        ..Default::default()
    };
    let whole = curves::compute(&t, &cfg).unwrap();
    let parts = vec![
        curves::compute_repeats(&t, &cfg, 0..5, &mut |_, _| {}).unwrap(),
        curves::compute_repeats(&t, &cfg, 5..6, &mut |_, _| {}).unwrap(),
        curves::compute_repeats(&t, &cfg, 6..13, &mut |_, _| {}).unwrap(),
    ];
    let merged = Curves::merge(parts).unwrap();
    // (Compared as JSON: NaN, entropy correlation at N = 1, is never equal to itself.)
    let json = |c: &Curves| serde_json::to_string(c).unwrap();
    assert_eq!(json(&whole), json(&merged));
    let plain = curves::compute(
        &t,
        &CurveConfig {
            bootstrap: 0,
            ..cfg.clone()
        },
    )
    .unwrap();
    for m in Metric::ALL {
        assert_eq!(plain.points(m), whole.points(m));
    }
    // Resampled sums survive JSON (the app's workers send them).
    let back: Curves = serde_json::from_str(&json(&whole)).unwrap();
    assert_eq!(back.boot, whole.boot);
}

/// On synthetic data with a known Dirichlet prior, the item interval of each metric's 90% point
/// covers the population's point (from 100,000 items of the same prior) in 90–99% of 400
/// simulated datasets of 300 items. Compared as continuous crossings; rounding up to the grid
/// keeps the order, so wherever the continuous interval covers the population's crossing, the
/// grid interval shown covers its grid N (checked too).
#[test]
fn item_interval_of_the_90_point_covers_the_population_value() {
    let votes = 30;
    let base = common::crowd(300, votes, 60);
    let cfg = CurveConfig {
        repeats: 8,
        bootstrap: 200,
        ..Default::default()
    };
    // The population: five 20,000-item draws of the same prior, as one table.
    let pop = common::population_curves(&base, None);
    let datasets = 400u32;
    let mut covered = [0u32; 4];
    for d in 0..datasets {
        let syn = generate(&SynthConfig {
            seed: d as u64,
            ..base.clone()
        })
        .unwrap();
        let c = curves::compute(&syn.table, &cfg).unwrap();
        let bands = c.item_bands().unwrap();
        for m in Metric::ALL {
            let truth = crossing(&pop.grid, &pop.improvement_fraction(m), 0.9, true).unwrap();
            let iv = bands.saturation(m, 0.9);
            if iv.lo_n.is_some_and(|lo| lo <= truth) && iv.hi_n.is_some_and(|hi| truth <= hi) {
                covered[m as usize] += 1;
                let n = pop.saturation(m, 0.9).n.unwrap();
                assert!(
                    iv.lo.unwrap() <= n && n <= iv.hi.unwrap(),
                    "{}: {n} outside {iv:?}",
                    m.name()
                );
            }
        }
    }
    for m in Metric::ALL {
        let share = covered[m as usize] as f64 / datasets as f64;
        println!(
            "{}: population 90% point N={} (crossing at {:.2}), covered by the item interval in {:.1}% of {datasets} datasets",
            m.name(),
            pop.saturation(m, 0.9).n.unwrap(),
            crossing(&pop.grid, &pop.improvement_fraction(m), 0.9, true).unwrap(),
            100.0 * share
        );
    }
    for m in Metric::ALL {
        let share = covered[m as usize] as f64 / datasets as f64;
        assert!((0.90..=0.99).contains(&share), "{}: {share}", m.name());
    }
}
