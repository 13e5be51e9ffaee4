//! Sentences about the exports' numbers, generated from them (never typed): docs/models.md quotes
//! them and the app's Reproduction room shows them. Each states a comparison the numbers decide.

use super::stats::*;
use super::Sweeps;
use annosat_core::models::{Manifest, MetricVerdict, ModelMetric as M, ReproRow as Row, Verdict};
use std::collections::BTreeMap;

/// Which side of the hard–soft gap moves with N: at N=1 hard, label smoothing and soft train on the
/// same single vote, so a gap that opens with N is soft gaining, hard losing, or both.
fn gap_source(soft: &MetricVerdict, hard: &MetricVerdict) -> &'static str {
    use Verdict::*;
    match (soft.verdict, hard.verdict) {
        (Saturates, Worsens) => "soft gaining and hard losing",
        (Saturates, _) => "soft gaining",
        (_, Worsens) => "hard losing signal, not soft gaining it",
        _ => "neither side detectably",
    }
}

pub fn findings(
    sets: &BTreeMap<String, Sweeps>,
    controls: &BTreeMap<String, Sweeps>,
) -> Vec<String> {
    let mut out = Vec::new();
    // What frozen-feature heads can and cannot show here, counted from the verdicts.
    let count = |k: M, v: Verdict| {
        sets.values()
            .filter(|s| verdict_of(&s.all, "soft", k, None).is_some_and(|x| x.verdict == v))
            .count()
    };
    let widths: Vec<String> = sets
        .iter()
        .filter_map(|(d, s)| {
            let w = verdict_of(&s.all, "soft", M::EntropyCorr, None)?.half_width()?;
            Some(format!("{d} ±{w:.3}"))
        })
        .collect();
    if !sets.is_empty() {
        out.push(format!(
            "What frozen MiniLM features with an MLP head show here, soft targets from N=1 to N=100: KL improves detectably on {} of {} sets and shows no detectable change on {}; entropy correlation improves detectably on {} and shows no detectable change on {}. A change in entropy correlation smaller than about {} (half of each set's 95% interval) cannot be seen with these items, so where it shows no change, Kohli's later saturation of entropy correlation can be neither shown nor refuted here.",
            count(M::Kl, Verdict::Saturates),
            sets.len(),
            count(M::Kl, Verdict::NoDetectableChange),
            count(M::EntropyCorr, Verdict::Saturates),
            count(M::EntropyCorr, Verdict::NoDetectableChange),
            widths.join(", ")
        ));
    }
    // Heads against the baselines: counted only where the paired interval excludes 0.
    let mut vs = Vec::new();
    let (mut below_const, mut below_knn, mut total) = (0, 0, 0);
    for (d, s) in sets {
        let m = &s.all;
        let (Some(c), Some(k)) = (
            versus_of(m, "soft", "constant", M::Kl, None),
            versus_of(m, "soft", "knn", M::Kl, None),
        ) else {
            continue;
        };
        total += 1;
        below_const += (c.outcome == "better") as usize;
        below_knn += (k.outcome == "better") as usize;
        vs.push(format!(
            "{d}: soft − constant {}; soft − kNN {}",
            versus_cell(c),
            versus_cell(k)
        ));
    }
    if total > 0 {
        out.push(format!(
            "Against the baselines, KL at N=100 (paired over the same resampled test items, 95% intervals): the soft head is detectably below the constant predictor on {below_const} of {total} sets and below the kNN baseline on {below_knn} of {total} ({}).",
            vs.join("; ")
        ));
    }
    // Does N change anything? The soft and hard heads' N=1 → 100 change, and which side the gap
    // comes from.
    let mut moves = Vec::new();
    for (d, s) in sets {
        let m = &s.all;
        let (Some(so), Some(h)) = (
            verdict_of(m, "soft", M::Kl, None),
            verdict_of(m, "hard", M::Kl, None),
        ) else {
            continue;
        };
        moves.push(format!(
            "{d}: soft {}, hard {} — the gap is {}",
            verdict_cell(m, "soft", M::Kl, None),
            verdict_cell(m, "hard", M::Kl, None),
            gap_source(so, h)
        ));
    }
    if !moves.is_empty() {
        out.push(format!(
            "KL from N=1 to N=100 (at N=1 hard, label smoothing and soft all train on the one vote, so any gap between them opens with N): {}.",
            moves.join("; ")
        ));
    }
    // Entropy correlation: the soft head's change with N and what these items could detect.
    let mut ec = Vec::new();
    for (d, s) in sets {
        let m = &s.all;
        let mut cells = vec![(d.clone(), None)];
        cells.extend(
            sources(m)
                .into_iter()
                .map(|src| (format!("{d} within {src}"), Some(src))),
        );
        for (name, src) in cells {
            let Some(v) = verdict_of(m, "soft", M::EntropyCorr, src.as_deref()) else {
                continue;
            };
            ec.push(format!(
                "{name}: r {} at N=100, {}{}",
                level_cell(m, "soft", M::EntropyCorr, src.as_deref()),
                verdict_cell(m, "soft", M::EntropyCorr, src.as_deref()),
                v.half_width()
                    .map(|w| format!("; detectable change about ±{w:.3}"))
                    .unwrap_or_default()
            ));
        }
        if let Some(r) = m.source_only_entropy_corr {
            ec.push(format!(
                "{d}: a predictor that knows only each item's source reaches r = {r:.3} over the pooled items, so a pooled r is read within source"
            ));
        }
    }
    if !ec.is_empty() {
        out.push(format!(
            "Entropy correlation of the soft head (95% intervals over test items and splits; Kohli's fine-tuned DeBERTa: 0.643 at N=100): {}.",
            ec.join("; ")
        ));
    }
    // Vote delivery against soft targets.
    let mut deliv = Vec::new();
    for (d, s) in sets {
        let m = &s.all;
        let n = nmax(m);
        if let (Some(a), Some(b), Some(c)) = (
            mean(m, "sls", n, M::Kl),
            mean(m, "multipass", n, M::Kl),
            mean(m, "soft", n, M::Kl),
        ) {
            deliv.push(format!("{d} {a:.3} / {b:.3} vs {c:.3}"));
        }
    }
    if !deliv.is_empty() {
        out.push(format!(
            "KL at N=100 when the N votes are delivered one share at a time (sls / multipass) against soft targets (means over runs; no paired test between these arms): {}.",
            deliv.join("; ")
        ));
    }
    // The synthetic control: does KL saturate before entropy correlation, judged by the verdicts.
    let (mut syn, mut shown, mut not_shown) = (Vec::new(), Vec::new(), Vec::new());
    for ((d, s), arm) in controls
        .iter()
        .flat_map(|c| ["soft", "knn"].into_iter().map(move |a| (c, a)))
    {
        let m = &s.all;
        let (kl, ec) = (
            verdict_of(m, arm, M::Kl, None),
            verdict_of(m, arm, M::EntropyCorr, None),
        );
        let apart = match (kl, ec) {
            (Some(a), Some(b)) if a.has_point() && b.has_point() => {
                match (a.n90, b.n90, a.n90_hi, b.n90_lo) {
                    (Some(x), Some(y), Some(xh), Some(yl)) if xh < yl => {
                        Some(Ok(format!("N={x} vs N={y}")))
                    }
                    (Some(x), Some(y), _, _) => Some(Err(format!(
                        "N={x} vs N={y}, intervals overlap: order not shown"
                    ))),
                    _ => None,
                }
            }
            _ => None,
        };
        let order = match &apart {
            Some(Ok(t)) => {
                shown.push(format!("{arm} on {d} ({t})"));
                format!("KL first: {t}, intervals apart")
            }
            Some(Err(t)) => {
                not_shown.push(format!("{arm} on {d}"));
                t.clone()
            }
            None => {
                not_shown.push(format!("{arm} on {d}"));
                "not both detectable: order not shown".into()
            }
        };
        syn.push(format!(
            "{d}, {arm}: KL {}, entropy correlation {} ({order})",
            verdict_cell(m, arm, M::Kl, None),
            verdict_cell(m, arm, M::EntropyCorr, None)
        ));
    }
    if !syn.is_empty() {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        out.push(format!(
            "On synthetic data with known truth (scored against it; the known answers from numpy are in docs/verdicts.md), KL's 90% point comes before entropy correlation's with intervals apart for {}; it is not shown for {}.",
            list(&shown),
            list(&not_shown)
        ));
        out.push(format!(
            "The same controls in detail, the soft head's and the kNN baseline's N=1 → N=100 change: {}.",
            syn.join("; ")
        ));
    }
    out
}

