//! The crossed interval (items and annotators, `annosat_core::curves::crossed`) against a known
//! answer: synthetic crowds of 12 annotators who each label most items and each have their own
//! confusion matrix (`SynthConfig::confusion`), so which annotators a study had moves every item
//! they labelled. The population's 90% point comes from 100,000 items labelled by 2,000 such
//! annotators; each of 200 datasets (200 items, 10 votes each) gets the item interval and the
//! crossed one, and we count how often each holds the population's point.

use annosat_core::curves::{self, crossed, saturation::crossing, CurveConfig, Metric};
use annosat_core::synth::{generate, SynthConfig};
mod common;

const DATASETS: u32 = 200;

#[test]
fn the_crossed_interval_covers_the_population_point_where_the_item_interval_does_not() {
    let votes = 10;
    let base = SynthConfig {
        confusion: 0.4,
        dim: 1,
        ..common::crowd(200, votes, 12)
    };
    let cfg = CurveConfig {
        repeats: 8,
        bootstrap: 100,
        ..Default::default()
    };
    let pop = common::population_curves(&base, Some(2_000));
    let truth: Vec<f64> = Metric::ALL
        .iter()
        .map(|&m| crossing(&pop.grid, &pop.improvement_fraction(m), 0.9, true).unwrap())
        .collect();
    let (mut items_only, mut both) = ([0u32; 4], [0u32; 4]);
    let holds = |iv: &curves::ItemInterval, t: f64| {
        iv.lo_n.is_some_and(|lo| lo <= t) && iv.hi_n.is_some_and(|hi| t <= hi)
    };
    for d in 0..DATASETS {
        let syn = generate(&SynthConfig {
            seed: d as u64,
            ..base.clone()
        })
        .unwrap();
        let c = curves::compute(&syn.table, &cfg).unwrap();
        let items = c.item_bands().unwrap();
        let var = crossed::annotator_variance(&syn.table, &cfg, 0.9)
            .unwrap()
            .expect("the synthetic table has annotations");
        for m in Metric::ALL {
            let mi = m as usize;
            let iv = items.saturation(m, 0.9);
            let p = crossing(&c.grid, &c.improvement_fraction(m), 0.9, true).unwrap();
            items_only[mi] += holds(&iv, truth[mi]) as u32;
            both[mi] += holds(&crossed::widen(iv, p, var[mi], &c.grid), truth[mi]) as u32;
        }
    }
    for m in Metric::ALL {
        println!(
            "{}: population 90% point at {:.2}; held by the item interval in {} and by the crossed interval in {} of {DATASETS} datasets",
            m.name(),
            truth[m as usize],
            items_only[m as usize],
            both[m as usize]
        );
    }
    for m in Metric::ALL {
        let share = both[m as usize] as f64 / DATASETS as f64;
        assert!((0.90..=0.99).contains(&share), "{}: {share}", m.name());
    }
    // Where annotators differ, items alone are not enough somewhere.
    assert!(
        Metric::ALL
            .iter()
            .any(|&m| (items_only[m as usize] as f64) < 0.90 * DATASETS as f64),
        "{items_only:?}"
    );
}
