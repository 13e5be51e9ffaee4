//! Known answers: two equally good models are told apart in α of evaluations (the type-I rate),
//! a model moved towards the humans is told apart more often the more it moves and the larger the
//! evaluation, and the pieces (tests, pools, budgets) on small cases worked by hand.

use super::budgets;
use super::cells::{column, observed, reference};
use super::pool::{Input, Pool};
use super::report::{Column, PowerConfig};
use super::simulate::{evaluations, CorrSums};
use super::*;
use crate::votes::VoteTable;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma};

fn dirichlet(alpha: &[f64], rng: &mut ChaCha8Rng) -> Vec<f64> {
    let g: Vec<f64> = alpha
        .iter()
        .map(|&a| Gamma::new(a, 1.0).unwrap().sample(rng).max(1e-300))
        .collect();
    let s: f64 = g.iter().sum();
    g.iter().map(|x| x / s).collect()
}

/// Items with true distributions θ ~ Dirichlet(0.8, 0.8, 0.8), `votes` votes each, model A a noisy
/// copy of θ (Dirichlet(10 θ + 0.3), mixed 5% with uniform, as a softmax rarely says 0), B = another independent noisy copy (`eps` None: exchangeable with
/// A) or A moved `eps` of the way towards θ.
pub(crate) fn population(
    items: usize,
    votes: u32,
    eps: Option<f64>,
    seed: u64,
) -> (VoteTable, Vec<f64>, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let k = 3;
    let (mut counts, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..items {
        let theta = dirichlet(&[0.8; 3], &mut rng);
        let mut c = vec![0u32; k];
        for _ in 0..votes {
            let u: f64 = rng.random();
            let mut acc = 0.0;
            let mut j = k - 1;
            for (x, &t) in theta.iter().enumerate() {
                acc += t;
                if u < acc {
                    j = x;
                    break;
                }
            }
            c[j] += 1;
        }
        let sh: Vec<f64> = theta.iter().map(|t| 10.0 * t + 0.3).collect();
        let soften =
            |q: Vec<f64>| -> Vec<f64> { q.iter().map(|x| 0.95 * x + 0.05 / 3.0).collect() };
        let qa = soften(dirichlet(&sh, &mut rng));
        let qb = match eps {
            None => soften(dirichlet(&sh, &mut rng)),
            Some(e) => qa
                .iter()
                .zip(&theta)
                .map(|(x, t)| (1.0 - e) * x + e * t)
                .collect(),
        };
        counts.extend(c);
        a.extend(qa);
        b.extend(qb);
    }
    let ids = (0..items).map(|i| format!("i{i}")).collect();
    let classes = vec!["x".into(), "y".into(), "z".into()];
    (VoteTable::new(classes, ids, counts), a, b)
}

fn input<'a>(t: &'a VoteTable, a: &'a [f64], b: &'a [f64]) -> Input<'a> {
    Input {
        table: t,
        a,
        b,
        scale: None,
    }
}

/// One N's column of a file whose every item has the grid's largest N (no prior needed).
fn column_of((t, a, b): (&VoteTable, &[f64], &[f64]), cfg: &PowerConfig, n: u32) -> Column {
    let inp = input(t, a, b);
    column(
        inp,
        cfg,
        (n, &reference(inp, cfg, None).unwrap()),
        None,
        &mut |_| {},
    )
    .unwrap()
}

#[test]
fn the_correlation_difference_is_antisymmetric_and_zero_for_equal_models() {
    let (mut c, mut d, mut e) = (
        CorrSums::default(),
        CorrSums::default(),
        CorrSums::default(),
    );
    for (x, a, b) in [
        (1.0, 2.0, 1.5),
        (2.0, 2.5, 3.0),
        (3.0, 2.0, 3.5),
        (4.0, 5.0, 4.5),
        (5.0, 4.0, 6.0),
    ] {
        c.add(x, a, b);
        d.add(x, b, a);
        e.add(x, a, a);
    }
    assert!(c.diff() > 0.0);
    assert!((c.diff() + d.diff()).abs() < 1e-12);
    assert_eq!(e.diff(), 0.0);
}

