//! Known answers: a source made of k more votes from the same distributions as the humans' is
//! worth k humans on every metric; the squared error's interpolated ν agrees with its closed form.

use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const K: usize = 3;

/// `items` items with Dirichlet(1) truths; `m` human votes and `k` source votes each, all drawn
/// independently from the item's truth.
fn humans_and_source(items: usize, m: u32, k: u32, seed: u64) -> (VoteTable, VoteTable) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let classes: Vec<String> = (0..K).map(|c| format!("c{c}")).collect();
    let ids: Vec<String> = (0..items).map(|i| format!("item{i}")).collect();
    // The truths first, then each side's votes from its own stream: the same seed gives the same
    // items whatever k is.
    let truths: Vec<Vec<f64>> = (0..items)
        .map(|_| {
            let g: Vec<f64> = (0..K)
                .map(|_| -libm::log(rng.random::<f64>().max(1e-12)))
                .collect();
            let tot: f64 = g.iter().sum();
            g.iter().map(|x| x / tot).collect()
        })
        .collect();
    let draw = |rng: &mut ChaCha8Rng, p: &[f64], n: u32| {
        let mut c = vec![0u32; K];
        for _ in 0..n {
            let u: f64 = rng.random();
            let mut acc = 0.0;
            let mut class = K - 1;
            for (j, &pj) in p.iter().enumerate() {
                acc += pj;
                if u < acc {
                    class = j;
                    break;
                }
            }
            c[class] += 1;
        }
        c
    };
    let mut rh = ChaCha8Rng::seed_from_u64(seed ^ 0x1111);
    let mut rs = ChaCha8Rng::seed_from_u64(seed ^ 0x2222);
    let h: Vec<u32> = truths.iter().flat_map(|p| draw(&mut rh, p, m)).collect();
    let s: Vec<u32> = truths.iter().flat_map(|p| draw(&mut rs, p, k)).collect();
    (
        VoteTable::new(classes.clone(), ids.clone(), h),
        VoteTable::new(classes, ids, s),
    )
}

fn cfg() -> WorthConfig {
    WorthConfig {
        splits: 2,
        repeats: 10,
        bootstrap: 100,
        ..WorthConfig::default()
    }
}

#[test]
fn k_more_votes_are_worth_k_humans_on_every_metric() {
    for k in [1u32, 3, 5] {
        let (h, s) = humans_and_source(600, 40, k, 7 + k as u64);
        let w = worth(&h, &s, &cfg()).unwrap();
        assert_eq!(w.items, 600);
        assert_eq!(w.pool, 20, "half of 40 votes is the reference");
        for m in &w.metrics {
            println!(
                "k = {k}, {}: {:?} {:?} [{:?}, {:?}]",
                m.metric.key(),
                m.nu,
                m.bound,
                m.lo,
                m.hi
            );
            // k = 1 sits at the curve's start: the source may read "fewer than 1" by chance, and a
            // resample's ν may fall below 1 (lo = None).
            if k == 1 && m.metric == WorthMetric::EntropyCorr {
                // One vote per item: every source entropy is 0, so the correlation is undefined.
                assert_eq!((m.source, m.nu), (None, None));
                assert_eq!(m.words(w.pool), "undefined");
                continue;
            }
            if k == 1 && m.bound == Some(Bound::Below) {
                assert!(m.hi.is_some_and(|h| h >= 1.0), "{}: {m:?}", m.metric.key());
                continue;
            }
            let nu =
                m.nu.unwrap_or_else(|| panic!("k = {k}, {}: {m:?}", m.metric.key()));
            let lo = m.lo.unwrap_or(0.0);
            let hi = m.hi.unwrap_or(f64::INFINITY);
            assert!(
                lo <= k as f64 && k as f64 <= hi,
                "k = {k}, {}: ν = {nu:.2} [{lo:.2}, {hi:.2}]",
                m.metric.key()
            );
            assert!(
                hi - lo < 2.0 * k as f64 + 1.0,
                "{}: interval too wide",
                m.metric.key()
            );
        }
    }
}

