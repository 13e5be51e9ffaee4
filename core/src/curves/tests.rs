use super::*;
use crate::metrics::{entropy, js_distance, kl, majority_agreement, normalize, pearson, smoothed};
use crate::sample::{curve_draw, CurveDraws};

fn table() -> VoteTable {
    // Ragged on purpose: item "c" has only 4 votes.
    VoteTable::new(
        vec!["x".into(), "y".into(), "z".into()],
        vec!["a".into(), "b".into(), "c".into(), "d".into(), "e".into()],
        vec![5, 3, 2, 0, 10, 0, 1, 1, 2, 4, 4, 2, 7, 1, 2],
    )
}

/// A slow, obviously-correct version built from the metric functions.
fn naive(
    t: &VoteTable,
    grid: &[u32],
    repeats: u32,
    seed: u64,
    alpha: f64,
) -> Vec<[Option<f64>; 4]> {
    let mut out = Vec::new();
    for r in 0..repeats {
        for &n in grid {
            let (mut js, mut kls, mut maj, mut hx, mut hy) =
                (0.0, 0.0, 0.0, Vec::new(), Vec::new());
            for i in 0..t.num_items() {
                let Some(c) = curve_draw(t.counts(i), n, CurveDraws::new(seed, i, r)) else {
                    continue;
                };
                let (p, q) = (normalize(&c).unwrap(), t.distribution(i));
                js += js_distance(&p, &q);
                kls += kl(&q, &smoothed(&c, alpha));
                maj += majority_agreement(&p, &q);
                hx.push(entropy(&p));
                hy.push(entropy(&q));
            }
            let ni = hx.len() as f64;
            out.push([
                Some(js / ni),
                pearson(&hx, &hy),
                Some(kls / ni),
                Some(maj / ni),
            ]);
        }
    }
    out
}

/// Every value of `compute` against [`naive`], to 1e-12.
fn assert_matches_naive(t: &VoteTable, grid: &[u32], repeats: u32, seed: u64, alpha: f64) {
    let cfg = CurveConfig {
        grid: grid.to_vec(),
        repeats,
        seed,
        alpha: Some(alpha),
        reference: Reference::Full,
        // On, so the naive comparison also shows the bootstrap's cells change no curve value.
        bootstrap: 16,
    };
    let c = compute(t, &cfg).unwrap();
    // The grid as computed: N past every item's votes is dropped.
    let grid = c.grid.clone();
    let slow = naive(t, &grid, repeats, seed, alpha);
    for r in 0..repeats as usize {
        for (g, _) in grid.iter().enumerate() {
            let want = slow[r * grid.len() + g];
            for m in Metric::ALL {
                let got = c.value(m, g, r);
                match (got, want[m.index()]) {
                    (Some(a), Some(b)) => {
                        assert!((a - b).abs() < 1e-12, "{m:?} g={g} r={r}: {a} vs {b}")
                    }
                    (a, b) => assert_eq!(
                        a.is_some(),
                        b.is_some(),
                        "{m:?} g={g} r={r}: {a:?} vs {b:?}"
                    ),
                }
            }
        }
    }
}

