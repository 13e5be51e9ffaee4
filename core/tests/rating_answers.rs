//! The rating headline against a known answer: synthetic 1–5 ratings whose items' true rating
//! distributions are known. The population's raters for a precise mean (mean true variance / ε²)
//! and for a reliable mean (Spearman–Brown from the population ICC: the variance of the true
//! means over that plus the mean true variance) come from 100,000 items (five draws of 20,000); each of 200 datasets of
//! 300 items with 5 ratings each gets its answer and 95% interval over items, and we count how
//! often the interval holds the population's N.

use annosat_core::ratings::{answers, RatingGoal, Scale, ScaleKind};
use annosat_core::synth::{generate, SynthConfig};
mod common;

const DATASETS: u64 = 200;

fn scale() -> Scale {
    Scale {
        kind: ScaleKind::Interval,
        values: vec![1.0, 2.0, 3.0, 4.0, 5.0],
    }
}

fn config(items: usize, votes: u32, seed: u64) -> SynthConfig {
    SynthConfig {
        items,
        classes: 5,
        concentration: 0.6,
        votes,
        annotators: 40,
        dim: 1,
        seed,
        ..Default::default()
    }
}

/// The population's mean true variance and single-rater ICC, from five 20,000-item draws.
fn population() -> (f64, f64) {
    let v = scale().values;
    let (mut means, mut vars) = (Vec::new(), Vec::new());
    for s in 0..5 {
        let syn = generate(&config(20_000, 1, 9_000 + s)).unwrap();
        for theta in syn.truth.chunks(5) {
            let mu: f64 = theta.iter().zip(&v).map(|(p, x)| p * x).sum();
            let var: f64 = theta
                .iter()
                .zip(&v)
                .map(|(p, x)| p * (x - mu).powi(2))
                .sum();
            means.push(mu);
            vars.push(var);
        }
    }
    let n = means.len() as f64;
    let grand = means.iter().sum::<f64>() / n;
    let between = means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() / n;
    let within = vars.iter().sum::<f64>() / n;
    (within, between / (between + within))
}

#[test]
fn the_interval_over_items_holds_the_populations_raters_for_both_goals() {
    let (within, icc) = population();
    let (eps, rho) = (0.3, 0.9);
    let truth = [
        within / (eps * eps),
        rho * (1.0 - icc) / (icc * (1.0 - rho)),
    ];
    let mut held = [0u32; 2];
    for d in 0..DATASETS {
        let syn = generate(&config(300, 5, d)).unwrap();
        let a = answers(&syn.table, &scale(), eps, rho, 200, 42);
        for (k, goal) in [RatingGoal::Precision, RatingGoal::Reliability]
            .into_iter()
            .enumerate()
        {
            let x = a.iter().find(|x| x.goal == goal).unwrap();
            let t = truth[k].ceil() as u32;
            held[k] += (x.lo.unwrap() <= t && t <= x.hi.unwrap()) as u32;
        }
    }
    println!(
        "population: precision ±{eps} at N = {:.2}, reliability {rho} at N = {:.2} (ICC {icc:.3}); held by the 95% interval over items in {} and {} of {DATASETS} datasets of 300 items × 5 ratings",
        truth[0], truth[1], held[0], held[1]
    );
    for h in held {
        let share = h as f64 / DATASETS as f64;
        assert!((0.90..=0.995).contains(&share), "{share}");
    }
}

#[test]
fn one_rating_per_item_says_why_there_is_no_answer() {
    let syn = generate(&config(200, 1, 1)).unwrap();
    let a = answers(&syn.table, &scale(), 0.1, 0.9, 50, 1);
    assert!(a.iter().all(|x| x.n.is_none()));
    assert!(
        a[0].sentence.contains("No item has two ratings"),
        "{}",
        a[0].sentence
    );
}