#[test]
fn the_squared_errors_nu_agrees_with_its_closed_form() {
    let (h, s) = humans_and_source(500, 40, 4, 3);
    let w = worth(&h, &s, &cfg()).unwrap();
    let nu = w.get(WorthMetric::SquaredError).unwrap().nu.unwrap();
    let closed = w.closed_form_nu.unwrap();
    // Interpolated in 1/N, where the expected curve is exactly linear: the two differ only by the
    // repeats' Monte Carlo noise and by averaging over splits before or after solving for ν.
    eprintln!("squared error: interpolated {nu}, closed form {closed}");
    assert!((nu - closed).abs() < 0.01 * closed, "{nu} vs {closed}");
    // The paper's J/E against a finite reference counts the reference's own noise against the
    // source: it is below ν.
    assert!(w.j_over_e.unwrap() < nu);
}

#[test]
fn sources_outside_the_human_curve_are_bounded_in_words() {
    // A source that is the truth's majority label only (one vote at the argmax): on entropy
    // correlation it is worse than one human; a source with 200 votes is better than the pool.
    let (h, _) = humans_and_source(300, 20, 1, 11);
    let (_, many) = humans_and_source(300, 20, 200, 11);
    let w = worth(&h, &many, &cfg()).unwrap();
    let m = w.get(WorthMetric::Jsd).unwrap();
    assert_eq!((m.bound, m.nu), (Some(Bound::Above), None));
    assert_eq!(
        m.words(w.pool),
        "worth more than 10 humans (all the pool has)"
    );
    // Ten votes all for one class on every item: worse than one human vote for JSD.
    let classes = h.classes().to_vec();
    let ids = h.item_ids().to_vec();
    let flat = VoteTable::new(classes, ids, (0..300).flat_map(|_| [10, 0, 0]).collect());
    let w = worth(&h, &flat, &cfg()).unwrap();
    let m = w.get(WorthMetric::Jsd).unwrap();
    assert_eq!(m.bound, Some(Bound::Below));
    assert!(
        m.words(w.pool).starts_with("worth fewer than 1 human"),
        "{}",
        m.words(w.pool)
    );
}

#[test]
fn ids_are_matched_and_mismatched_files_get_clear_errors() {
    let (h, s) = humans_and_source(50, 10, 3, 1);
    // The source lacks the first 5 items and has 2 the humans lack.
    let keep: Vec<usize> = (5..50).collect();
    let s = s.reordered(&keep);
    let mut ids = s.item_ids().to_vec();
    let mut counts = s.all_counts().to_vec();
    ids.extend(["x1".to_string(), "x2".to_string()]);
    counts.extend([1, 1, 1, 2, 0, 1]);
    let s = VoteTable::new(s.classes().to_vec(), ids, counts);
    let w = worth(&h, &s, &cfg()).unwrap();
    assert_eq!(w.items, 45);
    assert_eq!(w.only_humans.len(), 5);
    assert_eq!(w.only_source, vec!["x1".to_string(), "x2".to_string()]);
    let other = VoteTable::new(
        vec!["e".into(), "n".into(), "c".into()],
        s.item_ids().to_vec(),
        s.all_counts().to_vec(),
    );
    let e = worth(&h, &other, &cfg()).unwrap_err().to_string();
    assert!(e.contains("c0, c1, c2") && e.contains("e, n, c"), "{e}");
    let strangers = VoteTable::new(h.classes().to_vec(), vec!["zz".into()], vec![1, 0, 0]);
    let e = worth(&h, &strangers, &cfg()).unwrap_err().to_string();
    assert!(e.contains("no item id is in both files"), "{e}");
}

#[test]
fn source_classes_map_by_name_case_and_the_nli_letters() {
    let h: Vec<String> = ["entailment", "neutral", "contradiction"]
        .map(String::from)
        .to_vec();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(class_map(&h, &s(&["c", "e", "n"])), Some(vec![2, 0, 1]));
    assert_eq!(
        class_map(&h, &s(&["Neutral", "entailment"])),
        Some(vec![1, 0])
    );
    // Judges of one panel may answer in letters or in names: both count for the class.
    assert_eq!(
        class_map(&h, &s(&["e", "entailment", "N"])),
        Some(vec![0, 0, 1])
    );
    assert_eq!(class_map(&h, &s(&["yes", "no"])), None);
    let a: Vec<String> = ["hyp1", "hyp2"].map(String::from).to_vec();
    assert_eq!(class_map(&a, &s(&["2", "1"])), Some(vec![1, 0]));
}

