use super::*;
use crate::extrapolate::test_table;

/// `n` items of two kinds (clear and split), `votes` votes each, drawn from known shares.
fn two_kinds(n: usize, votes: u32, seed: u64) -> VoteTable {
    let mut counts = Vec::new();
    for i in 0..n {
        let theta = if i % 2 == 0 {
            [0.9, 0.05, 0.05]
        } else {
            [0.4, 0.35, 0.25]
        };
        let mut rng = sample::stream(seed, 1, i as u64, 0);
        let mut c = [0u32; 3];
        multinomial_draw(&theta, votes, &mut rng, &mut c);
        counts.extend_from_slice(&c);
    }
    test_table(counts, 3)
}

#[test]
fn a_pilot_part_is_found_only_where_enough_items_have_more_votes() {
    let few = two_kinds(300, 5, 1);
    assert!(dense_part(&few, 5).is_none());
    // 60 of the items get 20 votes: the part is those 60, at 20.
    let mut counts = few.all_counts().to_vec();
    let more = two_kinds(60, 20, 2);
    counts[..60 * 3].copy_from_slice(more.all_counts());
    let t = test_table(counts.clone(), 3);
    let part = dense_part(&t, 5).expect("60 items with 20 votes");
    assert_eq!(
        (part.num_items(), part.min_total(), part.max_total()),
        (60, 20, 20)
    );
    // 40 such items are too few to answer from.
    counts[40 * 3..60 * 3].copy_from_slice(&few.all_counts()[40 * 3..60 * 3]);
    assert!(dense_part(&test_table(counts, 3), 5).is_none());
}

#[test]
fn a_simulated_pilot_tops_the_chosen_items_up_and_keeps_their_votes() {
    let t = two_kinds(300, 5, 3);
    let fit = crate::extrapolate::fit(&t, Components::Fixed(2), 7).expect("fit");
    let sim = simulate(&t, &fit, 50, 20, 7);
    assert_eq!(
        (sim.num_items(), sim.min_total(), sim.max_total()),
        (50, 20, 20)
    );
    for (j, id) in sim.item_ids().iter().enumerate() {
        let i = t
            .item_ids()
            .iter()
            .position(|x| x == id)
            .expect("an item of the file");
        assert!(t.counts(i).iter().zip(sim.counts(j)).all(|(a, b)| a <= b));
    }
    // Seeded: the same pilot again.
    assert_eq!(simulate(&t, &fit, 50, 20, 7), sim);
    assert_ne!(simulate(&t, &fit, 50, 20, 8), sim);
}

fn point(n: u32, lo: u32, hi: u32) -> Point {
    Point {
        n: Some(n),
        items: Some(crate::curves::bootstrap::closed(lo, hi)),
    }
}

fn part(items: u32, votes: u32, hw_points: [Point; 4]) -> Part {
    Part {
        items,
        votes,
        extra: items as u64 * (votes - 5) as u64,
        extrapolated: true,
        points: hw_points.to_vec(),
        x: 0.9,
    }
}

#[test]
fn the_recommendation_is_the_cheapest_pilot_that_reaches_the_goal() {
    let wide = point(40, 20, 80);
    let runs = vec![
        part(50, 10, [point(40, 30, 50), wide, wide, wide]),
        part(100, 10, [point(40, 34, 46), point(40, 25, 60), wide, wide]),
        part(50, 20, [point(40, 36, 44), point(40, 33, 47), wide, wide]),
    ];
    let m = Metric::ALL;
    assert_eq!(
        recommend(&runs, m[0], 0.75).map(|r| (r.items, r.votes)),
        Some((100, 10))
    );
    assert_eq!(
        recommend(&runs, m[1], 0.75).map(|r| (r.items, r.votes)),
        Some((50, 20))
    );
    // None reaches ±20%: the narrowest, if it narrows at all.
    assert_eq!(recommend(&runs, m[2], 0.75), None);
    let narrower = vec![part(200, 40, [wide, wide, point(40, 30, 54), wide])];
    assert_eq!(recommend(&narrower, m[2], 0.75).map(|r| r.votes), Some(40));
    assert!((half_width(&point(40, 30, 54)) - 0.3).abs() < 1e-12);
    assert!(half_width(&Point {
        n: None,
        items: None
    })
    .is_infinite());
}

#[test]
fn a_wide_answer_gets_a_pilot_line_and_says_so_when_none_helps() {
    use crate::answer::{Extrapolated, MetricAnswer};
    let shown = |p: Point| Extrapolated {
        reference: ReferenceVotes::Votes(100),
        answer: MetricAnswer {
            metric: Metric::Jsd,
            x: 0.9,
            votes: 100,
            point: p,
            bounded_by_votes: false,
            eps: 0.1,
            within: p,
            partial_grid: false,
            typical_votes: 100,
            items: 500,
            over_annotators: false,
        },
        total_variation: 0.0,
        margin: None,
        from: None,
        unchecked_classes: None,
        unconverged: false,
    };
    let wide = point(40, 20, 80);
    let runs = vec![
        part(100, 10, [point(40, 34, 46), wide, wide, wide]),
        part(200, 40, [wide, wide, wide, wide]),
    ];
    assert_eq!(
        pilot_line(&shown(wide), &runs).as_deref(),
        Some("A pilot of 10 votes on 100 items (500 more votes) would narrow it to about ±15%.")
    );
    // Narrow already: no line.
    assert_eq!(pilot_line(&shown(point(40, 36, 44)), &runs), None);
    // No size tried narrows it: said, with the largest tried.
    let none = vec![part(200, 40, [wide, wide, wide, wide])];
    assert_eq!(
        pilot_line(&shown(wide), &none).as_deref(),
        Some("No pilot tried, up to 40 votes on 200 items, would narrow it.")
    );
    // Simulated for another share: nothing said.
    let other = vec![Part {
        x: 0.8,
        ..runs[0].clone()
    }];
    assert_eq!(pilot_line(&shown(wide), &other), None);
}
