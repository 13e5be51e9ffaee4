//! What `annosat curves` says beyond the within-data points: the extrapolated answers (with the
//! extrapolation's item bootstrap, the file's pilot part and the pilots that would narrow a wide
//! answer) and the JSON's `headline` block — kept apart from the command's flow in `curves_cmd`.

use annosat_core::answer::{self, Extrapolated, MetricAnswer};
use annosat_core::curves::{CurveConfig, Reference};
use annosat_core::extrapolate::{self, Components, ExtrapolateConfig, ReferenceVotes};
use annosat_core::pilot;
use serde_json::json;

/// The extrapolated answers for every metric (where some within-data point is bounded), with the
/// extrapolation's own item bootstrap, the file's pilot part and the pilots that would narrow a
/// wide answer (`pilot::beyond`); `None` (with a note) when no prior can be fitted. `file` is
/// the file as read, `table` as the curves read it.
pub(crate) fn headline_extrapolation(
    (file, table): (&annosat_core::VoteTable, &annosat_core::VoteTable),
    cfg: &CurveConfig,
    to: ReferenceVotes,
    answers: &[MetricAnswer],
) -> Option<(Vec<Extrapolated>, pilot::Beyond)> {
    let xcfg = ExtrapolateConfig {
        reference_votes: to,
        curves: CurveConfig {
            grid: Vec::new(),
            reference: Reference::Full,
            ..cfg.clone()
        },
        draws: 10.min(cfg.repeats.max(1)),
        components: Components::Auto { max: 4 },
    };
    let total = cfg.repeats as u64
        + cfg.bootstrap as u64 * extrapolate::bootstrap::REPEATS_PER_RESAMPLE as u64;
    let bar = crate::util::progress(total, "extrapolating");
    let r = extrapolate::extrapolate(table, &xcfg, &mut |d, _| bar.set_position(d as u64));
    bar.finish_and_clear();
    match r {
        Ok(ext) => {
            let refs = match to {
                ReferenceVotes::Votes(m) => format!("{m} votes per item"),
                ReferenceVotes::Truth => "the true distributions".into(),
            };
            eprintln!(
                "note: points bounded by the votes are extrapolated to {refs} (prior: {}; fit check total variation {:.3})",
                ext.fit.describe(table.classes()),
                ext.check.total_variation
            );
            let bar = crate::util::progress(1, "pilots");
            let beyond = pilot::beyond(file, table, &ext, answers, (to, cfg), &mut |d, n| {
                bar.set_length(n as u64);
                bar.set_position(d as u64)
            });
            bar.finish_and_clear();
            if let Some(p) = &beyond.dense {
                eprintln!(
                    "note: {} items have {} votes (a pilot): where their answer is narrower, it is the one shown",
                    p.items, p.votes
                );
            }
            let shown = pilot::shown(
                answers,
                (to, &ext.fit),
                (&ext.curves, ext.bands.as_ref(), ext.check.total_variation),
                &beyond,
            );
            Some((shown, beyond))
        }
        Err(e) => {
            eprintln!("note: the bounded points could not be extrapolated: {e}");
            None
        }
    }
}

/// `headline.<metric>`: the sentence and where its number comes from.
pub(crate) fn headline_json(
    answers: &[MetricAnswer],
    ext: Option<&[Extrapolated]>,
    beyond: Option<&pilot::Beyond>,
) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for a in answers {
        let e = ext
            .map(|e| &e[a.metric as usize])
            .filter(|_| a.bounded_by_votes);
        let shown = e.map_or(a, |e| &e.answer);
        out.insert(
            a.metric.name().into(),
            json!({
                "sentence": answer::headline(a, e),
                "within_sentence": answer::within_line(a, e),
                "extrapolated": e.is_some(),
                "reference_votes": e.map(|e| match e.reference {
                    ReferenceVotes::Votes(m) => json!(m),
                    ReferenceVotes::Truth => json!("inf"),
                }),
                "n": shown.point.n,
                "items": shown.point.items,
                "within": {"eps": a.eps, "n": shown.within.n, "items": shown.within.items},
                "fit_total_variation": e.map(|e| e.total_variation),
                // The identification margin joined into `items`, and how often such intervals
                // held the truth on sets left out of it (docs/intervals.md).
                "margin": e.and_then(|e| e.margin),
                // Read off the file's pilot part instead of the whole file.
                "from": e.and_then(|e| e.from),
                "pilot_sentence": e.zip(beyond).and_then(|(e, b)| pilot::pilot_line(e, &b.pilots)),
                "pilot": e.zip(beyond).and_then(|(e, b)| pilot::advice(e, &b.pilots)),
            }),
        );
    }
    serde_json::Value::Object(out)
}