#[test]
fn a_level_below_a_curve_that_starts_at_n_2_is_bounded_there() {
    // Entropy correlation is undefined at N=1: a level under its first point (N=2) is "fewer than
    // 2", not a crossing at 2.
    let grid = [1, 2, 3, 5];
    let human = [None, Some(0.2), Some(0.3), Some(0.5)];
    assert_eq!(
        locate(&grid, &human, -0.05, WorthMetric::EntropyCorr),
        (None, Some(Bound::Below))
    );
    // Halfway in value between N=2 and N=3 is halfway in 1/N: 1/ν = (1/2 + 1/3)/2, ν = 2.4.
    let (nu, bound) = locate(&grid, &human, 0.25, WorthMetric::EntropyCorr);
    assert!(
        (nu.unwrap() - 2.4).abs() < 1e-12 && bound.is_none(),
        "{nu:?}"
    );
    assert_eq!(
        locate(&grid, &human, 0.9, WorthMetric::EntropyCorr),
        (None, Some(Bound::Above))
    );
    let m = MetricWorth {
        metric: WorthMetric::EntropyCorr,
        nu: None,
        lo: None,
        hi: None,
        bound: Some(Bound::Below),
        source: Some(-0.05),
        human: vec![],
        floor: 2,
    };
    assert_eq!(
        m.words(5),
        "worth fewer than 2 humans (the curve starts at N = 2)"
    );
}

#[test]
fn a_panel_of_j_annotators_with_one_vote_each_is_worth_about_j() {
    // Four annotators, each with one vote per item from the item's truth, in long format.
    let (h, s) = humans_and_source(500, 40, 4, 21);
    // Each item's 4 votes dealt to the judges in a random order, so the judges are exchangeable.
    let mut csv = String::from("item_id,annotator_id,label\n");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..s.num_items() {
        let mut votes: Vec<usize> = Vec::new();
        for (c, &n) in s.counts(i).iter().enumerate() {
            votes.extend(std::iter::repeat_n(c, n as usize));
        }
        crate::sample::partial_shuffle(&mut votes, 4, &mut rng);
        for (a, &c) in votes.iter().enumerate() {
            csv.push_str(&format!(
                "{},judge{a},{}\n",
                s.item_ids()[i],
                s.classes()[c]
            ));
        }
    }
    let (panel_votes, _) =
        crate::import::parse_votes(csv.as_bytes(), &crate::import::ImportOptions::default())
            .unwrap();
    assert_eq!(panel_votes.annotator_ids().len(), 4);
    let p = panel(&h, &panel_votes, &cfg(), 6).unwrap().unwrap();
    assert_eq!(p.annotators.len(), 4);
    for (metric, pts) in &p.curve {
        if *metric == WorthMetric::EntropyCorr || *metric == WorthMetric::MajorityAgreement {
            continue; // undefined at one vote / flat from 1 to 2: checked elsewhere
        }
        let nu: Vec<f64> = pts.iter().map(|q| q.nu.unwrap_or(0.0)).collect();
        assert_eq!(pts.len(), 4);
        assert!(
            (nu[3] - 4.0).abs() < 0.6,
            "{}: ν(4) = {}",
            metric.key(),
            nu[3]
        );
        assert!(
            (nu[1] - 2.0).abs() < 0.5,
            "{}: ν(2) = {}",
            metric.key(),
            nu[1]
        );
        assert!(
            nu[3] > nu[1],
            "{}: the panel's ν grows with its size",
            metric.key()
        );
        // All four annotators together are one subset: its spread is nil.
        assert_eq!(pts[3].lo, pts[3].hi);
    }
    // Each annotator alone is one vote per item: about one human, within its interval.
    for each in &p.each {
        let m = each
            .iter()
            .find(|m| m.metric == WorthMetric::SquaredError)
            .unwrap();
        assert!(
            m.hi.is_some_and(|hi| hi >= 1.0) && m.lo.unwrap_or(0.0) <= 1.0,
            "{m:?}"
        );
    }
    // Without per-annotator rows there is no panel view.
    assert_eq!(panel(&h, &s, &cfg(), 2).unwrap(), None);
}

