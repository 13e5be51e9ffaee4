use super::*;
use crate::import::multilabel::{parse_multilabel, MultilabelFormat};
use crate::import::{parse_any, AnyVotes, ImportErrorKind, ImportOptions};
use crate::sample;

const WIDE: &str = "item_id,annotator_id,joy,anger,none\n\
a,w1,1,0,0\na,w2,1,1,0\na,w3,0,0,1\n\
b,w1,0,1,0\nb,w2,0,0,0\n";
const LONG: &str = "item_id,annotator_id,label\n\
a,w1,joy\na,w2,anger\na,w2,joy\na,w3,none\n\
b,w1,anger\nb,w2,\n";

fn by_name(t: &MultilabelTable, item: usize) -> Vec<(String, u32)> {
    let mut v: Vec<(String, u32)> = t.labels().iter().cloned().zip(t.counts(item)).collect();
    v.sort();
    v
}

#[test]
fn wide_and_long_layouts_read_the_same_ratings() {
    let (w, rw) = parse_multilabel(WIDE.as_bytes()).unwrap();
    let (l, rl) = parse_multilabel(LONG.as_bytes()).unwrap();
    assert_eq!(rw.format, MultilabelFormat::Wide);
    assert_eq!(rl.format, MultilabelFormat::Long);
    assert_eq!(w.labels(), ["joy", "anger", "none"]);
    assert_eq!(l.labels(), ["anger", "joy", "none"], "long labels sort");
    for t in [&w, &l] {
        assert_eq!(t.item_ids(), ["a", "b"]);
        assert_eq!((t.votes(0), t.votes(1)), (3, 2));
    }
    for i in 0..2 {
        assert_eq!(by_name(&w, i), by_name(&l, i));
    }
    // b's second annotator ticked nothing: a rating of its own, with no bit set.
    assert_eq!(w.ratings(1)[1], 0);
    assert_eq!(l.ratings(1)[1], 0);
    assert!((w.shares(0)[0] - 2.0 / 3.0).abs() < 1e-15);
}

#[test]
fn detection_reads_each_long_file_as_what_it_is() {
    let single = "item_id,annotator_id,label\na,w1,joy\na,w2,anger\nb,w1,joy\n";
    match parse_any(single.as_bytes(), &ImportOptions::default()).unwrap() {
        AnyVotes::Single(t, _) => assert_eq!(t.counts(0), &[1, 1]),
        AnyVotes::Multilabel(..) => panic!("a single-label long file read as multilabel"),
    }
    match parse_any(LONG.as_bytes(), &ImportOptions::default()).unwrap() {
        AnyVotes::Multilabel(t, _) => assert_eq!(t.votes(0), 3, "three annotators, not four votes"),
        AnyVotes::Single(..) => panic!("a multilabel long file read as single-label"),
    }
    match parse_any(WIDE.as_bytes(), &ImportOptions::default()).unwrap() {
        AnyVotes::Multilabel(t, _) => assert_eq!(t.n_labels(), 3),
        AnyVotes::Single(..) => panic!("a 0/1 wide file read as single-label"),
    }
    // An empty label in a single-label file stays an error.
    let e = parse_any(
        "item_id,annotator_id,label\na,w1,joy\na,w2,\n".as_bytes(),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ImportErrorKind::EmptyLabel);
}