/// KonIQ-10k (93–157 ratings per image) cut to 3, 5 and 10 ratings per image, 10 cuts each: the
/// few-rating answer's interval holds the answer from all the ratings.
/// KonIQ-10k's ratings (the data folder's, else the incoming folder beside it).
fn koniq() -> Option<annosat_core::VoteTable> {
    let path = [
        common::data_dir(),
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/incoming"),
    ]
    .iter()
    .map(|d| d.join("koniq10k/votes.csv"))
    .find(|p| p.exists())?;
    let bytes = std::fs::read(path).unwrap();
    Some(
        annosat_core::parse_votes(&bytes, &annosat_core::ImportOptions::default())
            .unwrap()
            .0,
    )
}

/// `table` with every item cut to `m` of its ratings (seeded by `cut`).
fn cut_to(table: &annosat_core::VoteTable, m: u32, cut: u64) -> annosat_core::VoteTable {
    let mut counts = Vec::new();
    for i in 0..table.num_items() {
        let mut rng = annosat_core::sample::stream(cut, 0x7A9, i as u64, m as u64);
        let c = annosat_core::sample::subsample_counts(table.counts(i), m, &mut rng);
        counts.extend(c.unwrap());
    }
    annosat_core::VoteTable::new(table.classes().to_vec(), table.item_ids().to_vec(), counts)
}

/// KonIQ-10k (93–157 ratings per image) cut to 3, 5 and 10 ratings per image, 10 cuts each: the
/// few-rating answer's interval holds the answer from all the ratings.
#[test]
fn few_ratings_of_koniq_give_the_answer_all_its_ratings_give() {
    let Some(table) = koniq() else {
        eprintln!("skipped: no KonIQ-10k votes");
        return;
    };
    let (eps, rho) = (0.1, 0.9);
    let full = answers(&table, &scale(), eps, rho, 0, 0);
    for m in [3u32, 5, 10] {
        let mut held = [0u32; 2];
        for cut in 0..10u64 {
            let few = cut_to(&table, m, cut);
            let a = answers(&few, &scale(), eps, rho, 200, cut);
            for k in 0..2 {
                let t = full[k].n.unwrap();
                held[k] += (a[k].lo.unwrap() <= t && t <= a[k].hi.unwrap()) as u32;
            }
        }
        println!(
            "KonIQ-10k cut to {m} ratings: precision ±{eps} (all ratings: N = {}) held in {} of 10 cuts, reliability {rho} (all: N = {}) in {} of 10",
            full[0].n.unwrap(),
            held[0],
            full[1].n.unwrap(),
            held[1]
        );
        assert!(held.iter().all(|&h| h >= 8), "{held:?}");
    }
}

#[test]
fn a_budgets_interval_holds_the_populations_precision_and_reliability() {
    // 300 items × 5 ratings per dataset; the plan: 12 ratings per item on 1,000 items.
    let (within, icc) = population();
    let n = 12.0;
    let truth = ((within / n).sqrt(), n * icc / (1.0 + (n - 1.0) * icc));
    let mut held = [0u32; 2];
    for d in 0..DATASETS {
        let syn = generate(&config(300, 5, d)).unwrap();
        let b = annosat_core::ratings::RatingBasis::of(&syn.table, &scale(), 200, 42);
        let plan = b.budget(1_000, 12_000);
        assert_eq!(plan.per_item, 12.0);
        let (lo, hi) = plan.rmse_ci.unwrap();
        held[0] += (lo <= truth.0 && truth.0 <= hi) as u32;
        let (lo, hi) = plan.reliability_ci.unwrap();
        held[1] += (lo <= truth.1 && truth.1 <= hi) as u32;
        if d == 0 {
            assert!(plan
                .sentence
                .starts_with("12000 ratings over 1000 items, 12.0 per item"));
            assert!(plan
                .sentence
                .contains("Extrapolated: no item has more than 5 ratings"));
        }
    }
    println!(
        "population at 12 ratings per item: RMSE {:.4}, reliability {:.4}; held by the 95% interval over items in {} and {} of {DATASETS} datasets",
        truth.0, truth.1, held[0], held[1]
    );
    for h in held {
        let share = h as f64 / DATASETS as f64;
        assert!((0.90..=0.995).contains(&share), "{share}");
    }
}

