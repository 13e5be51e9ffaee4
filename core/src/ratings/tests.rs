use super::*;
use crate::curves::CurveConfig;
use crate::sample;
use crate::votes::VoteTable;

/// `items` items on a 1–5 scale with 10–30 ratings each, the shares drawn per item (seeded).
fn ratings(items: usize, seed: u64) -> VoteTable {
    let mut rng = sample::stream(seed, 0x7A7, 0, 0);
    let mut counts = Vec::new();
    for _ in 0..items {
        let m = 10 + sample::below(&mut rng, 21);
        let centre = sample::below(&mut rng, 5) as i32;
        let mut c = [0u32; 5];
        for _ in 0..m {
            let step = sample::below(&mut rng, 3) as i32 - 1;
            c[(centre + step).clamp(0, 4) as usize] += 1;
        }
        counts.extend_from_slice(&c);
    }
    let classes = (1..=5).map(|k| k.to_string()).collect();
    let ids = (0..items).map(|i| format!("i{i}")).collect();
    VoteTable::new(classes, ids, counts)
}

fn scale(t: &VoteTable) -> Scale {
    Scale::detect(t.classes()).unwrap()
}

fn cfg(grid: Vec<u32>, repeats: u32) -> CurveConfig {
    CurveConfig {
        grid,
        repeats,
        ..Default::default()
    }
}

#[test]
fn the_closed_form_squared_error_matches_the_subsampler_within_3_standard_errors() {
    let t = ratings(300, 1);
    let c = compute(
        &t,
        &scale(&t),
        &cfg(vec![1, 2, 5, 10, 20], 400),
        &mut |_| {},
    )
    .unwrap();
    for (g, &n) in c.grid.iter().enumerate() {
        let mse: Vec<f64> = c.values[RatingMetric::MeanRmse as usize][g]
            .iter()
            .map(|v| v.unwrap().powi(2))
            .collect();
        let r = mse.len() as f64;
        let mean = mse.iter().sum::<f64>() / r;
        let sd = (mse.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (r - 1.0)).sqrt();
        let se = sd / r.sqrt();
        let want = c.expected_mse[g];
        assert!(
            (mean - want).abs() <= 3.0 * se,
            "N={n}: subsampled {mean} vs closed form {want} (se {se})"
        );
    }
}

#[test]
fn all_the_ratings_of_a_balanced_table_give_zero_error_and_the_spearman_brown_reliability() {
    // Every item has 12 ratings: at N = 12 the sample is all of them.
    let mut rng = sample::stream(3, 0x7A8, 0, 0);
    let mut counts = Vec::new();
    for _ in 0..200 {
        let mut c = [0u32; 5];
        let centre = sample::below(&mut rng, 5) as i32;
        for _ in 0..12 {
            let step = sample::below(&mut rng, 3) as i32 - 1;
            c[(centre + step).clamp(0, 4) as usize] += 1;
        }
        counts.extend_from_slice(&c);
    }
    let classes = (1..=5).map(|k| k.to_string()).collect();
    let t = VoteTable::new(classes, (0..200).map(|i| format!("i{i}")).collect(), counts);
    let c = compute(&t, &scale(&t), &cfg(vec![1, 6, 12], 3), &mut |_| {}).unwrap();
    let last = c.grid.len() - 1;
    for m in [RatingMetric::MeanError, RatingMetric::Wasserstein] {
        assert!(c.point(m, last).mean.unwrap().abs() < 1e-12, "{}", m.name());
    }
    assert!((c.point(RatingMetric::RankCorr, last).mean.unwrap() - 1.0).abs() < 1e-12);
    // Balanced: ICC(1,k) of all k ratings is the Spearman–Brown step-up of ICC(1).
    let rel = c.point(RatingMetric::Reliability, last).mean.unwrap();
    assert!((rel - c.spearman_brown(12).unwrap()).abs() < 1e-9, "{rel}");
    assert!(
        c.point(RatingMetric::Reliability, 0).mean.is_none(),
        "one rater: no ICC(1,k)"
    );
    // Every number falls or rises as it should between 1 and 6 raters.
    let p = |m, g| c.point(m, g).mean.unwrap();
    assert!(p(RatingMetric::MeanError, 0) > p(RatingMetric::MeanError, 1));
    assert!(p(RatingMetric::RankCorr, 0) < p(RatingMetric::RankCorr, 1));
}

#[test]
fn icc1_equals_the_textbook_one_way_anova_on_expanded_ratings() {
    let t = ratings(40, 5);
    let s = scale(&t);
    // The long way: every rating as a number, the ANOVA's sums of squares from them.
    let rows: Vec<Vec<f64>> = (0..t.num_items())
        .map(|i| {
            t.counts(i)
                .iter()
                .enumerate()
                .flat_map(|(k, &c)| std::iter::repeat_n(s.values[k], c as usize))
                .collect()
        })
        .collect();
    let all: Vec<f64> = rows.iter().flatten().copied().collect();
    let (n, big_n) = (rows.len() as f64, all.len() as f64);
    let grand = all.iter().sum::<f64>() / big_n;
    let mean = |r: &Vec<f64>| r.iter().sum::<f64>() / r.len() as f64;
    let ssb: f64 = rows
        .iter()
        .map(|r| r.len() as f64 * (mean(r) - grand).powi(2))
        .sum();
    let ssw: f64 = rows
        .iter()
        .map(|r| r.iter().map(|x| (x - mean(r)).powi(2)).sum::<f64>())
        .sum();
    let (msb, msw) = (ssb / (n - 1.0), ssw / (big_n - n));
    let k0 =
        (big_n - rows.iter().map(|r| (r.len() as f64).powi(2)).sum::<f64>() / big_n) / (n - 1.0);
    let want = (msb - msw) / (msb + (k0 - 1.0) * msw);
    assert!((curves::icc1(&t, &s).unwrap() - want).abs() < 1e-12);
}