/// The synthetic control's table: one column per feature-noise level.
pub fn control_rows(controls: &BTreeMap<String, Sweeps>) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut row = |claim: &str, f: &dyn Fn(&Manifest) -> String| {
        rows.push(Row {
            source: "synthetic control".into(),
            claim: claim.into(),
            published: "–".into(),
            published_model: "–".into(),
            ours: controls
                .iter()
                .map(|(d, s)| (d.clone(), f(&s.all)))
                .collect(),
            note: String::new(),
        });
    };
    row(
        "KL, soft / hard: does N change it (90% point where it does)",
        &|m| {
            format!(
                "{} / {}",
                verdict_cell(m, "soft", M::Kl, None),
                verdict_cell(m, "hard", M::Kl, None)
            )
        },
    );
    row("Entropy correlation, soft / hard: the same", &|m| {
        format!(
            "{} / {}",
            verdict_cell(m, "soft", M::EntropyCorr, None),
            verdict_cell(m, "hard", M::EntropyCorr, None)
        )
    });
    row(
        "KL (soft) at N=1 → 10 → 100; constant predictor",
        &|m| {
            format!(
                "{} → {} → {}; {}",
                f3(mean(m, "soft", 1, M::Kl)),
                f3(mean(m, "soft", 10, M::Kl)),
                f3(mean(m, "soft", nmax(m), M::Kl)),
                f3(mean(m, "constant", nmax(m), M::Kl))
            )
        },
    );
    row("Entropy correlation (soft) at N=1 → 10 → 100", &|m| {
        format!(
            "{} → {} → {}",
            f3(mean(m, "soft", 1, M::EntropyCorr)),
            f3(mean(m, "soft", 10, M::EntropyCorr)),
            level_cell(m, "soft", M::EntropyCorr, None)
        )
    });
    row(
        "kNN: KL / entropy correlation — does N change them",
        &|m| {
            format!(
                "{} / {}",
                verdict_cell(m, "knn", M::Kl, None),
                verdict_cell(m, "knn", M::EntropyCorr, None)
            )
        },
    );
    row("kNN at N=100: KL / entropy correlation", &|m| {
        format!(
            "{} / {}",
            f3(mean(m, "knn", nmax(m), M::Kl)),
            f3(mean(m, "knn", nmax(m), M::EntropyCorr))
        )
    });
    rows
}
