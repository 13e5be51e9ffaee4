//! The Target room's answer card: per metric, the N the data say you need with its 95% interval
//! over items — or, where the data's own point is bounded by the votes (forced by how many votes
//! the items have), the extrapolated answer in one sentence ("computing the answer beyond your
//! votes…" until it comes), with the fit check as a diagnostic and one line saying the
//! within-data point is bounded — and the N within an absolute tolerance ε. The sentences are the core's (`annosat_core::answer`), as `annosat curves` prints
//! them. The extrapolation runs by itself in the first curve worker (`St::extrapolate_headline`),
//! with progress and Stop here; its result is kept apart from the Plan room's, which serves the
//! headline too when it asked for the same.

use crate::room_jobs::{busy_line, JobStatus};
use crate::state::St;
use annosat_core::answer::{headline, pending_headline, short, verdict, within_line, Extrapolated};
use annosat_core::curves::Metric;
use leptos::prelude::*;

#[component]
pub fn AnswerCard() -> impl IntoView {
    let st = expect_context::<St>();
    // A new x can make a metric bounded: its extrapolation then starts as after new curves.
    Effect::new(move |_| {
        st.x.track();
        st.extrapolate_headline(false);
    });
    move || {
        let answers = st.answers();
        if answers.is_empty() {
            return None;
        }
        let to = st.target.headline_to.get();
        let (ext, pilots): (Option<Vec<Extrapolated>>, Vec<annosat_core::pilot::Part>) =
            match st.extrapolated() {
                Some((r, e)) => (
                    Some(e),
                    r.beyond
                        .as_ref()
                        .map(|b| b.pilots.clone())
                        .unwrap_or_default(),
                ),
                None => (None, Vec::new()),
            };
        let e_of = |m: Metric| ext.as_ref().map(|e| &e[m as usize]);
        let a_of = |m: Metric| &answers[m as usize];
        // While the extrapolation a bounded metric needs is on its way, say so instead of
        // showing a sentence that will change.
        st.plan.job.status.track();
        let coming = ext.is_none() && st.plan.asked_for(to, st.seed.get());
        let say = |m: Metric| {
            let a = a_of(m);
            if coming && a.bounded_by_votes && !a.partial_grid {
                pending_headline(a)
            } else {
                headline(a, e_of(m))
            }
        };
        // Under a wide answer, the pilot that would narrow it (`pilot::pilot_line`, as the CLI).
        let pilot = |m: Metric| {
            e_of(m)
                .filter(|_| a_of(m).bounded_by_votes)
                .and_then(|e| annosat_core::pilot::pilot_line(e, &pilots))
        };
        let sentence = format!("{} {}", say(Metric::Kl), say(Metric::EntropyCorr));
        let pilot_text = [Metric::Kl, Metric::EntropyCorr]
            .iter()
            .filter_map(|&m| {
                pilot(m).map(|p| {
                    format!(
                        "{}: {}",
                        annosat_core::answer::label(m),
                        p.replacen("A pilot", "a pilot", 1)
                    )
                })
            })
            .collect::<Vec<_>>()
            .join(" ");
        let rows = answers
            .iter()
            .map(|a| {
                let e = e_of(a.metric);
                let shown = e.filter(|_| a.bounded_by_votes).map_or(a, |e| &e.answer);
                view! {
                    <li data-metric=a.metric.name() data-bounded=a.bounded_by_votes.to_string()
                        data-extrapolated=(a.bounded_by_votes && e.is_some()).to_string()
                        data-n=shown.point.n.map(|n| n.to_string()).unwrap_or_default()
                        data-items-lo=shown.point.items.and_then(|i| i.lo).map(|n| n.to_string()).unwrap_or_default()
                        data-items-hi=shown.point.items.and_then(|i| i.hi).map(|n| n.to_string()).unwrap_or_default()
                        data-pilot=pilot(a.metric).unwrap_or_default()>
                        {short(a, e)}
                    </li>
                }
            })
            .collect_view();
        let within = answers
            .iter()
            .map(|a| {
                let m = a.metric;
                let set = move |ev: leptos::ev::Event| {
                    if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                        if v.is_finite() {
                            st.target.eps.update(|e| e[m as usize] = v);
                        }
                    }
                };
                view! {
                    <li data-metric=m.name()>
                        <label>"ε " <input type="number" step="0.01" class="eps" data-metric=m.name()
                            prop:value=a.eps.to_string() on:change=set /></label>
                        " " {within_line(a, e_of(m))}
                    </li>
                }
            })
            .collect_view();
        let votes = answers[0].votes;
        let bounded = answers.iter().any(|a| a.bounded_by_votes);
        let cannot = answers[0].cannot_extrapolate();
        let fit = st.headline_result().map(|r| {
            let tv = r.check.total_variation;
            format!(
                "Fit check (a diagnostic: it compares shares of agreement, which most priors reproduce): total variation {tv:.3}, {}.",
                verdict(tv)
            )
        });
        let bounded_block = bounded.then(|| {
            let choose = move |ev: leptos::ev::Event| {
                if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                    st.target.headline_to.set(v);
                    st.extrapolate_headline(true);
                }
            };
            view! {
                <p class="note" id="bounded-line">
                    {format!("Against the items' own {votes} votes every curve ends at N = {votes}, so a point past the first fifth of them is forced by the vote count: those metrics are marked bounded by your votes, and their answer is extrapolated ")}
                    <select id="headline-to" class="inline" on:change=choose aria-label="what the headline extrapolates to">
                        <option value="100" selected=move || st.target.headline_to.get() == 100>"to 100 votes per item"</option>
                        <option value="0" selected=move || st.target.headline_to.get() == 0>"to the items' true distributions"</option>
                    </select>
                    " (a prior fitted to your items; its interval holds which items were drawn, the prior refitted to them, and what your votes cannot pin down, as measured on sets with known answers). The within-data curves stay drawn below."
                    {fit.clone().map(|f| view! { <span id="headline-fit">" "{f}</span> })}
                </p>
                {match cannot.clone() {
                    Some(why) => view! { <p class="status" id="headline-status" data-state="cannot">{format!("Nothing is extrapolated: {why}.")}</p> }.into_any(),
                    None => view! { <ExtrapolationStatus has=ext.is_some() /> }.into_any(),
                }}
            }
        });
        let bands = st.bands.get();
        let spread = st.spread.get();
        let annotators_busy = matches!(st.status.get(), crate::state::Status::Busy { ref stage, .. } if stage == "annotators");
        let note = match bands.as_deref() {
            Some(b) => format!(
                "{} ({} resamples{}). The panels' band shows the item interval or, with the box unticked, the spread over repeats: how much one collection of N annotators varies for these very items.",
                match (&spread, annotators_busy) {
                    (Some(s), _) => format!("95% interval over items and annotators: where the point would fall for another set of items and other annotators from the same populations — the item bootstrap widened by the annotators' share of the variance, from leaving out {} groups of annotators in turn (as annosat curves does for a file that says who voted)", s.groups),
                    (None, true) => "95% interval over items, for now: the annotators' share is being computed (leaving out groups of annotators in turn)".into(),
                    (None, false) => "95% interval over items: where the point would fall for another set of items from the same population".into(),
                },
                b.resamples,
                if b.blocks { format!(" of {} random blocks of items", b.units) } else { String::new() }
            ),
            None if matches!(st.status.get(), crate::state::Status::Busy { ref stage, .. } if stage == "intervals") => {
                "The item intervals are being computed (resampling the items); the points above are the mean curves'.".into()
            }
            None => "No item intervals for these curves.".into(),
        };
        Some(view! {
            <section class="card summary">
                <p class="sentence" id="sentence">{sentence}</p>
                {(!pilot_text.is_empty()).then(|| view! { <p class="note" id="headline-pilot">{pilot_text}</p> })}
                {bounded_block}
                <ul id="saturation">{rows}</ul>
                <p class="subhead">"Within an absolute tolerance"</p>
                <ul id="within">{within}</ul>
                <p class="note" id="intervals-note">{note}</p>
            </section>
        })
    }
}

/// The headline extrapolation's progress with Stop, or a button when it is not there.
#[component]
fn ExtrapolationStatus(has: bool) -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        let status = st.plan.job.status.get();
        let (to, seed) = (st.target.headline_to.get(), st.seed.get());
        if has {
            return None;
        }
        if st.plan.asked_for(to, seed) {
            let JobStatus::Busy { done, since } = status else {
                return None;
            };
            let doing = "Computing the answer beyond your votes…";
            return Some(busy_line(
                "headline-status",
                doing,
                done,
                since,
                move || st.stop_job(st.plan.job),
            ));
        }
        let why = match status {
            JobStatus::Failed(e) => format!("The extrapolation did not run: {e} "),
            JobStatus::Stopped => "Stopped before the extrapolation finished. ".into(),
            JobStatus::Busy { .. } => "The Plan room's tool is running; ".into(),
            JobStatus::Idle | JobStatus::Preparing => String::new(),
        };
        Some(
            view! {
                <p class="status" id="headline-status" data-state="idle">{why}
                    <button class="link" id="headline-extrapolate" on:click=move |_| st.extrapolate_headline(true)>"Extrapolate"</button>
                </p>
            }
            .into_any(),
        )
    }
}
