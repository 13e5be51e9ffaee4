//! The pilot's closed loop on real votes: ChaosNLI-SNLI cut to 5 votes per item, the pilot
//! `annosat curves` recommends for each wide answer, those real votes added to the cut file (the
//! pilot's items keep their 5 and get more of their own real votes), answered again.
//! `scripts/pilot-check.sh` runs the same loop on two sets for the docs.

mod common;
use annosat_core::sample;
use common::*;
use serde_json::Value;

const METRICS: [&str; 4] = ["jsd", "entropy_corr", "kl", "majority_agreement"];
const CUT: u32 = 5;

/// Item `i`'s cut votes (5 of its real ones) and the votes it has left.
fn cut(i: usize, counts: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut rng = sample::stream(11, 1, i as u64, 0);
    let five = sample::subsample_counts(counts, CUT, &mut rng).unwrap();
    let rest = counts.iter().zip(&five).map(|(a, b)| a - b).collect();
    (five, rest)
}

fn half_width(h: &Value) -> f64 {
    let n = h["n"].as_f64().unwrap();
    match (h["items"]["lo"].as_f64(), h["items"]["hi"].as_f64()) {
        (Some(lo), Some(hi)) => (hi - lo) / 2.0 / n,
        _ => f64::INFINITY,
    }
}

#[test]
fn the_recommended_pilot_narrows_the_answer_and_holds_the_full_datas_point() {
    let full = curves_json(&data_dir().join("chaosnli_snli/votes.csv"));
    let five = snli_variant("five", |i, c| cut(i, &c).0, &[]);
    let before = curves_json(&five);
    let mut tried = 0;
    for m in METRICS {
        let h = &before["headline"][m];
        let Some(pilot) = h["pilot"].as_object() else {
            continue;
        };
        tried += 1;
        let (items, votes) = (
            pilot["items"].as_u64().unwrap() as usize,
            pilot["votes"].as_u64().unwrap() as u32,
        );
        // The width the simulated pilot promised (its points are in METRICS' order).
        let k = METRICS.iter().position(|x| *x == m).unwrap();
        let promised = half_width(&pilot["points"][k]);
        // Any `items` of the items: every 1514 / items-th.
        let step = 1514 / items;
        let piloted = snli_variant(
            &format!("pilot-{m}"),
            |i, c| {
                let (mut have, rest) = cut(i, &c);
                if i % step == 0 && i / step < items {
                    let mut rng = sample::stream(12, 1, i as u64, 0);
                    let more = sample::subsample_counts(&rest, votes - CUT, &mut rng).unwrap();
                    have.iter_mut().zip(more).for_each(|(a, b)| *a += b);
                }
                have
            },
            &[],
        );
        let after = &curves_json(&piloted)["headline"][m];
        std::fs::remove_file(piloted).ok();
        assert_eq!(after["from"]["items"], items as u64, "{m}: {after}");
        assert_eq!(after["from"]["votes"], votes, "{m}: {after}");
        let (was, now) = (half_width(h), half_width(after));
        assert!(
            now < was,
            "{m}: ±{now:.2} after the pilot, ±{was:.2} before"
        );
        // As promised, up to the spread of one simulated pilot against one real one.
        assert!(
            now <= promised + 0.10,
            "{m}: ±{now:.2} after the pilot, ±{promised:.2} promised"
        );
        let real = full["headline"][m]["n"].as_u64().unwrap();
        let (lo, hi) = (
            after["items"]["lo"].as_u64().unwrap(),
            after["items"]["hi"].as_u64().unwrap_or(u64::MAX),
        );
        assert!(
            lo <= real && real <= hi,
            "{m}: the full data's {real} outside {lo}–{hi}"
        );
    }
    assert!(tried > 0, "no answer of SNLI cut to 5 votes was wide");
    std::fs::remove_file(five).ok();
}