#[test]
fn a_worth_the_metric_cannot_resolve_is_said_in_words() {
    // Majority agreement's human curve: 1 and 2 votes alike (a 1–1 tie scores half).
    let m = MetricWorth {
        metric: WorthMetric::MajorityAgreement,
        nu: Some(1.5),
        lo: Some(1.1),
        hi: Some(1.9),
        bound: None,
        source: Some(0.7),
        human: vec![
            (1, Some(0.7)),
            (2, Some(0.701)),
            (3, Some(0.8)),
            (4, Some(0.85)),
        ],
        floor: 1,
    };
    assert_eq!(m.unresolved(1.5), Some(1));
    let w = m.words(4);
    assert!(w.starts_with("between 1 and 2 humans"), "{w}");
    assert!(!w.contains("1.5"), "{w}");
    // Where the curve moves, the decimal stands.
    let moving = MetricWorth {
        nu: Some(2.5),
        ..m.clone()
    };
    assert_eq!(moving.unresolved(2.5), None);
    assert!(moving.words(4).starts_with("worth 2.5 humans"));
}

#[test]
fn a_crowd_of_workers_is_one_source_and_judges_are_a_panel() {
    use crate::votes::Annotation;
    // 40 items; judges: 3 annotators on every item. Crowd: 20 workers, each on 2 items.
    let table = |who: &dyn Fn(u32) -> Vec<u32>, annotators: usize| {
        let mut ann = Vec::new();
        let mut counts = vec![0u32; 40 * 2];
        for i in 0..40u32 {
            for a in who(i) {
                ann.push(Annotation {
                    item: i,
                    annotator: a,
                    label: (i % 2) as u16,
                });
                counts[i as usize * 2 + (i % 2) as usize] += 1;
            }
        }
        VoteTable::new(
            vec!["x".into(), "y".into()],
            (0..40).map(|i| format!("i{i}")).collect(),
            counts,
        )
        .with_annotations((0..annotators).map(|a| format!("w{a}")).collect(), ann)
    };
    let judges = table(&|_| vec![0, 1, 2], 3);
    assert!(panel::is_panel(&judges));
    assert_eq!(panel::crowd(&judges), None);
    let crowd = table(&|i| vec![i / 2], 20);
    assert!(!panel::is_panel(&crowd));
    let c = panel::crowd(&crowd).expect("a crowd");
    assert_eq!((c.workers, c.min, c.median, c.max), (20, 2, 2, 2));
    assert!(c
        .words()
        .starts_with("a crowd of 20 workers (2–2 items each, median 2): measured as one source"));
}

/// Annotators `who` of a synthetic table's votes on the items `keep` allows, as a long table
/// (annotators renumbered in `who`'s order, ids `prefix0`, `prefix1`, …).
fn long_of(t: &VoteTable, who: &[u32], keep: &dyn Fn(u32, u32) -> bool, prefix: &str) -> VoteTable {
    use crate::votes::Annotation;
    let k = t.num_classes();
    let mut counts = vec![0u32; t.num_items() * k];
    let mut ann = Vec::new();
    for a in t.annotations() {
        let Some(j) = who.iter().position(|&w| w == a.annotator) else {
            continue;
        };
        if !keep(a.annotator, a.item) {
            continue;
        }
        counts[a.item as usize * k + a.label as usize] += 1;
        ann.push(Annotation {
            annotator: j as u32,
            ..*a
        });
    }
    VoteTable::new(t.classes().to_vec(), t.item_ids().to_vec(), counts).with_annotations(
        (0..who.len()).map(|j| format!("{prefix}{j}")).collect(),
        ann,
    )
}

#[test]
fn one_person_who_skipped_the_hardest_half_is_worth_about_one_person() {
    use crate::synth::{generate, SynthConfig};
    // Ten honest annotators on every item: each is one typical human.
    let syn = generate(&SynthConfig {
        items: 300,
        classes: 3,
        concentration: 0.8,
        votes: 10,
        annotators: 10,
        dim: 1,
        seed: 3,
        ..Default::default()
    })
    .unwrap();
    let k = 3;
    let entropy = |i: u32| -> f64 {
        syn.truth[i as usize * k..(i as usize + 1) * k]
            .iter()
            .map(|&p| if p > 0.0 { -p * p.ln() } else { 0.0 })
            .sum()
    };
    let mut order: Vec<u32> = (0..300).collect();
    order.sort_by(|&a, &b| entropy(a).total_cmp(&entropy(b)));
    let mut easy = vec![false; 300];
    for &i in &order[..150] {
        easy[i as usize] = true;
    }
    let humans = long_of(&syn.table, &[2, 3, 4, 5, 6, 7, 8, 9], &|_, _| true, "h");
    // Annotator 0 skipped the hardest half; annotator 1 labelled everything.
    let source = long_of(&syn.table, &[0, 1], &|a, i| a != 0 || easy[i as usize], "s");
    let r = report(&humans, &source, &cfg(), 4, &mut |_| {}).unwrap();
    let panel = r
        .panel
        .expect("two judges, each on at least half the items");
    for (who, metrics) in panel.each.iter().enumerate() {
        let m = metrics
            .iter()
            .find(|m| m.metric == WorthMetric::Jsd)
            .unwrap();
        let lo = m.lo.unwrap_or(0.0);
        let hi = m.hi.unwrap_or(f64::INFINITY);
        assert!(
            lo <= 1.0 && 1.0 <= hi,
            "annotator s{who}: {} ({lo:.2}–{hi:.2})",
            m.words(r.worth.pool)
        );
    }
}