/// Two equally good models: over 600 simulated evaluations (a new population sample each, 200
/// items × 5 votes), the paired test says p < 0.05 in 5% ± 3 SE of them, for every metric.
#[test]
fn equally_good_models_are_told_apart_in_alpha_of_evaluations() {
    let runs = 600;
    let cfg = PowerConfig {
        resamples: 200,
        ..Default::default()
    };
    let mut rejections = std::collections::HashMap::new();
    for s in 0..runs {
        let (t, a, b) = population(200, 5, None, 1000 + s);
        for o in observed(input(&t, &a, &b), &cfg).unwrap() {
            *rejections.entry(o.metric).or_insert(0u32) += (o.p < 0.05) as u32;
        }
    }
    let se = (0.05f64 * 0.95 / runs as f64).sqrt();
    for (m, r) in rejections {
        let rate = r as f64 / runs as f64;
        eprintln!("{}: type-I rate {rate:.3}", m.key());
        assert!((rate - 0.05).abs() < 3.0 * se, "{}: {rate}", m.key());
    }
}

/// The grid's own null: each evaluation's difference moved to an effect of 0 is told apart in α
/// of the 2,000 evaluations (± 3 SE) at every item count.
#[test]
fn a_zero_effect_on_the_grid_is_rejected_in_alpha_of_evaluations() {
    let (t, a, b) = population(400, 20, Some(0.2), 7);
    let cfg = PowerConfig {
        items: vec![50, 200],
        n: vec![5],
        resamples: 2000,
        effects: vec![
            (PowerMetric::Kl, 0.0),
            (PowerMetric::Js, 0.0),
            (PowerMetric::Tv, 0.0),
        ],
        ..Default::default()
    };
    let col = column_of((&t, &a, &b), &cfg, 5);
    let se = (0.05f64 * 0.95 / 2000.0).sqrt();
    for c in col.cells.iter().filter(|c| c.power_effect.is_some()) {
        let p = c.power_effect.unwrap();
        assert!(
            (p - 0.05).abs() < 3.0 * se,
            "{:?} at {}: {p}",
            c.metric,
            c.items
        );
        // The real difference (B moved 20% towards the truth) is seen more often.
        assert!(c.power > p, "{:?}", c.metric);
    }
}

/// B = A moved ε towards the true distributions: power rises with ε and with the items.
#[test]
fn power_rises_with_the_effect_and_the_items() {
    let cfg = PowerConfig {
        items: vec![25, 100, 400],
        n: vec![10],
        resamples: 400,
        ..Default::default()
    };
    let mut prev: Option<Column> = None;
    for eps in [0.05, 0.15, 0.3] {
        let (t, a, b) = population(600, 20, Some(eps), 11);
        let col = column_of((&t, &a, &b), &cfg, 10);
        for m in [PowerMetric::Kl, PowerMetric::Js, PowerMetric::Tv] {
            let p = powers(&col, m);
            assert!(
                p[0] <= p[1] + 0.05 && p[1] <= p[2] + 0.05,
                "{m:?} ε={eps}: {p:?}"
            );
            if let Some(q) = &prev {
                let before = powers(q, m);
                assert!(
                    p[1] + 0.05 >= before[1],
                    "{m:?} ε={eps}: {p:?} after {before:?}"
                );
            }
            // B is closer: its differences are negative (lower is better).
            assert!(col
                .cells
                .iter()
                .filter(|c| c.metric == m)
                .all(|c| c.diff < 0.0));
        }
        prev = Some(col);
    }
}

/// Evaluations are reproducible, and a pool's rows come from the item's own votes while N fits.
#[test]
fn pools_and_evaluations_are_deterministic() {
    let (t, a, b) = population(50, 10, Some(0.2), 3);
    let p1 = Pool::build(input(&t, &a, &b), Some(4), 8, 9, None).unwrap();
    let p2 = Pool::build(input(&t, &a, &b), Some(4), 8, 9, None).unwrap();
    assert_eq!(p1.diffs, p2.diffs);
    assert!(!p1.extrapolated);
    let (e1, e2) = (evaluations(&p1, 30, 50, 9), evaluations(&p2, 30, 50, 9));
    assert_eq!(e1, e2);
    // Past the items' votes without a prior: refused in words.
    assert!(Pool::build(input(&t, &a, &b), Some(20), 8, 9, None).is_err());
}

