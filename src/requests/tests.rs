//! The pool's bookkeeping, natively: merging of worker parts, stale answers, failed uploads and
//! dead workers.

use super::*;
use annosat_core::curves::{compute, compute_repeats};
use annosat_core::{CurveConfig, VoteTable};

fn table() -> VoteTable {
    let counts = (0..30 * 3).map(|j| ((j * 7) % 5) as u32 + 1).collect();
    let ids = (0..30).map(|i| format!("i{i}")).collect();
    VoteTable::new(vec!["a".into(), "b".into(), "c".into()], ids, counts)
}

fn summary() -> Summary {
    Summary::of(&table())
}

fn loaded(id: u64) -> Response {
    Response::Loaded {
        id,
        summary: summary(),
        notes: vec![],
    }
}

fn error(id: u64, message: &str) -> Response {
    Response::Error {
        id,
        message: message.into(),
    }
}

fn json(c: &Curves) -> String {
    serde_json::to_string(c).unwrap()
}

/// Loads `name` as a bundle into all workers of `r` and delivers every answer; returns its load.
fn load_ok(r: &mut Requests<&'static str>, name: &'static str) -> Load<&'static str> {
    let l = r.load(Format::Bundle, name, false);
    for w in 0..r.workers() {
        r.receive(w, loaded(l.id));
    }
    l
}

#[test]
fn a_load_is_answered_once_every_worker_has_it() {
    let mut r = Requests::new(3);
    let l = r.load(Format::Csv, "file", true);
    assert!(r.busy());
    assert_eq!(r.receive(0, loaded(l.id)).0, None);
    assert_eq!(r.receive(2, loaded(l.id)).0, None);
    match r.receive(1, loaded(l.id)).0 {
        Some(Answer::Loaded { upload, .. }) => assert!(upload),
        other => panic!("{other:?}"),
    }
    assert!(!r.busy());
    assert_eq!(r.good().map(|g| g.payload), Some("file"));
}

