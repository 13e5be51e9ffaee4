//! `annosat compare` against an independent numpy implementation of the same simulation
//! (tests/reference/numpy_power.py), on synthetic data where B is A moved ε of the way towards the
//! items' true distributions; and on two arms of a bundled export: the grid, the sentences, and
//! the papers' direction — total variation's most powerful split at a fixed budget takes many votes
//! per item on a many-vote set (here 7 to 15; docs/compare.md), and one vote per item points the
//! wrong way.

mod common;
use common::*;
use std::collections::HashMap;

const CONTINUOUS: [&str; 4] = ["kl", "js", "tv", "entropy_corr"];

fn rows(csv: &str) -> Vec<HashMap<String, String>> {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            head.iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn f(r: &HashMap<String, String>, k: &str) -> f64 {
    r[k].parse().unwrap()
}

/// Power per (metric, items, N) equal to numpy's within Monte-Carlo error (1,000 evaluations each:
/// 4.5 standard errors of the difference, plus 0.02 for annosat's pool of 32 vote draws per item);
/// accuracy and wins, whose differences move in steps of 1/I, within 0.2 (a step of the critical
/// value moves the power by an atom's mass). Mean differences within 4.5 standard errors (both
/// sides' evaluations and annosat's pool of draws). Power
/// rises with ε and with the items, for B moved towards the humans and away from them.
#[test]
fn power_agrees_with_numpy_and_rises_with_the_effect_and_the_items() {
    let dir = std::env::temp_dir().join(format!("annosat-power-{}", std::process::id()));
    let mut total = Vec::new();
    for eps in ["0.1", "0.25", "-0.1", "-0.25"] {
        let d = dir.join(eps);
        let d_s = d.to_str().unwrap();
        reference(
            "numpy_power.py",
            &[
                "synth", d_s, "--items", "400", "--votes", "20", "--eps", eps,
            ],
        );
        let (v, a, b) = (d.join("votes.csv"), d.join("a.csv"), d.join("b.csv"));
        let (v, a, b) = (
            v.to_str().unwrap(),
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        );
        // The grid's rows (the CSV also has the cells along the budget lines).
        let ours: Vec<_> = rows(&annosat(&[
            "compare",
            "--votes",
            v,
            "--a",
            a,
            "--b",
            b,
            "--n",
            "2,10",
            "--item-counts",
            "30,100,300",
        ]))
        .into_iter()
        .filter(|r| ["30", "100", "300"].contains(&r["items"].as_str()))
        .collect();
        let theirs = reference_json(
            "numpy_power.py",
            &["power", v, a, b, "--items", "30,100,300", "--n", "2,10"],
        );
        let mut sum = 0.0;
        for r in &ours {
            let m = r["metric"].as_str();
            let key = format!("{},{}", r["items"], r["votes"]);
            let t = &theirs[m][&key];
            let (p, q) = (f(r, "power"), t["power"].as_f64().unwrap());
            let se = ((p * (1.0 - p) + q * (1.0 - q)) / 1000.0).sqrt();
            let tol = if CONTINUOUS.contains(&m) {
                4.5 * se + 0.02
            } else {
                0.2
            };
            assert!((p - q).abs() <= tol, "ε={eps} {m} {key}: {p} vs numpy {q}");
            // The mean differences: each side's 1,000 evaluations, and annosat's pool (32 draws of
            // 400 items: its rows' spread is an evaluation's times √I).
            let (dm, dt) = (f(r, "diff"), t["diff"].as_f64().unwrap());
            let sd = (f(r, "diff_hi") - f(r, "diff_lo")) / 3.92;
            let items = f(r, "items");
            let se = sd * (2.0 / 1000.0 + items / (400.0 * 32.0)).sqrt();
            assert!(
                (dm - dt).abs() <= 4.5 * se + 1e-3 * dt.abs(),
                "ε={eps} {m} {key}: diff {dm} vs numpy {dt}"
            );
            sum += p;
        }
        for m in CONTINUOUS {
            for n in ["2", "10"] {
                let p: Vec<f64> = ours
                    .iter()
                    .filter(|r| r["metric"] == m && r["votes"] == n)
                    .map(|r| f(r, "power"))
                    .collect();
                assert!(
                    p.windows(2).all(|w| w[1] + 0.03 >= w[0]),
                    "{m} N={n}: {p:?}"
                );
            }
        }
        total.push(sum);
        println!("ε = {eps}: {} cells agree with numpy", ours.len());
    }
    assert!(
        total[1] > total[0],
        "power rises with ε towards the humans: {total:?}"
    );
    assert!(
        total[3] > total[2],
        "power rises with ε away from them: {total:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Two arms of the bundled ChaosNLI-SNLI export (100 votes per item): the grid, each metric's
/// sentences, and — over evaluations of up to 20,000 items (repeats of the file's 1,514) — the most
/// powerful split of 20,000 votes for total variation takes at least 5 votes per item and has at
/// least twice the power of 3 votes per item, while at one vote per item the evaluation mostly
/// finds the opposite of the file's difference.
#[test]
fn soft_against_hard_on_a_bundled_export() {
    let Some(votes) = votes_of("chaosnli_snli") else {
        eprintln!("skipped: no ChaosNLI-SNLI votes");
        return;
    };
    let export = repo_root().join("public/models/chaosnli_snli");
    let a = format!("{}:hard", export.display());
    let b = format!("{}:soft", export.display());
    let (csv, log) = annosat_logged(&[
        "compare",
        "--votes",
        votes.to_str().unwrap(),
        "--a",
        &a,
        "--b",
        &b,
        "--n",
        "1,2,3,5,7,10,15,20,30,50,100",
        "--item-counts",
        "50,100,200,500,1000,2000,5000,10000,20000",
    ]);
    let r = rows(&csv);
    let grid = [
        "50", "100", "200", "500", "1000", "2000", "5000", "10000", "20000",
    ];
    assert_eq!(
        r.iter()
            .filter(|x| grid.contains(&x["items"].as_str()))
            .count(),
        6 * 9 * 11
    );
    for m in [
        "accuracy",
        "KL",
        "total variation",
        "entropy correlation",
        "wins",
    ] {
        assert!(
            log.contains(&format!("observed: {m}: B − A =")),
            "{m}: {log}"
        );
        assert!(
            log.contains(&format!("split: {m}: most power per budget")),
            "{m}"
        );
    }
    let best = log
        .lines()
        .find(|l| l.starts_with("split: total variation"))
        .unwrap();
    let at = best.split("20,000 votes → ").nth(1).unwrap();
    let n: u32 = at
        .split(" × ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let best: f64 = at.split("(power ").nth(1).unwrap()[..4].parse().unwrap();
    assert!(n >= 5, "TV's best split of 20,000 votes: {at}");
    let three = r
        .iter()
        .find(|x| x["metric"] == "tv" && x["votes"] == "3" && x["budget"] == "20001")
        .or_else(|| {
            r.iter()
                .find(|x| x["metric"] == "tv" && x["votes"] == "3" && x["items"] == "6667")
        })
        .unwrap();
    assert!(
        best >= 2.0 * f(three, "power"),
        "{at} vs 3 votes: {three:?}"
    );
    let one = r
        .iter()
        .find(|x| x["metric"] == "tv" && x["votes"] == "1" && x["items"] == "5000")
        .unwrap();
    assert!(f(one, "wrong_sign") > 0.5, "{one:?}");
    assert!(
        log.contains("wrong way: total variation: with 1"),
        "the wrong-way finding is said: {log}"
    );
    assert!(log.contains("repeat its items"));
}

/// `--effect METRIC=ε`: the power to detect that improvement fills `effect` and `power_effect`
/// for that metric only, rising with ε; a metric that is not one, or a negative ε, is refused.
#[test]
fn an_effect_to_detect_is_asked_per_metric() {
    let dir = std::env::temp_dir().join(format!("annosat-effect-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    reference(
        "numpy_power.py",
        &["synth", d, "--items", "300", "--votes", "10", "--eps=0.1"],
    );
    let (v, a, b) = (dir.join("votes.csv"), dir.join("a.csv"), dir.join("b.csv"));
    let (v, a, b) = (
        v.to_str().unwrap(),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    );
    let run = |eps: &str| {
        rows(&annosat(&[
            "compare",
            "--votes",
            v,
            "--a",
            a,
            "--b",
            b,
            "--n",
            "5",
            "--item-counts",
            "50",
            "--effect",
            &format!("tv={eps}"),
            "--bootstrap",
            "400",
        ]))
    };
    let (small, large) = (run("0.002"), run("0.02"));
    for (r, eps) in [(&small, "0.002"), (&large, "0.02")] {
        for x in r.iter() {
            let asked = x["metric"] == "tv";
            assert_eq!(x["effect"] == eps, asked, "{x:?}");
            assert_eq!(!x["power_effect"].is_empty(), asked, "{x:?}");
        }
    }
    let tv = |r: &Vec<HashMap<String, String>>| {
        f(
            r.iter().find(|x| x["metric"] == "tv").unwrap(),
            "power_effect",
        )
    };
    assert!(
        tv(&large) > tv(&small) + 0.2,
        "{} vs {}",
        tv(&large),
        tv(&small)
    );
    for bad in ["tvv=0.1", "tv=-1"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_annosat"))
            .args(["compare", "--votes", v, "--a", a, "--b", b, "--effect", bad])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad} accepted");
    }
    std::fs::remove_dir_all(&dir).ok();
}