/// Past the votes, the pool draws from the posterior: for a model B that knows each item's true
/// distribution better than its 5 votes do (A moved 30% towards the truth), the extrapolated
/// difference keeps its sign and shrinks towards what 5 votes show (here to 0.3–0.9 of the
/// full-vote difference): power past the votes is conservative, as the docs and the output say.
#[test]
fn extrapolated_votes_shrink_the_difference_towards_what_the_votes_show() {
    let (full, a, b) = population(1500, 40, Some(0.3), 5);
    let cut = VoteTable::new(
        full.classes().to_vec(),
        full.item_ids().to_vec(),
        (0..full.num_items())
            .flat_map(|i| {
                let mut rng = crate::sample::stream(1, 2, i as u64, 0);
                crate::sample::subsample_counts(full.counts(i), 5, &mut rng).unwrap()
            })
            .collect(),
    );
    let cfg = PowerConfig {
        items: vec![1500],
        n: vec![20],
        resamples: 100,
        ..Default::default()
    };
    let priors = super::pool::priors(&cut, 0).unwrap();
    assert_eq!(priors.len(), super::pool::PRIORS as usize);
    let r_cut = reference(input(&cut, &a, &b), &cfg, Some(&priors)).unwrap();
    assert_eq!(r_cut.n, Some(20));
    let r_full = reference(input(&full, &a, &b), &cfg, None).unwrap();
    assert_eq!(r_full.n, None);
    let ext = column(
        input(&cut, &a, &b),
        &cfg,
        (20, &r_cut),
        Some(&priors),
        &mut |_| {},
    )
    .unwrap();
    let real = column(input(&full, &a, &b), &cfg, (20, &r_full), None, &mut |_| {}).unwrap();
    assert!(ext.extrapolated && !real.extrapolated);
    for (e, r) in ext.cells.iter().zip(&real.cells) {
        let ratio = e.diff / r.diff;
        eprintln!(
            "{:?}: extrapolated {:.4} vs full {:.4} ({ratio:.2})",
            e.metric, e.diff, r.diff
        );
        assert!((0.2..1.1).contains(&ratio), "{:?}: {ratio}", e.metric);
    }
}

#[test]
fn budgets_are_read_along_iso_budget_lines() {
    let (t, a, b) = population(300, 20, Some(0.25), 2);
    let cfg = PowerConfig {
        items: vec![25, 50, 100, 200],
        n: vec![1, 5, 20],
        resamples: 300,
        ..Default::default()
    };
    let inp = input(&t, &a, &b);
    let refr = reference(inp, &cfg, None).unwrap();
    let cols: Vec<Column> = cfg
        .n
        .iter()
        .map(|&n| column(inp, &cfg, (n, &refr), None, &mut |_| {}).unwrap())
        .collect();
    let r = PowerReport::new(inp, &cfg, (observed(inp, &cfg).unwrap(), refr), cols);
    assert_eq!(
        budgets::budget_lines(&cfg),
        vec![50, 100, 200, 500, 1000, 2000]
    );
    for b in &r.budgets {
        assert!((b.items as u64 * b.n as u64).abs_diff(b.votes) <= b.n as u64);
        // No split of the same budget simulated along it has more power.
        for c in &r.columns {
            for (_, x) in c
                .along
                .iter()
                .filter(|(v, x)| *v == b.votes && x.metric == b.metric)
            {
                assert!(x.power <= b.power);
            }
        }
    }
    for x in &r.reach {
        if let Some(b) = &x.found {
            assert!(b.power >= cfg.power - 1e-9);
        }
    }
    let csv = r.to_csv();
    let extra: usize = r
        .columns
        .iter()
        .flat_map(|c| {
            c.along
                .iter()
                .filter(|(_, x)| !cfg.items.contains(&x.items))
        })
        .count();
    assert_eq!(csv.lines().count(), 1 + 3 * 4 * 6 + extra);
    assert!(csv.starts_with("metric,items,votes,budget,past_file,"));
    assert!(!words::past_file_line(&r)
        .unwrap_or_default()
        .contains("extrapolation"));
}

/// Undefined values (the entropy correlation at one vote per item, where every H(p_1) is 0)
/// travel to the page as `null` and come back as NaN: the report survives JSON.
#[test]
fn a_report_with_undefined_values_survives_json() {
    let (t, a, b) = population(200, 5, Some(0.2), 9);
    let cfg = PowerConfig {
        items: vec![50],
        n: vec![1, 5],
        resamples: 50,
        ..Default::default()
    };
    let r = super::compare(input(&t, &a, &b), &cfg, &mut |_, _| {}).unwrap();
    let ec = r
        .cells(PowerMetric::EntropyCorr)
        .find(|c| c.n == 1)
        .unwrap();
    assert!(ec.diff.is_nan());
    let back: PowerReport = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back.to_csv(), r.to_csv());
}

/// One metric's powers down a column, in the column's item order.
fn powers(col: &Column, m: PowerMetric) -> Vec<f64> {
    col.cells
        .iter()
        .filter(|c| c.metric == m)
        .map(|c| c.power)
        .collect()
}