#[test]
fn split_parts_merge_into_the_single_worker_result_and_progress_is_averaged() {
    let t = table();
    let cfg = CurveConfig {
        repeats: 10,
        ..Default::default()
    };
    let mut r: Requests<&str> = Requests::new(3);
    load_ok(&mut r, "d");
    let (id, parts) = r.compute(cfg.repeats);
    assert_eq!(parts, vec![(0, 3), (3, 6), (6, 10)]);
    let progress = |done| Response::Progress {
        id,
        stage: "compute".into(),
        done,
    };
    match r.receive(1, progress(0.6)).0 {
        Some(Answer::Progress { stage, done }) => {
            assert_eq!(stage, "compute");
            assert!((done - 0.2).abs() < 1e-12, "{done}");
        }
        other => panic!("{other:?}"),
    }
    // Parts arrive in any order.
    let mut last = None;
    for w in [2, 0, 1] {
        let (a, b) = parts[w];
        let curves = compute_repeats(&t, &cfg, a..b, &mut |_, _| {}).unwrap();
        last = r
            .receive(
                w,
                Response::Curves {
                    id,
                    curves,
                    ms: w as f64,
                },
            )
            .0;
        if w != 1 {
            assert_eq!(last, None, "answered before every part arrived");
        }
    }
    match last {
        Some(Answer::Curves { curves, ms }) => {
            assert_eq!(json(&curves), json(&compute(&t, &cfg).unwrap()));
            assert_eq!(ms, 2.0, "the slowest part's time");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn mean_curves_come_first_and_the_intervals_after_each_stage_with_its_own_progress() {
    let t = table();
    let cfg = CurveConfig {
        repeats: 10,
        bootstrap: 20,
        ..Default::default()
    };
    let mut r: Requests<&str> = Requests::new(2);
    load_ok(&mut r, "d");
    let (id, parts) = r.compute(cfg.repeats);
    // As the worker does: the means from a pass without the bootstrap, then the bootstrap's pass.
    let plain = CurveConfig {
        bootstrap: 0,
        ..cfg.clone()
    };
    let prep = annosat_core::curves::Prepared::new(&t, &cfg).unwrap();
    let mut means = Vec::new();
    let mut full = Vec::new();
    for &(a, b) in &parts {
        means.push(compute_repeats(&t, &plain, a..b, &mut |_, _| {}).unwrap());
        let c = prep
            .repeats_reporting_resamples(a..b, &mut |_, _| {}, &mut |_, _| {})
            .unwrap();
        let mut values = c.clone();
        assert!(values.boot.take().is_some());
        assert_eq!(
            json(&values),
            json(means.last().unwrap()),
            "both passes draw the same means"
        );
        full.push(c);
    }
    assert!(means.iter().all(|m| m.boot.is_none()));
    let progress = |stage: &str, done| Response::Progress {
        id,
        stage: stage.into(),
        done,
    };
    // Worker 0 resamples while worker 1 still draws: each stage is averaged on its own.
    r.receive(
        0,
        Response::MeanCurves {
            id,
            curves: means[0].clone(),
            ms: 1.0,
        },
    );
    match r.receive(0, progress("intervals", 0.5)).0 {
        Some(Answer::Progress { stage, done }) => {
            assert_eq!((stage.as_str(), done), ("intervals", 0.25))
        }
        other => panic!("{other:?}"),
    }
    match r.receive(1, progress("compute", 0.5)).0 {
        Some(Answer::Progress { stage, done }) => {
            assert_eq!((stage.as_str(), done), ("compute", 0.25))
        }
        other => panic!("{other:?}"),
    }
    assert!(r.busy());
    match r
        .receive(
            1,
            Response::MeanCurves {
                id,
                curves: means[1].clone(),
                ms: 2.0,
            },
        )
        .0
    {
        Some(Answer::MeanCurves { curves, ms }) => {
            assert_eq!(ms, 2.0);
            let mut whole = compute(&t, &cfg).unwrap();
            assert!(whole.boot.take().is_some());
            assert_eq!(
                json(&curves),
                json(&whole),
                "the means are the full computation's"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(r.busy(), "the intervals are still being computed");
    assert_eq!(
        r.receive(
            0,
            Response::Curves {
                id,
                curves: full[0].clone(),
                ms: 3.0
            }
        )
        .0,
        None
    );
    match r
        .receive(
            1,
            Response::Curves {
                id,
                curves: full[1].clone(),
                ms: 4.0,
            },
        )
        .0
    {
        Some(Answer::Curves { curves, ms }) => {
            assert_eq!(ms, 4.0);
            assert_eq!(
                json(&curves),
                json(&compute(&t, &cfg).unwrap()),
                "bootstrap sums included"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(!r.busy());
}

#[test]
fn stale_answers_are_dropped() {
    let t = table();
    let cfg = CurveConfig {
        repeats: 2,
        ..Default::default()
    };
    let mut r: Requests<&str> = Requests::new(1);
    load_ok(&mut r, "d");
    let (old, _) = r.compute(2);
    let (new, _) = r.compute(2);
    let curves = || compute(&t, &cfg).unwrap();
    let answer = |id| Response::Curves {
        id,
        curves: curves(),
        ms: 1.0,
    };
    let progress = Response::Progress {
        id: old,
        stage: "compute".into(),
        done: 0.5,
    };
    assert_eq!(r.receive(0, progress).0, None);
    assert_eq!(r.receive(0, answer(old)).0, None);
    assert!(matches!(
        r.receive(0, answer(new)).0,
        Some(Answer::Curves { .. })
    ));
    // An error for an older request is as stale as its answer.
    let (older, _) = r.compute(2);
    r.compute(2);
    assert_eq!(r.receive(0, error(older, "x")).0, None);
    // Items likewise.
    let (i1, i2) = (r.items(), r.items());
    let items = |id| Response::Items {
        id,
        n: 3,
        movers: vec![],
        points: vec![],
        total: 0,
    };
    assert_eq!(r.receive(0, items(i1)).0, None);
    assert!(r.receive(0, items(i2)).0.is_some());
}

#[test]
fn a_bad_upload_is_said_once_and_the_good_dataset_goes_back() {
    let mut r = Requests::new(2);
    let good = load_ok(&mut r, "bundle");
    let bad = r.load(Format::Csv, "upload", true);
    let (a, action) = r.receive(0, error(bad.id, "line 3: not a count"));
    assert_eq!(
        a,
        Some(Answer::UploadFailed {
            message: "line 3: not a count".into()
        })
    );
    assert_eq!(action, Action::Reload(good.clone()));
    // The other worker is still reading the file: its progress is not shown any more.
    let late = Response::Progress {
        id: bad.id,
        stage: "parse".into(),
        done: 0.5,
    };
    assert_eq!(r.receive(1, late).0, None);
    assert_eq!(r.receive(1, error(bad.id, "line 3: not a count")).0, None);
    assert_eq!(r.good(), Some(&good), "the failed upload never became good");
    // The reload is quiet: the page still shows the good dataset and is not told again.
    r.reload(&good);
    assert_eq!(r.receive(0, loaded(good.id)).0, None);
    assert_eq!(r.receive(1, loaded(good.id)).0, None);
    assert!(!r.busy());
}

#[test]
fn a_failed_bundle_is_a_page_error() {
    let mut r: Requests<&str> = Requests::new(1);
    let l = r.load(Format::Bundle, "b", false);
    assert_eq!(
        r.receive(0, error(l.id, "corrupt")),
        (
            Some(Answer::Failed {
                message: "corrupt".into()
            }),
            Action::None
        )
    );
}

#[test]
fn errors_that_belong_to_no_request_are_shown() {
    let mut r: Requests<&str> = Requests::new(1);
    match r.receive(0, error(0, "bad request: EOF")).0 {
        Some(Answer::Failed { message }) => assert!(message.contains("bad request: EOF")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_dead_worker_is_reported_and_the_last_good_dataset_comes_back_quietly() {
    let mut r = Requests::new(2);
    let good = load_ok(&mut r, "bundle");
    let big = r.load(Format::Csv, "200 MB", true);
    r.receive(
        0,
        Response::Progress {
            id: big.id,
            stage: "parse".into(),
            done: 0.3,
        },
    );
    let (answer, action) = r.worker_died("RuntimeError: unreachable");
    match answer {
        Answer::UploadFailed { message } => {
            assert!(message.contains("while reading your file"), "{message}");
            assert!(message.contains("RuntimeError: unreachable"), "{message}");
            assert!(message.contains("CLI"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(action, Action::Respawn(Some(good.clone())));
    assert!(!r.busy(), "what was in flight is forgotten");
    // A late answer from the dead load is stale; the restore is quiet.
    assert_eq!(r.receive(1, loaded(big.id)).0, None);
    r.reload(&good);
    assert_eq!(r.receive(0, loaded(good.id)).0, None);
    assert_eq!(r.receive(1, loaded(good.id)).0, None);
    assert_eq!(r.good(), Some(&good));
    // And the pool works on: a new computation is answered.
    let (id, _) = r.compute(2);
    let t = table();
    let cfg = CurveConfig {
        repeats: 2,
        ..Default::default()
    };
    r.receive(
        0,
        Response::Curves {
            id,
            curves: compute_repeats(&t, &cfg, 0..1, &mut |_, _| {}).unwrap(),
            ms: 1.0,
        },
    );
    let last = r.receive(
        1,
        Response::Curves {
            id,
            curves: compute_repeats(&t, &cfg, 1..2, &mut |_, _| {}).unwrap(),
            ms: 1.0,
        },
    );
    assert!(matches!(last.0, Some(Answer::Curves { .. })));
}

#[test]
fn a_worker_that_dies_computing_or_before_any_data_says_so() {
    let mut r: Requests<&str> = Requests::new(1);
    let (a, action) = r.worker_died("failed to fetch annosat-worker_bg.wasm");
    assert!(matches!(a, Answer::Failed { .. }));
    assert_eq!(action, Action::Respawn(None));
    let good = load_ok(&mut r, "d");
    r.compute(50);
    match r.worker_died("out of memory") {
        (Answer::Failed { message }, Action::Respawn(Some(g))) => {
            assert!(message.contains("while computing the curves"), "{message}");
            assert_eq!(g, good);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn cancel_forgets_the_work_in_flight_and_restores_the_good_dataset() {
    let mut r = Requests::new(2);
    let good = load_ok(&mut r, "bundle");
    let big = r.load(Format::Csv, "big", true);
    assert_eq!(r.cancel(), Action::Respawn(Some(good.clone())));
    assert!(!r.busy());
    let progress = Response::Progress {
        id: big.id,
        stage: "parse".into(),
        done: 0.9,
    };
    assert_eq!(r.receive(0, progress).0, None);
    assert_eq!(r.receive(0, loaded(big.id)).0, None);
    assert_eq!(
        r.good(),
        Some(&good),
        "a cancelled upload never becomes the dataset"
    );
    let (id, _) = r.compute(50);
    r.cancel();
    assert_eq!(r.receive(0, error(id, "late")).0, None);
}

#[test]
fn a_computation_asked_for_while_loading_runs_on_the_new_data_and_is_not_asked_again() {
    let mut r = Requests::new(2);
    load_ok(&mut r, "a");
    let (_, _) = r.compute(50);
    // The user picks another dataset (workers replaced), then changes the seed while it loads.
    r.restarted();
    let b = r.load(Format::Bundle, "b", false);
    let replay = r.restarted().expect("the load in flight is replayed");
    assert_eq!(replay, b);
    r.reload(&replay);
    r.compute(50);
    r.receive(0, loaded(b.id));
    match r.receive(1, loaded(b.id)).0 {
        Some(Answer::Loaded { computing, .. }) => assert!(computing),
        other => panic!("{other:?}"),
    }
    // Once shown, the dataset is restored quietly after another restart.
    let again = r.restarted().unwrap();
    r.reload(&again);
    assert_eq!(r.receive(0, loaded(b.id)).0, None);
    assert_eq!(r.receive(1, loaded(b.id)).0, None);
}

#[test]
fn a_worker_that_keeps_dying_is_not_restarted_forever() {
    let mut r: Requests<&str> = Requests::new(1);
    for _ in 1..MAX_DEATHS {
        assert_eq!(r.worker_died("no wasm").1, Action::Respawn(None));
    }
    match r.worker_died("no wasm") {
        (Answer::Failed { message }, Action::None) => {
            assert!(message.contains("Reload the page"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    // An answer in between resets the count.
    let mut r: Requests<&str> = Requests::new(1);
    for _ in 0..2 * MAX_DEATHS {
        r.worker_died("trap");
        load_ok(&mut r, "d");
    }
    assert!(matches!(r.worker_died("trap").1, Action::Respawn(Some(_))));
}

/// A job's answer as the worker sends it.
fn done(id: u64, outcome: JobOutcome) -> Response {
    Response::Done {
        id,
        outcome,
        ms: 1.0,
    }
}

fn job_event(a: Option<Answer>) -> Option<(JobKind, JobEvent)> {
    match a {
        Some(Answer::Job { kind, event }) => Some((kind, event)),
        _ => None,
    }
}

/// The Plan room's jobs: only the latest is answered, a failure is said in the room (the page's
/// status keeps its curves), and stopping the work makes it stale.
#[test]
fn plan_jobs_answer_once_fail_in_their_room_and_go_stale_when_stopped() {
    use annosat_core::extrapolate::{extrapolate, Components, ExtrapolateConfig, ReferenceVotes};
    let cfg = ExtrapolateConfig {
        reference_votes: ReferenceVotes::Votes(8),
        curves: CurveConfig {
            repeats: 4,
            ..Default::default()
        },
        draws: 2,
        components: Components::Fixed(1),
    };
    let e = extrapolate(&table(), &cfg, &mut |_, _| {}).unwrap();
    let answer = |id| {
        done(
            id,
            JobOutcome::Planned(Box::new(crate::protocol::PlanOutcome::Extrapolated {
                bands: None,
                prior: Box::new(e.fit.clone()),
                check: Box::new(e.check.clone()),
                curves: e.curves.clone(),
                beyond: None,
            })),
        )
    };
    let mut r = Requests::new(2);
    load_ok(&mut r, "d");
    let (old, new) = (r.job(JobKind::Plan), r.job(JobKind::Plan));
    // A Plan room job alone does not make the pool busy: target-side work queues behind it.
    assert!(!r.busy());
    assert_eq!(r.receive(0, answer(old)).0, None);
    let progress = Response::Progress {
        id: new,
        stage: "job".into(),
        done: 0.5,
    };
    assert_eq!(
        job_event(r.receive(0, progress).0),
        Some((JobKind::Plan, JobEvent::Progress(0.5)))
    );
    assert!(matches!(
        job_event(r.receive(0, answer(new)).0),
        Some((JobKind::Plan, JobEvent::Done { .. }))
    ));
    let failing = r.job(JobKind::Plan);
    assert_eq!(
        job_event(
            r.receive(0, error(failing, "no item has two or more votes"))
                .0
        ),
        Some((
            JobKind::Plan,
            JobEvent::Failed("no item has two or more votes".into())
        ))
    );
    let stopped = r.job(JobKind::Plan);
    assert!(r.take_lost().is_empty());
    let _ = r.cancel();
    assert_eq!(
        r.take_lost(),
        vec![JobKind::Plan],
        "the Plan room is told its work was lost"
    );
    assert!(r.take_lost().is_empty(), "once");
    assert_eq!(r.receive(0, answer(stopped)).0, None);
    // Target-side work replacing the pool (a load while a computation runs) loses it too.
    let lost = r.job(JobKind::Plan);
    r.compute(2);
    assert!(r.busy());
    let _ = r.restarted();
    assert_eq!(r.take_lost(), vec![JobKind::Plan]);
    assert_eq!(r.receive(0, answer(lost)).0, None);
}

/// The Sources room's measurement runs beside a Plan room job on worker 0: each kind answers
/// only its latest request, fails in its own room, and is told separately when a restart took it.
#[test]
fn each_job_kind_has_its_own_channel() {
    use annosat_core::worth::{report, WorthConfig};
    let t = table();
    let cfg = WorthConfig {
        splits: 1,
        repeats: 2,
        bootstrap: 0,
        ..Default::default()
    };
    let rep = report(&t, &t, &cfg, 0, &mut |_| {}).unwrap();
    let answer = |id| {
        done(
            id,
            JobOutcome::Worthed {
                report: Box::new(rep.clone()),
                notes: vec![],
            },
        )
    };
    let mut r = Requests::new(2);
    load_ok(&mut r, "d");
    let plan = r.job(JobKind::Plan);
    let (old, new) = (r.job(JobKind::Worth), r.job(JobKind::Worth));
    assert!(
        !r.busy(),
        "room jobs queue on worker 0 without making the pool busy"
    );
    assert_eq!(r.receive(0, answer(old)).0, None, "stale");
    assert!(matches!(
        job_event(r.receive(0, answer(new)).0),
        Some((JobKind::Worth, JobEvent::Done { .. }))
    ));
    let failing = r.job(JobKind::Worth);
    assert_eq!(
        job_event(
            r.receive(0, error(failing, "no item id is in both files"))
                .0
        ),
        Some((
            JobKind::Worth,
            JobEvent::Failed("no item id is in both files".into())
        ))
    );
    // The plan job sent before is still the Plan room's latest.
    let progress = Response::Progress {
        id: plan,
        stage: "job".into(),
        done: 0.5,
    };
    assert!(r.receive(0, progress).0.is_some());
    let lost = r.job(JobKind::Worth);
    let _ = r.cancel();
    let mut told = r.take_lost();
    told.sort_by_key(|k| *k as u8);
    assert_eq!(
        told,
        vec![JobKind::Plan, JobKind::Worth],
        "both rooms are told"
    );
    assert!(r.take_lost().is_empty(), "once");
    assert_eq!(r.receive(0, answer(lost)).0, None);
    // Only a measurement lost: the Plan room hears nothing.
    let lost = r.job(JobKind::Worth);
    let _ = r.restarted();
    assert_eq!(r.take_lost(), vec![JobKind::Worth]);
    assert_eq!(r.receive(0, answer(lost)).0, None);
}

/// The Target room's interval over annotators is a job too, but the target side's own: it makes
/// the pool busy (new curves or data replace it with the workers) and no room is told it was lost.
#[test]
fn the_target_sides_spread_job_counts_as_busy_and_goes_with_the_workers() {
    let mut r: Requests<&str> = Requests::new(2);
    load_ok(&mut r, "d");
    let id = r.job(JobKind::Spread);
    assert!(r.busy());
    assert!(matches!(
        job_event(r.receive(0, done(id, JobOutcome::Spread(None))).0),
        Some((JobKind::Spread, JobEvent::Done { .. }))
    ));
    assert!(!r.busy());
    let lost = r.job(JobKind::Spread);
    let _ = r.cancel();
    assert!(r.take_lost().is_empty());
    assert_eq!(r.receive(0, done(lost, JobOutcome::Spread(None))).0, None);
}

#[test]
fn rating_parts_are_one_answer_equal_to_the_whole_report_and_stale_ones_are_dropped() {
    use annosat_core::ratings::{RatingReport, Scale};
    let t = {
        let counts = (0..40 * 5).map(|j| ((j * 7) % 4) as u32).collect();
        let ids = (0..40).map(|i| format!("i{i}")).collect();
        VoteTable::new((1..=5).map(|k| k.to_string()).collect(), ids, counts)
    };
    let scale = Scale::detect(t.classes()).unwrap();
    let cfg = CurveConfig {
        repeats: 9,
        bootstrap: 10,
        ..Default::default()
    };
    let part = |(a, b): (u32, u32)| {
        Box::new(RatingReport::of(&t, &scale, &cfg, a..b, &mut |_| {}).unwrap())
    };
    let mut r: Requests<&str> = Requests::new(3);
    load_ok(&mut r, "d");
    let (old, old_parts) = r.compute(cfg.repeats);
    let (id, parts) = r.compute(cfg.repeats);
    // The older computation's ratings never answer, whole or not.
    for (w, &p) in old_parts.iter().enumerate() {
        let report = part(p);
        assert_eq!(
            r.receive(
                w,
                Response::Ratings {
                    id: old,
                    report,
                    ms: 1.0
                }
            )
            .0,
            None
        );
    }
    let mut answers = Vec::new();
    for (w, &p) in parts.iter().enumerate().rev() {
        answers.push(
            r.receive(
                w,
                Response::Ratings {
                    id,
                    report: part(p),
                    ms: 2.0,
                },
            )
            .0,
        );
    }
    assert_eq!(answers[..2], [None, None], "not before every part is in");
    let whole = RatingReport::of(&t, &scale, &cfg, 0..cfg.repeats, &mut |_| {}).unwrap();
    match answers.pop().flatten() {
        Some(Answer::Ratings { report, .. }) => {
            // The bootstrap's sums add in another order in parts: equal to rounding.
            let (mut got, mut want) = (*report, whole);
            for (x, y) in got.curves.boot.iter().zip(&want.curves.boot) {
                assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0));
            }
            got.curves.boot.clear();
            want.curves.boot.clear();
            assert_eq!(got, want);
        }
        other => panic!("{other:?}"),
    }
}