#[test]
fn a_held_out_reference_and_a_zero_n_are_refused() {
    let t = ratings(20, 2);
    let held = CurveConfig {
        reference: crate::curves::Reference::HeldOut { fraction: 0.2 },
        ..Default::default()
    };
    assert!(compute(&t, &scale(&t), &held, &mut |_| {}).is_err());
    assert!(compute(&t, &scale(&t), &cfg(vec![0, 1], 2), &mut |_| {}).is_err());
}

#[test]
fn parts_of_the_repeats_merge_into_the_whole_computation() {
    let t = ratings(120, 3);
    let s = scale(&t);
    let c = CurveConfig {
        bootstrap: 20,
        ..cfg(Vec::new(), 7)
    };
    let whole = RatingReport::of(&t, &s, &c, 0..7, &mut |_| {}).unwrap();
    // Backwards, as workers may answer.
    let parts = [5..7, 2..5, 0..2]
        .into_iter()
        .map(|p| RatingReport::of(&t, &s, &c, p, &mut |_| {}).unwrap())
        .collect();
    let merged = RatingReport::merge(parts).unwrap();
    assert_same_report(merged, whole.clone());
    assert_eq!(whole.answers.len(), 2);
    // Without a grid, N stops at the count 80% of the items reach.
    assert_eq!(
        whole.curves.grid.last().copied(),
        Some(crate::curves::cap::reference_votes(&t))
    );
    let gap = [0..2, 3..5]
        .into_iter()
        .map(|p| RatingReport::of(&t, &s, &c, p, &mut |_| {}).unwrap())
        .collect();
    assert!(
        RatingReport::merge(gap).is_err(),
        "a missing repeat is refused"
    );
}

#[test]
fn ranking_by_counted_steps_equals_sorting_the_means() {
    // Half-point steps (counted) and an uneven scale off any step grid (sorted) give Spearman's
    // ρ of the means bit for bit.
    let t = ratings(200, 4);
    for values in [
        vec![0.5, 1.0, 1.5, 2.0, 2.5],
        vec![1.0, 2.0, 4.0, 8.0, 9.5],
        vec![1.0, 1.1, std::f64::consts::PI, 5.0, 7.0],
    ] {
        let s = Scale {
            kind: ScaleKind::Interval,
            values,
        };
        let c = compute(&t, &s, &cfg(vec![1, 3, 10], 4), &mut |_| {}).unwrap();
        for (g, &n) in c.grid.iter().enumerate() {
            for r in 0..4 {
                let want = spearman_of_repeat(&t, &s, (n, r), c.seed);
                assert_eq!(
                    c.values[RatingMetric::RankCorr as usize][g][r as usize],
                    want
                );
            }
        }
    }
}

/// Spearman's ρ of one repeat's N-rater means, drawn again the curves' way and sorted.
fn spearman_of_repeat(t: &VoteTable, s: &Scale, (n, r): (u32, u32), seed: u64) -> Option<f64> {
    let (mut means, mut truth) = (Vec::new(), Vec::new());
    for i in 0..t.num_items() {
        let total = t.total(i);
        if total < n {
            continue;
        }
        let mut left = t.counts(i).to_vec();
        let mut draws = sample::CurveDraws::new(seed, i, r);
        let mut sum = 0.0;
        for taken in 0..n {
            let c = sample::class_at(&left, draws.below(total - taken));
            left[c] -= 1;
            sum += s.values[c];
        }
        means.push(sum / n as f64);
        let all: f64 = t
            .counts(i)
            .iter()
            .zip(&s.values)
            .map(|(&k, v)| k as f64 * v)
            .sum();
        truth.push(all / total as f64);
    }
    crate::metrics::corr::spearman(&means, &truth)
}

/// Two reports equal, the item bootstrap's sums to rounding (parts add their own sums, whose
/// order differs from one pass's) and everything else bit for bit.
pub(crate) fn assert_same_report(mut a: RatingReport, mut b: RatingReport) {
    assert_eq!(a.curves.boot.len(), b.curves.boot.len());
    for (x, y) in a.curves.boot.iter().zip(&b.curves.boot) {
        assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0), "{x} vs {y}");
    }
    assert!(
        !a.curves.boot.is_empty(),
        "the item bootstrap was asked for"
    );
    a.curves.boot.clear();
    b.curves.boot.clear();
    assert_eq!(a, b);
}

#[test]
fn saturation_points_carry_their_interval_and_the_bounded_by_votes_rule() {
    let t = ratings(200, 5);
    let c = CurveConfig {
        bootstrap: 50,
        ..cfg(Vec::new(), 10)
    };
    let curves = compute(&t, &scale(&t), &c, &mut |_| {}).unwrap();
    let votes = *curves.grid.last().unwrap();
    for m in RatingMetric::ALL {
        let s = saturation(&curves, m, 0.9);
        let n = s.n.expect("every curve moves");
        assert_eq!(s.bounded_by_votes, 5 * n > votes, "{m:?} at {n} of {votes}");
        assert_eq!(s.sentence.contains("bounded by the"), s.bounded_by_votes);
        match m {
            RatingMetric::RankCorr => assert_eq!((s.lo, s.hi), (None, None)),
            _ => {
                let (lo, hi) = (s.lo.unwrap(), s.hi.unwrap());
                assert!(
                    lo <= hi && lo <= n + 2 && n <= hi + 2,
                    "{m:?}: {n} in {lo}–{hi}"
                );
            }
        }
    }
}