/// A file, the line its error names, and what the error must be.
type Case = (&'static str, u64, fn(&ImportErrorKind) -> bool);

#[test]
fn inconsistent_files_are_errors_with_their_line() {
    let cases: [Case; 5] = [
        (
            "item_id,annotator_id,a,b\nx,w,1,2\n",
            2,
            |k| matches!(k, ImportErrorKind::NotBinary { value } if value == "2"),
        ),
        ("item_id,annotator_id,a,b\nx,w,1,0\nx,w,0,1\n", 3, |k| {
            matches!(k, ImportErrorKind::DuplicateRating { first_line: 2, .. })
        }),
        ("item_id,annotator_id,label\nx,w,a\nx,w,a\n", 3, |k| {
            matches!(k, ImportErrorKind::DuplicateRating { .. })
        }),
        ("item_id,annotator_id,label\nx,w,a\nx,w,\n", 3, |k| {
            matches!(k, ImportErrorKind::InconsistentRating { .. })
        }),
        ("item_id,annotator_id,a,b\nx,w,1\n", 2, |k| {
            matches!(k, ImportErrorKind::WrongColumnCount { .. })
        }),
    ];
    for (csv, line, ok) in cases {
        let e = parse_multilabel(csv.as_bytes()).unwrap_err();
        assert_eq!(e.line, Some(line), "{csv}: {e}");
        assert!(ok(&e.kind), "{csv}: {e}");
        assert!(e.to_string().contains(';'), "a fix is said: {e}");
    }
    let e = parse_multilabel("item_id,a,b\nx,1,0\n".as_bytes()).unwrap_err();
    assert!(
        matches!(e.kind, ImportErrorKind::NotMultilabel { .. }),
        "{e}"
    );
}

/// `items` items, each with `m` annotators who tick each of `l` labels with its own probability.
fn synthetic(items: usize, m: u32, l: usize, seed: u64) -> MultilabelTable {
    let labels = (0..l).map(|j| format!("l{j}")).collect();
    let ids = (0..items).map(|i| format!("i{i}")).collect();
    let ann = (0..m).map(|a| format!("a{a}")).collect();
    let ratings = (0..items)
        .map(|i| {
            let mut rng = sample::stream(seed, 1, i as u64, 0);
            let probs: Vec<u32> = (0..l).map(|_| sample::below(&mut rng, 101)).collect();
            (0..m)
                .map(|a| {
                    let bits = probs.iter().enumerate().fold(0u64, |acc, (j, &p)| {
                        if sample::below(&mut rng, 100) < p {
                            acc | 1 << j
                        } else {
                            acc
                        }
                    });
                    (a, bits)
                })
                .collect()
        })
        .collect();
    MultilabelTable::new(labels, ids, ann, ratings)
}

#[test]
fn brier_matches_the_closed_form_of_sampling_without_replacement() {
    // E(q − p)² = p(1 − p)/N · (M − N)/(M − 1) for N of M annotators drawn without replacement.
    let (m, l) = (12u32, 5usize);
    let t = synthetic(400, m, l, 3);
    let grid = vec![1, 2, 4, 8, 12];
    let c = compute(
        &t,
        &MlConfig {
            grid: grid.clone(),
            repeats: 200,
            seed: 9,
            bootstrap: 0,
        },
    )
    .unwrap();
    for (g, p) in c.points(MlMetric::Brier).iter().enumerate() {
        let n = grid[g] as f64;
        let want: f64 = (0..t.n_items())
            .flat_map(|i| t.shares(i))
            .map(|p| p * (1.0 - p) / n * (m as f64 - n) / (m as f64 - 1.0))
            .sum::<f64>()
            / (t.n_items() * l) as f64;
        let got = p.mean.unwrap();
        let se = p.sd.unwrap_or(0.0) / (200f64).sqrt();
        assert!(
            (got - want).abs() <= 4.5 * se + 1e-12,
            "N={n}: {got} vs {want} (se {se})"
        );
    }
    // With every annotator, every metric is at its best.
    let last = grid.len() - 1;
    for metric in [MlMetric::Jsd, MlMetric::Brier] {
        assert!(c.points(metric)[last].mean.unwrap().abs() < 1e-12);
    }
    for metric in [
        MlMetric::MacroF1,
        MlMetric::MicroF1,
        MlMetric::ExactSet,
        MlMetric::EntropyCorr,
    ] {
        assert!(
            (c.points(metric)[last].mean.unwrap() - 1.0).abs() < 1e-12,
            "{metric:?}"
        );
    }
    assert_eq!(
        c.points(MlMetric::EntropyCorr)[0].mean,
        None,
        "undefined at N = 1"
    );
}

#[test]
fn item_intervals_cover_the_population_point_and_few_votes_are_bounded() {
    let t = synthetic(300, 10, 4, 5);
    let cfg = MlConfig {
        grid: (1..=10).collect(),
        repeats: 10,
        seed: 1,
        bootstrap: 100,
    };
    let c = compute(&t, &cfg).unwrap();
    for metric in MlMetric::ALL {
        let s = c.saturation(metric, 0.9);
        let items = s.items.unwrap();
        assert_eq!(items.resamples, 100);
        if let (Some(n), Some(lo), Some(hi)) = (s.n, items.lo, items.hi) {
            assert!(lo <= n && n <= hi, "{metric:?}: {n} outside [{lo}, {hi}]");
        }
        // 10 votes: a 90% point past N = 2 is forced by the vote count.
        assert_eq!(s.bounded_by_votes, s.n.is_none_or(|n| n > 2), "{metric:?}");
        assert_eq!(s.votes, 10);
    }
    // The same seed gives the same bits.
    assert_eq!(
        format!("{:?}", compute(&t, &cfg).unwrap()),
        format!("{c:?}")
    );
    for l in 0..4 {
        let s = c.label_saturation(l, 0.9);
        assert!(s.n.is_some() && s.items.is_some());
    }
}

#[test]
fn samples_are_nested_and_an_item_does_not_depend_on_the_others() {
    let t = synthetic(50, 8, 3, 2);
    let cfg = |grid: Vec<u32>| MlConfig {
        grid,
        repeats: 5,
        seed: 4,
        bootstrap: 0,
    };
    let full = compute(&t, &cfg(vec![1, 3, 8])).unwrap();
    let part = compute(&t, &cfg(vec![3, 8])).unwrap();
    // Grid N = 3's values do not depend on whether N = 1 was computed too.
    assert_eq!(full.points(MlMetric::Jsd)[1], part.points(MlMetric::Jsd)[0]);
}