/// A crowd of 20 annotators, 10 of them on each of 400 items (3 classes, Dirichlet(0.5)).
fn crowd_of_20(seed: u64) -> crate::synth::SynthConfig {
    crate::synth::SynthConfig {
        items: 400,
        classes: 3,
        concentration: 0.5,
        votes: 10,
        annotators: 20,
        dim: 1,
        seed,
        ..Default::default()
    }
}

#[test]
fn planted_spammers_are_flagged_below_one_and_honest_annotators_rarely() {
    use crate::synth::{generate, SynthConfig};
    // Over 5 crowds: 20 annotators on 10 of 20 per item; the first 3 vote at random.
    let mut honest_flagged = Vec::new();
    for seed in 5..10 {
        let syn = generate(&SynthConfig {
            spammers: 0.15,
            ..crowd_of_20(seed)
        })
        .unwrap();
        let r = rank::rank(&syn.table, &cfg(), &mut |_| {}).unwrap();
        assert!(
            r.over_annotators,
            "a long file's intervals cover annotators"
        );
        assert_eq!(r.rows.len(), 20);
        let flagged: Vec<&str> = r
            .rows
            .iter()
            .filter(|row| row.below_one)
            .map(|row| row.id.as_str())
            .collect();
        for spammer in ["a0", "a1", "a2"] {
            assert!(
                flagged.contains(&spammer),
                "seed {seed}: {spammer} not flagged: {flagged:?}"
            );
        }
        honest_flagged.extend(
            flagged
                .iter()
                .filter(|id| !["a0", "a1", "a2"].contains(id))
                .map(|id| format!("{seed}:{id}")),
        );
        // The lowest are the spammers, and Dawid–Skene agrees they are less often right.
        let lowest: Vec<&str> = r.rows[..3].iter().map(|row| row.id.as_str()).collect();
        assert!(
            lowest.iter().all(|id| ["a0", "a1", "a2"].contains(id)),
            "seed {seed}: {lowest:?}"
        );
        let ds = |id: &str| r.rows.iter().find(|row| row.id == id).unwrap().ds_accuracy;
        assert!(ds("a0") < ds("a10") && ds("a1") < ds("a10"));
    }
    // Honest annotators are one typical annotator each: flagged at about the interval's
    // one-sided rate at most (2.5% of 85 is 2.1; 5 or more would happen by chance under 5%).
    assert!(honest_flagged.len() <= 4, "{honest_flagged:?}");
}

#[test]
fn planted_experts_read_above_one_typical_annotator() {
    use crate::synth::{generate, SynthConfig};
    // 20 annotators, the others confused on about 40% of their votes, two experts who never are.
    let syn = generate(&SynthConfig {
        confusion: 0.4,
        experts: 0.1,
        ..crowd_of_20(6)
    })
    .unwrap();
    let r = rank::rank(&syn.table, &cfg(), &mut |_| {}).unwrap();
    for expert in ["a0", "a1"] {
        let row = r.rows.iter().find(|row| row.id == expert).unwrap();
        let m = row
            .worth
            .iter()
            .find(|m| m.metric == WorthMetric::Jsd)
            .unwrap();
        assert!(
            m.lo.is_some_and(|lo| lo > 1.0),
            "{expert}: {}",
            m.words(m.human.last().map_or(1, |h| h.0))
        );
        assert!(!row.below_one);
    }
    // The experts rank near the top (an annotator whose own confusion rate was drawn near 0 is
    // an expert too).
    let top: Vec<&str> = r.rows[r.rows.len() - 5..]
        .iter()
        .map(|row| row.id.as_str())
        .collect();
    assert!(top.contains(&"a0") && top.contains(&"a1"), "{top:?}");
}
