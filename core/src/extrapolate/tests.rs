use super::*;
use crate::curves::Metric;
use crate::synth::{generate, SynthConfig};
use rand_distr::Distribution;

use super::test_table as table;

fn config(reference_votes: u32, grid: Vec<u32>) -> ExtrapolateConfig {
    ExtrapolateConfig {
        reference_votes: ReferenceVotes::Votes(reference_votes),
        curves: CurveConfig {
            grid,
            repeats: 20,
            ..Default::default()
        },
        draws: 5,
        components: Components::Fixed(1),
    }
}

#[test]
fn posterior_tables_have_the_asked_votes_and_follow_strong_evidence() {
    // Item 0 has 900 votes 2:1 — its posterior is tight; item 1 has none — its posterior is the
    // prior.
    let t = table(vec![600, 300, 0, 0, 5, 5], 2);
    let f = fit(&t, Components::Fixed(1), 1).unwrap();
    let a = posterior_table(&t, &f, 3000, 1, 0);
    assert_eq!(a, posterior_table(&t, &f, 3000, 1, 0), "deterministic");
    assert_ne!(a, posterior_table(&t, &f, 3000, 1, 1), "draws differ");
    for i in 0..3 {
        assert_eq!(a.total(i), 3000);
    }
    let share = a.counts(0)[0] as f64 / 3000.0;
    assert!((share - 2.0 / 3.0).abs() < 0.05, "{share}");
}

/// On data that really come from one Dirichlet prior, extrapolating from 5 votes per item back to
/// 40 reproduces the curves of the 40-vote data.
#[test]
fn extrapolation_from_five_votes_matches_the_dense_data_it_came_from() {
    let syn = generate(&SynthConfig {
        items: 600,
        votes: 40,
        classes: 3,
        concentration: 0.8,
        spammers: 0.0,
        biased: 0.0,
        ..Default::default()
    })
    .unwrap();
    let mut cfg = config(40, vec![1, 2, 5, 10, 20, 30]);
    cfg.curves.bootstrap = 60;
    let check = check::trust_check(&syn.table, &cfg, &[5], 0.9, &mut |_, _| {}).unwrap();
    let rows = check.rows;
    // The 90% points: on data drawn from a Dirichlet (the prior's own family) each extrapolated
    // point's item interval contains the dense data's point.
    assert_eq!(check.points.len(), 4);
    for p in &check.points {
        println!("{p:?}");
        assert_eq!(p.contained, Some(true), "{p:?}");
    }
    for r in &rows {
        if matches!(r.metric, Metric::Kl | Metric::Jsd) {
            let e = r.relative_error.unwrap();
            assert!(e.abs() < 0.08, "{:?} N={}: {e}", r.metric, r.n);
        }
    }
    // Every metric at every N below 40, for the one M.
    assert_eq!(rows.len(), 4 * 6);
}

#[test]
fn the_fit_check_reads_agreement_shares_and_flags_a_poor_fit() {
    // Half the items unanimous one way, half the other: one Dirichlet fits that (small α), so
    // the agreement table is close. Half unanimous and half split 50/50 is a mixture one
    // Dirichlet cannot reproduce: the table shows it.
    let mut good = Vec::new();
    let mut poor = Vec::new();
    for i in 0..400 {
        good.extend(if i % 2 == 0 { [10, 0] } else { [0, 10] });
        poor.extend(if i % 2 == 0 { [10, 0] } else { [5, 5] });
    }
    let (good, poor) = (table(good, 2), table(poor, 2));
    let cg = check::fit_check(&good, &fit(&good, Components::Fixed(1), 1).unwrap(), 3);
    let cp = check::fit_check(&poor, &fit(&poor, Components::Fixed(1), 1).unwrap(), 3);
    assert_eq!(cg.items, 400);
    assert!((cg.bins[0].observed - 1.0).abs() < 1e-12);
    assert!(cg.total_variation < 0.05, "{cg:?}");
    assert!(cp.total_variation > 0.2, "{cp:?}");
    let sum: f64 = cp.bins.iter().map(|b| b.expected).sum();
    assert!((sum - 1.0).abs() < 1e-9);
}

