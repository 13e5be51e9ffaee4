//! `annosat repro`: the reproduction table — published numbers (Kohli 2026, Singh et al. 2025,
//! Nie et al. 2020; from shared/papers/NUMBERS.md) beside the same quantities computed from this
//! project's exports with `annosat_core::models`. Writes `reproduction.json` for the app and prints
//! a Markdown table.

use crate::util::atomic_write;
use annosat_core::models::{
    ExportsIndex, Manifest, ModelMetric as M, Repro, ReproRow as Row, REPRO_SCHEMA,
};
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The exports folder (`annosat sweep --out`).
    #[arg(long, default_value = "public/models")]
    pub models: PathBuf,
}

const KOHLI: &str = "Kohli 2026";
const DEBERTA: &str = "DeBERTa-v3-base, fine-tuned";

/// One dataset's exports: the all-votes sweep and, if run, the held-out one.
struct Sweeps {
    all: Manifest,
    heldout: Option<Manifest>,
}

fn mean(m: &Manifest, arm: &str, n: u32, k: M) -> Option<f64> {
    m.curve(arm, k)
        .into_iter()
        .find(|p| p.n == n)
        .map(|p| p.mean)
}

/// Mean JS distance of the soft arm at `n` (JSD is in the exports but not among the plotted metrics).
fn mean_jsd(m: &Manifest, n: u32) -> Option<f64> {
    let v: Vec<f64> = m
        .runs
        .iter()
        .filter(|r| r.arm == "soft" && r.n == n)
        .map(|r| r.metrics.jsd)
        .collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn nmax(m: &Manifest) -> u32 {
    m.ns().last().copied().unwrap_or(1)
}

/// Label-smoothing arms and the best of them (by mean at N = max) for a metric.
fn best_ls(m: &Manifest, k: M) -> Option<String> {
    let n = nmax(m);
    m.arms()
        .into_iter()
        .filter(|a| a.starts_with("ls"))
        .filter_map(|a| mean(m, &a, n, k).map(|v| (a, v)))
        .max_by(|x, y| {
            let o = x.1.total_cmp(&y.1);
            if k.higher_is_better() {
                o
            } else {
                o.reverse()
            }
        })
        .map(|(a, _)| a)
}

fn pct(v: f64) -> String {
    format!("{:.0}%", v * 100.0)
}

fn range(v: &[f64], f: impl Fn(f64) -> String) -> String {
    if v.is_empty() {
        return "–".into();
    }
    let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if (hi - lo).abs() < 1e-12 {
        f(lo)
    } else {
        format!("{} to {}", f(lo), f(hi))
    }
}

fn share_of_mean(m: &Manifest, arm: &str, n: u32, k: M) -> Option<f64> {
    let (a, b, c) = (
        mean(m, arm, m.ns()[0], k)?,
        mean(m, arm, n, k)?,
        mean(m, arm, nmax(m), k)?,
    );
    ((c - a).abs() > 1e-12).then(|| (b - a) / (c - a))
}

fn f3(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "–".into())
}