#[test]
fn engine_matches_naive_definitions() {
    let t = table();
    let grid = [1, 2, 3, 4, 7, 10];
    let c = compute(
        &t,
        &CurveConfig {
            grid: grid.to_vec(),
            repeats: 6,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(c.items, vec![5, 5, 5, 5, 4, 4]);
    // 6 repeats: one group of four lanes and a partial one.
    assert_matches_naive(&t, &grid, 6, 7, 0.5);
}

/// The engine has a compiled path per class count 2–5, one for any K, and one for items so large
/// that `x ln x` is computed past its table; each must give the definitions' values.
#[test]
fn every_engine_path_matches_naive() {
    let mut x = 12345u64;
    let mut next = |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    for k in [2usize, 3, 4, 5, 7] {
        let items = 9;
        let counts: Vec<u32> = (0..items * k).map(|_| next(6) as u32).collect();
        let mut counts = counts;
        counts[0] += 1; // item 0 has at least one vote
        counts[k] += 1; // and so has item 1
        let t = VoteTable::new(
            (0..k).map(|c| format!("c{c}")).collect(),
            (0..items).map(|i| format!("i{i}")).collect(),
            counts,
        );
        assert_matches_naive(&t, &[1, 2, 3, 5, 8, 13, 30], 5, k as u64, 0.25);
    }
    // 2 · 2100 · 2100 ≥ 4 M table entries: past the table.
    let t = VoteTable::new(
        vec!["a".into(), "b".into(), "c".into()],
        vec!["big".into(), "small".into()],
        vec![1000, 700, 400, 3, 2, 1],
    );
    assert_matches_naive(&t, &[1, 6, 50, 900, 2100], 2, 9, 1.0 / 3.0);
}

#[test]
fn entropy_corr_undefined_at_one_and_full_n_is_exact() {
    let t = table();
    let c = compute(
        &t,
        &CurveConfig {
            grid: vec![1, 10],
            repeats: 3,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(c.point(Metric::EntropyCorr, 1).unwrap().mean, None);
    // N = 10 uses only items with 10 votes, where p_N = p_full exactly.
    let p = c.point(Metric::Jsd, 10).unwrap();
    assert_eq!(p.mean, Some(0.0));
    assert_eq!(
        c.point(Metric::MajorityAgreement, 10).unwrap().mean,
        Some(1.0)
    );
}

#[test]
fn grid_does_not_change_values() {
    let t = table();
    let a = compute(
        &t,
        &CurveConfig {
            grid: vec![],
            repeats: 4,
            ..Default::default()
        },
    )
    .unwrap();
    let b = compute(
        &t,
        &CurveConfig {
            grid: vec![3],
            repeats: 4,
            ..Default::default()
        },
    )
    .unwrap();
    for m in Metric::ALL {
        // Items with fewer than max(grid) votes draw fewer votes, but their first 3 are the same.
        assert_eq!(a.point(m, 3).unwrap(), b.point(m, 3).unwrap(), "{m:?}");
    }
}

#[test]
fn saturation_finds_first_crossing() {
    let t = table();
    let c = compute(
        &t,
        &CurveConfig {
            repeats: 20,
            ..Default::default()
        },
    )
    .unwrap();
    let fr = c.improvement_fraction(Metric::Jsd);
    assert_eq!(fr[0], Some(0.0));
    assert!((fr.last().unwrap().unwrap() - 1.0).abs() < 1e-12);
    let s = c.saturation(Metric::Jsd, 0.9);
    let n = s.n.unwrap();
    let g = c.grid.iter().position(|&x| x == n).unwrap();
    assert!(fr[g].unwrap() >= 0.9 - 1e-12);
    assert!(g == 0 || fr[g - 1].unwrap() < 0.9);
    assert!(s.lo.unwrap() <= s.hi.unwrap());
}

#[test]
fn heldout_uses_disjoint_votes() {
    let t = table();
    let cfg = CurveConfig {
        reference: Reference::HeldOut { fraction: 0.2 },
        repeats: 5,
        ..Default::default()
    };
    let c = compute(&t, &cfg).unwrap();
    // Largest item has 10 votes: 2 held out, so N runs to 8 and p_8 ≠ p_B in general.
    assert_eq!(*c.grid.last().unwrap(), 8);
    assert_eq!(c.heldout_excluded, 0);
}

#[test]
fn bad_configs_are_errors() {
    let t = table();
    let bad = |cfg: CurveConfig| compute(&t, &cfg).unwrap_err();
    assert_eq!(
        bad(CurveConfig {
            repeats: 0,
            ..Default::default()
        }),
        CurveError::NoRepeats
    );
    assert_eq!(
        bad(CurveConfig {
            alpha: Some(0.0),
            ..Default::default()
        }),
        CurveError::BadAlpha(0.0)
    );
    assert_eq!(
        bad(CurveConfig {
            grid: vec![0, 1],
            ..Default::default()
        }),
        CurveError::ZeroN
    );
    assert!(matches!(
        bad(CurveConfig {
            grid: vec![11],
            ..Default::default()
        }),
        CurveError::NothingToCompute { .. }
    ));
    let h = CurveConfig {
        reference: Reference::HeldOut { fraction: 1.0 },
        ..Default::default()
    };
    assert_eq!(bad(h), CurveError::BadFraction(1.0));
}

#[test]
fn json_round_trip_keeps_undefined_values() {
    let t = VoteTable::new(
        vec!["a".into(), "b".into()],
        vec!["x".into(), "y".into()],
        vec![3, 1, 1, 3],
    );
    let c = compute(
        &t,
        &CurveConfig {
            repeats: 3,
            ..Default::default()
        },
    )
    .unwrap();
    let back: Curves = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(back.point(Metric::EntropyCorr, 1).unwrap().mean, None);
    assert_eq!(back.to_csv(), c.to_csv());
}

#[test]
fn parts_merge_to_the_whole() {
    let t = VoteTable::new(
        vec!["a".into(), "b".into(), "c".into()],
        vec!["x".into(), "y".into(), "z".into()],
        vec![5, 3, 2, 1, 8, 1, 4, 4, 2],
    );
    let cfg = CurveConfig {
        repeats: 7,
        ..Default::default()
    };
    let whole = compute(&t, &cfg).unwrap();
    let parts = vec![
        compute_repeats(&t, &cfg, 4..7, &mut |_, _| {}).unwrap(),
        compute_repeats(&t, &cfg, 0..4, &mut |_, _| {}).unwrap(),
    ];
    // (NaN ≠ NaN, so compare the serialised forms, where undefined is null.)
    let merged = Curves::merge(parts).unwrap();
    assert_eq!(
        serde_json::to_string(&merged).unwrap(),
        serde_json::to_string(&whole).unwrap()
    );
}

#[test]
fn single_vote_items_are_refused_up_front() {
    let t = VoteTable::new(
        vec!["a".into(), "b".into()],
        (0..1000).map(|i| format!("i{i}")).collect(),
        (0..1000)
            .flat_map(|i| if i % 2 == 0 { [1, 0] } else { [0, 1] })
            .collect(),
    );
    let e = compute(&t, &CurveConfig::default()).unwrap_err();
    assert_eq!(e, CurveError::OneVoteEach);
    assert!(e.to_string().contains("at least 2 votes"));
}