#[test]
fn says_what_it_cannot_do() {
    let t = table(vec![3, 2, 1, 4], 2);
    let mut cfg = config(1, vec![]);
    assert_eq!(
        extrapolate(&t, &cfg, &mut |_, _| {}).unwrap_err(),
        ExtrapolateError::ReferenceVotes(1)
    );
    cfg.reference_votes = ReferenceVotes::Votes(10);
    cfg.draws = 0;
    assert!(matches!(
        extrapolate(&t, &cfg, &mut |_, _| {}).unwrap_err(),
        ExtrapolateError::Draws { .. }
    ));
    cfg.draws = 2;
    cfg.curves.reference = Reference::HeldOut { fraction: 0.2 };
    assert_eq!(
        extrapolate(&t, &cfg, &mut |_, _| {}).unwrap_err(),
        ExtrapolateError::HeldOut
    );
    cfg.curves.reference = Reference::Full;
    let e = extrapolate(&t, &cfg, &mut |_, _| {}).unwrap();
    assert_eq!(e.curves.grid, (1..=10).collect::<Vec<_>>());
    assert_eq!(e.curves.repeats, 20);
}

#[test]
fn dirichlet_draws_have_the_right_mean_and_survive_tiny_shapes() {
    let shapes = [0.3, 1.0, 2.7];
    let mut rng = sample::stream(1, 2, 3, 4);
    let (mut mean, mut out) = ([0.0f64; 3], [0.0f64; 3]);
    let draws = 20_000;
    for _ in 0..draws {
        dirichlet_draw(&shapes, &mut rng, &mut out);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        for (m, o) in mean.iter_mut().zip(out) {
            *m += o / draws as f64;
        }
    }
    for (m, a) in mean.iter().zip(shapes) {
        assert!((m - a / 4.0).abs() < 0.01, "{mean:?}");
    }
    // A prior fitted to voters who always agree: one class takes (almost) everything.
    let mut out = [0.0f64; 2];
    dirichlet_draw(&[1e-8, 1e-8], &mut rng, &mut out);
    assert!(out[0].max(out[1]) > 1.0 - 1e-6, "{out:?}");
}

#[test]
fn a_mixture_fixes_the_fit_check_one_dirichlet_fails() {
    // Half the items unanimous, half with ten votes from a fair coin: two kinds of item.
    let mut poor = Vec::new();
    for i in 0..800u64 {
        let mut rng = sample::stream(5, 6, i, 0);
        let heads = rand_distr::Binomial::new(10, 0.5).unwrap().sample(&mut rng) as u32;
        poor.extend(if i % 2 == 0 {
            [10, 0]
        } else {
            [heads, 10 - heads]
        });
    }
    let poor = table(poor, 2);
    let mix = fit(&poor, Components::Auto { max: 4 }, 1).unwrap();
    assert!(mix.components.len() >= 2);
    let c = check::fit_check(&poor, &mix, 3);
    assert!(c.total_variation < 0.1, "{c:?}");
}

/// Against the truth, on data drawn from a known prior with many votes: p_N's distance to θ keeps
/// falling past any finite M' and never reaches 0; at N below M' it is larger than against p_M'
/// (sampling with replacement from θ vs without from M' votes).
#[test]
fn curves_against_the_truth_keep_falling_and_sit_above_finite_ones() {
    let syn = generate(&SynthConfig {
        items: 400,
        votes: 30,
        classes: 3,
        concentration: 1.0,
        ..Default::default()
    })
    .unwrap();
    let grid = vec![1, 5, 20, 40];
    let mut cfg = config(40, grid.clone());
    let finite = extrapolate(&syn.table, &cfg, &mut |_, _| {}).unwrap();
    cfg.reference_votes = ReferenceVotes::Truth;
    let truth = extrapolate(&syn.table, &cfg, &mut |_, _| {}).unwrap();
    let mean = |c: &Curves, m: Metric, n: u32| c.point(m, n).unwrap().mean.unwrap();
    for w in grid.windows(2) {
        assert!(mean(&truth.curves, Metric::Jsd, w[1]) < mean(&truth.curves, Metric::Jsd, w[0]));
    }
    assert!(mean(&truth.curves, Metric::Jsd, 40) > 0.05);
    assert_eq!(mean(&finite.curves, Metric::Jsd, 40), 0.0);
    assert!(mean(&truth.curves, Metric::Jsd, 20) > mean(&finite.curves, Metric::Jsd, 20));
    assert!(truth
        .curves
        .point(Metric::EntropyCorr, 1)
        .unwrap()
        .mean
        .is_none());
    assert_eq!(truth.curves.repeats, 20);
}
