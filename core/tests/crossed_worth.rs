//! `worth`'s crossed interval (items, splits and annotators) against a known answer: synthetic
//! crowds of 12 annotators with their own confusion matrices label 200 items 10 times each; the
//! source is an expert (each item's most likely true class). Its population ν comes from one
//! 20,000-item crowd of 2,000 such annotators; each of 100 datasets gets the item-and-split
//! interval and the crossed one, and we count how often each holds the population's ν. (The
//! item-and-split interval already redraws which annotators form the reference, so it holds
//! often too; the crossed one must hold at least as often and at 90% or more.)

use annosat_core::synth::{generate, SynthConfig};
use annosat_core::worth::{report, WorthConfig, WorthMetric};
use annosat_core::VoteTable;

const DATASETS: u64 = 100;

/// The expert: one vote per item on the true distribution's most likely class.
fn expert(t: &VoteTable, truth: &[f64]) -> VoteTable {
    let k = t.num_classes();
    let counts = (0..t.num_items())
        .flat_map(|i| {
            let p = &truth[i * k..(i + 1) * k];
            let best = (0..k).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap();
            (0..k).map(move |c| (c == best) as u32)
        })
        .collect();
    VoteTable::new(t.classes().to_vec(), t.item_ids().to_vec(), counts)
}

#[test]
fn the_crossed_worth_interval_covers_the_population_nu() {
    let base = SynthConfig {
        items: 200,
        classes: 3,
        concentration: 0.8,
        votes: 10,
        annotators: 12,
        confusion: 0.4,
        dim: 1,
        ..Default::default()
    };
    let cfg = WorthConfig {
        bootstrap: 100,
        ..Default::default()
    };
    let pop = generate(&SynthConfig {
        items: 20_000,
        annotators: 2_000,
        seed: 1_000,
        ..base.clone()
    })
    .unwrap();
    let truth = report(
        &pop.table,
        &expert(&pop.table, &pop.truth),
        &WorthConfig {
            bootstrap: 0,
            ..cfg.clone()
        },
        0,
        &mut |_| {},
    )
    .unwrap()
    .worth;
    // The expert's KL and majority agreement lie above the pool and its entropy correlation is
    // undefined (one vote per item): the two metrics with a population ν.
    let metrics = [WorthMetric::Jsd, WorthMetric::SquaredError];
    let (mut items, mut both, mut n) = ([0u32; 2], [0u32; 2], [0u32; 2]);
    for d in 0..DATASETS {
        let syn = generate(&SynthConfig {
            seed: d,
            ..base.clone()
        })
        .unwrap();
        let source = expert(&syn.table, &syn.truth);
        let plain = WorthConfig {
            over_annotators: false,
            ..cfg.clone()
        };
        let a = report(&syn.table, &source, &plain, 0, &mut |_| {})
            .unwrap()
            .worth;
        let b = report(&syn.table, &source, &cfg, 0, &mut |_| {})
            .unwrap()
            .worth;
        assert!(b.over_annotators && !a.over_annotators);
        for (j, &m) in metrics.iter().enumerate() {
            let Some(t) = truth.get(m).and_then(|w| w.nu) else {
                continue;
            };
            let holds = |w: &annosat_core::worth::MetricWorth| {
                w.lo.is_none_or(|lo| lo <= t) && w.hi.is_none_or(|hi| t <= hi)
            };
            n[j] += 1;
            items[j] += holds(a.get(m).unwrap()) as u32;
            both[j] += holds(b.get(m).unwrap()) as u32;
        }
    }
    for (j, m) in metrics.iter().enumerate() {
        println!(
            "{}: population ν {:.2}; held by the item-and-split interval in {} and by the crossed interval in {} of {} datasets",
            m.key(),
            truth.get(*m).and_then(|w| w.nu).unwrap_or(f64::NAN),
            items[j],
            both[j],
            n[j]
        );
    }
    for (j, m) in metrics.iter().enumerate() {
        if n[j] == 0 {
            continue;
        }
        let share = both[j] as f64 / n[j] as f64;
        assert!(share >= 0.90, "{}: {share}", m.key());
        assert!(both[j] >= items[j], "{}: {both:?} {items:?}", m.key());
    }
    assert!(n.iter().all(|&x| x > 0), "{n:?}");
}