pub fn run(a: Args) -> Result<()> {
    let index: ExportsIndex = serde_json::from_slice(
        &std::fs::read(a.models.join("index.json"))
            .with_context(|| format!("no index.json in {}", a.models.display()))?,
    )
    .with_context(|| {
        format!(
            "{} is not an exports index",
            a.models.join("index.json").display()
        )
    })?;
    let mut sets: BTreeMap<String, Sweeps> = BTreeMap::new();
    let entries = index.exports;
    // All-votes sweeps first, so each held-out one finds its dataset.
    for pass in ["all", "heldout"] {
        for e in &entries {
            if e.reference != pass {
                continue;
            }
            let ds = e.dataset.clone();
            let m = Manifest::parse(&std::fs::read_to_string(a.models.join(&e.path))?)
                .map_err(anyhow::Error::msg)?;
            if pass == "all" {
                sets.insert(
                    ds,
                    Sweeps {
                        all: m,
                        heldout: None,
                    },
                );
            } else if let Some(s) = sets.get_mut(&ds) {
                s.heldout = Some(m);
            }
        }
    }
    let datasets: Vec<String> = sets.keys().cloned().collect();
    let mut rows = Vec::new();
    let mut row = |source: &str,
                   claim: String,
                   published: &str,
                   model: &str,
                   note: String,
                   f: &dyn Fn(&Sweeps) -> String| {
        let ours = sets.iter().map(|(d, s)| (d.clone(), f(s))).collect();
        rows.push(Row {
            source: source.into(),
            claim,
            published: published.into(),
            published_model: model.into(),
            ours,
            note,
        });
    };
    row(KOHLI, "KL: share of the N=1→100 improvement captured at N=10 (soft)".into(), "87–95%", DEBERTA,
        "ours: on the mean curve over 15 runs, with its N=1 and N=100 values (per-run shares are noise when the improvement is this small)".into(),
        &|s| {
            let m = &s.all;
            match (share_of_mean(m, "soft", 10, M::Kl), mean(m, "soft", 1, M::Kl), mean(m, "soft", nmax(m), M::Kl)) {
                (Some(sh), Some(a), Some(b)) => format!("{} (KL {a:.3} → {b:.3})", pct(sh)),
                _ => "–".into(),
            }
        });
    row(
        KOHLI,
        "Entropy correlation at N=100, soft labels".into(),
        "r = 0.643",
        DEBERTA,
        String::new(),
        &|s| f3(mean(&s.all, "soft", nmax(&s.all), M::EntropyCorr)),
    );
    row(
        KOHLI,
        "Entropy correlation at N=100, label smoothing ε ∈ {0.05…0.5}".into(),
        "r = 0.45–0.49",
        DEBERTA,
        "ours: range of the five arms' means".into(),
        &|s| {
            let m = &s.all;
            let v: Vec<f64> = m
                .arms()
                .iter()
                .filter(|a| a.starts_with("ls"))
                .filter_map(|a| mean(m, a, nmax(m), M::EntropyCorr))
                .collect();
            range(&v, |x| format!("{x:.3}"))
        },
    );
    row(
        KOHLI,
        "Soft beats label smoothing on both KL and entropy correlation (seed-split combinations)"
            .into(),
        "9/9",
        DEBERTA,
        "ours: at N=100 against the best smoothing arm per metric".into(),
        &|s| {
            let m = &s.all;
            let n = nmax(m);
            let (Some(lk), Some(le)) = (best_ls(m, M::Kl), best_ls(m, M::EntropyCorr)) else {
                return "–".into();
            };
            let units = m.units();
            let wins = units
                .iter()
                .filter(|&&u| {
                    let kl = m
                        .value("soft", n, u, M::Kl)
                        .zip(m.value(&lk, n, u, M::Kl))
                        .is_some_and(|(a, b)| a < b);
                    let ec = m
                        .value("soft", n, u, M::EntropyCorr)
                        .zip(m.value(&le, n, u, M::EntropyCorr))
                        .is_some_and(|(a, b)| a > b);
                    kl && ec
                })
                .count();
            format!("{wins}/{}", units.len())
        },
    );
    let rel = |k: M| {
        move |s: &Sweeps| {
            let m = &s.all;
            let n = nmax(m);
            let Some(ls) = best_ls(m, k) else {
                return "–".to_string();
            };
            let mut v = Vec::new();
            for split in m.splits.iter().map(|x| x.seed) {
                let avg = |arm: &str| {
                    let xs: Vec<f64> = m
                        .units()
                        .into_iter()
                        .filter(|u| u.0 == split)
                        .filter_map(|u| m.value(arm, n, u, k))
                        .collect();
                    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
                };
                if let (Some(a), Some(b)) = (avg("soft"), avg(&ls)) {
                    v.push((a - b) / b.abs());
                }
            }
            format!("{} (vs {ls})", range(&v, |x| format!("{:+.0}%", x * 100.0)))
        }
    };
    row(
        KOHLI,
        "KL, soft relative to label smoothing (per split)".into(),
        "−37% to −53%",
        DEBERTA,
        String::new(),
        &rel(M::Kl),
    );
    row(
        KOHLI,
        "Entropy correlation, soft relative to label smoothing (per split)".into(),
        "+22% to +47%",
        DEBERTA,
        String::new(),
        &rel(M::EntropyCorr),
    );
    for (arm, label, published) in [
        ("hard", "hard", "0.033 / 0.160"),
        ("ls0.1", "label smoothing (ours: ε=0.1)", "0.012 / 0.161"),
        ("soft", "soft", "0.005 / 0.171"),
    ] {
        row(
            KOHLI,
            format!("Murphy REL / RES at N=100, {label}"),
            published,
            DEBERTA,
            String::new(),
            &move |s| {
                let m = &s.all;
                format!(
                    "{} / {}",
                    f3(mean(m, arm, nmax(m), M::Rel)),
                    f3(mean(m, arm, nmax(m), M::Res))
                )
            },
        );
    }
    for (k, name, published) in [
        (M::Kl, "KL", "0.171 vs 0.212"),
        (M::EntropyCorr, "entropy correlation", "0.577 vs 0.425"),
    ] {
        row(KOHLI, format!("Held-out annotators (train on 80, evaluate on 20): {name}, soft vs label smoothing"), published, DEBERTA,
            "ours: best smoothing arm by the metric; – where no held-out sweep was run".into(), &move |s| {
            let Some(m) = &s.heldout else { return "–".into() };
            let n = nmax(m);
            let ls = best_ls(m, k).unwrap_or_default();
            format!("{} vs {} ({ls})", f3(mean(m, "soft", n, k)), f3(mean(m, &ls, n, k)))
        });
    }
    row(
        KOHLI,
        "Share of the improvement captured at N=3 (soft): KL vs entropy correlation".into(),
        "86% vs 54%",
        "RoBERTa-large-mnli, fine-tuned",
        String::new(),
        &|s| {
            let f = |k| {
                share_of_mean(&s.all, "soft", 3, k)
                    .map(pct)
                    .unwrap_or_else(|| "–".into())
            };
            format!("{} vs {}", f(M::Kl), f(M::EntropyCorr))
        },
    );
    row(KOHLI, "Dirichlet (α = 1/K) at N=10: share of soft's N=10 → N=100 gap closed, KL / entropy correlation".into(), "99% / 87%", DEBERTA,
        String::new(), &|s| {
            let m = &s.all;
            let f = |k| {
                let (s10, d10, s100) = (mean(m, "soft", 10, k), mean(m, "dirichlet", 10, k), mean(m, "soft", nmax(m), k));
                match (s10, d10, s100) {
                    // Only meaningful when soft still improves from N=10 to N=100.
                    (Some(a), Some(b), Some(c)) if (if k.higher_is_better() { c - a } else { a - c }) > 1e-3 => pct((b - a) / (c - a)),
                    (Some(_), Some(_), Some(_)) => "no gap".into(),
                    _ => "–".into(),
                }
            };
            format!("{} / {}", f(M::Kl), f(M::EntropyCorr))
        });
    const SINGH: &str = "Singh et al. 2025";
    const EMB: &str = "text-embedding-3-large, frozen + MLP";
    row(
        SINGH,
        "KL at N=100, hard → soft".into(),
        "0.367 → 0.319 (−13.1%)",
        EMB,
        String::new(),
        &|s| {
            let m = &s.all;
            let (h, so) = (
                mean(m, "hard", nmax(m), M::Kl),
                mean(m, "soft", nmax(m), M::Kl),
            );
            match (h, so) {
                (Some(h), Some(so)) => format!("{h:.3} → {so:.3} ({:+.1}%)", (so - h) / h * 100.0),
                _ => "–".into(),
            }
        },
    );
    row(
        SINGH,
        "Entropy correlation at N=100, hard → soft".into(),
        "+119%",
        EMB,
        "ours as values: a relative gain from near zero says little".into(),
        &|s| {
            let m = &s.all;
            format!(
                "{} → {}",
                f3(mean(m, "hard", nmax(m), M::EntropyCorr)),
                f3(mean(m, "soft", nmax(m), M::EntropyCorr))
            )
        },
    );
    for (ds, published) in [
        ("chaosnli_snli", "0.2210 / 0.4937 / 0.7867"),
        ("chaosnli_mnli", "0.3112 / 0.8701 / 0.6354"),
        ("chaosnli_alphanli", "0.2128 / 1.3898 / 0.8368"),
    ] {
        row(
            "Nie et al. 2020",
            format!("{ds}: JSD / KL / accuracy (ours: soft at N=100)"),
            published,
            "RoBERTa-large, fine-tuned on SNLI+MNLI",
            "their numbers are on all items; ours on the test split".into(),
            &move |s| {
                let m = &s.all;
                if m.dataset != ds {
                    return String::new();
                }
                let n = nmax(m);
                format!(
                    "{} / {} / {}",
                    f3(mean_jsd(m, n)),
                    f3(mean(m, "soft", n, M::Kl)),
                    f3(mean(m, "soft", n, M::Accuracy))
                )
            },
        );
    }
    let encoder = sets
        .values()
        .next()
        .map(|s| s.all.encoder.clone())
        .unwrap_or_default();
    let repro = Repro {
        schema: REPRO_SCHEMA.into(),
        ours_model: format!("{encoder} (frozen sentence embeddings) + one MLP head per arm, trained by annosat sweep"),
        command: "annosat repro --models public/models".into(),
        datasets: datasets.clone(),
        rows,
    };
    atomic_write(
        &a.models.join("reproduction.json"),
        &serde_json::to_vec_pretty(&repro)?,
    )?;
    println!(
        "| source | claim | published | their model | {} |",
        datasets.join(" | ")
    );
    println!("|---|---|---|---|{}", "---|".repeat(datasets.len()));
    for r in &repro.rows {
        let ours: Vec<String> = datasets
            .iter()
            .map(|d| r.ours.get(d).cloned().unwrap_or_default())
            .collect();
        println!(
            "| {} | {} | {} | {} | {} |",
            r.source,
            r.claim,
            r.published,
            r.published_model,
            ours.join(" | ")
        );
    }
    Ok(())
}