/// KonIQ-10k cut to 5 ratings per image, its rating curves extrapolated to 100 ratings through
/// the fitted prior, against the curves of all its ratings (93–157) at N = 5, 10, 20, 50.
#[test]
fn koniqs_rating_curves_extrapolated_from_5_ratings_match_all_its_ratings() {
    use annosat_core::curves::CurveConfig;
    use annosat_core::ratings::{compute, extrapolated, RatingMetric};
    let Some(table) = koniq() else {
        eprintln!("skipped: no KonIQ-10k votes");
        return;
    };
    let cfg = CurveConfig {
        grid: vec![5, 10, 20, 50],
        repeats: 20,
        ..Default::default()
    };
    let all = compute(&table, &scale(), &cfg, &mut |_| {}).unwrap();
    let few = cut_to(&table, 5, 0);
    let prior = annosat_core::extrapolate::fit(
        &few,
        annosat_core::extrapolate::Components::Auto { max: 4 },
        42,
    )
    .unwrap();
    let ext = extrapolated(&few, &scale(), &prior, (100, 10), &cfg).unwrap();
    let mut worst: f64 = 0.0;
    for m in [
        RatingMetric::MeanError,
        RatingMetric::Reliability,
        RatingMetric::RankCorr,
        RatingMetric::Wasserstein,
    ] {
        for g in 0..cfg.grid.len() {
            let (a, e) = (all.point(m, g), ext.point(m, g));
            let (a, e) = (a.mean.unwrap(), e.mean.unwrap());
            let rel = (e - a).abs() / a.abs();
            worst = worst.max(rel);
            println!(
                "KonIQ-10k from 5 ratings, extrapolated to 100: {} at N = {}: {e:.4} (all ratings: {a:.4}, {:+.1}%)",
                m.name(),
                cfg.grid[g],
                100.0 * (e - a) / a
            );
        }
    }
    assert!(worst <= 0.10, "worst relative error {worst}");
}

/// The rating curves' item bootstrap against a known answer: the expected value at N = 5 of a
/// dataset of 300 items with 20 ratings each (the mean of 100 such datasets, drawn apart) inside
/// the band over items of 100 other datasets.
#[test]
fn the_rating_curves_band_over_items_holds_the_populations_value() {
    use annosat_core::curves::CurveConfig;
    use annosat_core::ratings::{compute, RatingMetric};
    let metrics = [
        RatingMetric::MeanError,
        RatingMetric::MeanRmse,
        RatingMetric::Reliability,
        RatingMetric::Wasserstein,
    ];
    let cfg = |repeats, bootstrap| CurveConfig {
        grid: vec![5],
        repeats,
        bootstrap,
        ..Default::default()
    };
    let sets = 100;
    let mut truth = [0.0; 4];
    for d in 0..sets {
        let syn = generate(&config(300, 20, 5_000 + d)).unwrap();
        let c = compute(&syn.table, &scale(), &cfg(10, 0), &mut |_| {}).unwrap();
        for (k, &m) in metrics.iter().enumerate() {
            truth[k] += c.point(m, 0).mean.unwrap() / sets as f64;
        }
    }
    let mut held = [0u32; 4];
    for d in 0..sets {
        let syn = generate(&config(300, 20, 1_000 + d)).unwrap();
        let c = compute(&syn.table, &scale(), &cfg(10, 200), &mut |_| {}).unwrap();
        for (k, &m) in metrics.iter().enumerate() {
            let (lo, hi) = c.item_band(m, 0).unwrap();
            held[k] += (lo <= truth[k] && truth[k] <= hi) as u32;
        }
        assert_eq!(c.item_band(RatingMetric::RankCorr, 0), None);
    }
    println!(
        "rating curves at N = 5 (expected over datasets of 300 items × 20 ratings: mean error {:.4}, RMSE {:.4}, reliability {:.4}, Wasserstein {:.4}): held by the 95% band over items in {}, {}, {} and {} of {sets} other datasets",
        truth[0], truth[1], truth[2], truth[3], held[0], held[1], held[2], held[3]
    );
    for h in held {
        assert!((88..=100).contains(&h), "{held:?}");
    }
}
