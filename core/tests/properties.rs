//! Property tests: invariants that must hold for every input, not just the examples.

use annosat_core::metrics::{brier, dist_ece, ece, entropy_corr, js_distance, kl, murphy};
use annosat_core::sample::{subsample_counts, subsample_stream};
use annosat_core::{parse_votes, ImportOptions};
use proptest::prelude::*;

fn distribution(k: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(0.0f64..1.0, k).prop_filter_map("non-zero", |v| {
        let s: f64 = v.iter().sum();
        (s > 1e-9).then(|| v.iter().map(|x| x / s).collect())
    })
}

fn dists(items: usize, k: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(distribution(k), items).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn subsample_sums_to_n_within_counts(counts in prop::collection::vec(0u32..40, 2..6), frac in 0.0f64..=1.0, seed: u64) {
        let m: u32 = counts.iter().sum();
        let n = (frac * m as f64).round() as u32;
        let s = subsample_counts(&counts, n, &mut subsample_stream(seed, 0, 0)).unwrap();
        prop_assert_eq!(s.iter().sum::<u32>(), n);
        for (a, b) in s.iter().zip(&counts) {
            prop_assert!(a <= b);
        }
    }

    #[test]
    fn kl_nonnegative_and_js_bounded(p in distribution(4), q in distribution(4)) {
        prop_assert!(kl(&p, &q) >= -1e-12);
        let d = js_distance(&p, &q);
        prop_assert!((0.0..=std::f64::consts::LN_2.sqrt() + 1e-12).contains(&d));
        prop_assert!((d - js_distance(&q, &p)).abs() < 1e-12);
    }

    #[test]
    fn metrics_invariant_under_item_order((pred, human, perm) in (2usize..20).prop_flat_map(|n| {
        (dists(n, 3), dists(n, 3), Just((0..n).collect::<Vec<usize>>()).prop_shuffle())
    })) {
        let k = 3;
        let permute = |x: &[f64]| perm.iter().flat_map(|&i| x[i * k..(i + 1) * k].to_vec()).collect::<Vec<f64>>();
        let (pp, hp) = (permute(&pred), permute(&human));
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        prop_assert!(close(brier(&pred, &human, k), brier(&pp, &hp, k)));
        prop_assert!(close(ece(&pred, &human, k, 15), ece(&pp, &hp, k, 15)));
        prop_assert!(close(dist_ece(&pred, &human, k, 15), dist_ece(&pp, &hp, k, 15)));
        let (m1, m2) = (murphy(&pred, &human, k, 15), murphy(&pp, &hp, k, 15));
        prop_assert!(close(m1.rel, m2.rel) && close(m1.res, m2.res) && close(m1.unc, m2.unc));
        match (entropy_corr(&pred, &human, k), entropy_corr(&pp, &hp, k)) {
            (Some(a), Some(b)) => prop_assert!(close(a, b)),
            (a, b) => prop_assert_eq!(a.is_some(), b.is_some()),
        }
    }

    #[test]
    fn parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_votes(&bytes, &ImportOptions::default());
    }

    #[test]
    fn parser_never_panics_on_csv_like_text(s in "[a-c0-9,;\t\"\\.\\- \r\n]{0,200}") {
        let _ = parse_votes(s.as_bytes(), &ImportOptions::default());
        let header = format!("item_id,annotator_id,label\n{s}");
        let _ = parse_votes(header.as_bytes(), &ImportOptions::default());
    }
}
