//! The Sources room's ranking of the loaded file's own annotators (`annosat annotators`): each
//! person in typical annotators against the others on the items they labelled, with intervals,
//! a Dawid–Skene accuracy and who is detectably below one. The numbers are the core's
//! (`worth::rank`), the CSV the CLI's.

use crate::room_jobs::{computed, status_line, JobStatus, Words};
use crate::state::St;
use annosat_core::worth::rank::{AnnotatorRow, Ranking, FLAG_METRIC, MIN_ITEMS};
use annosat_core::worth::{MetricWorth, WorthMetric};
use leptos::prelude::*;

/// The metrics the table shows (the CSV has all five).
const SHOWN: [WorthMetric; 3] = [
    WorthMetric::Jsd,
    WorthMetric::Kl,
    WorthMetric::MajorityAgreement,
];

/// "1.02 [0.87, 1.19]" with "<1" / ">8" for ends outside the human curve; "< 1" for a ν below
/// the curve's start, "undefined" where the measure has no value.
fn cell(m: &MetricWorth) -> String {
    let pool = m.human.last().map_or(0, |h| h.0);
    let end = |x: Option<f64>, low: bool| match x {
        Some(v) => format!("{v:.2}"),
        None if low => format!("<{}", m.floor),
        None => format!(">{pool}"),
    };
    // No end inside the curve: no interval (as `MetricWorth::words` says it).
    let iv = match (m.lo, m.hi) {
        (None, None) => String::new(),
        (lo, hi) => format!(" [{}, {}]", end(lo, true), end(hi, false)),
    };
    match (m.nu, m.bound) {
        (Some(nu), _) => format!("{nu:.2}{iv}"),
        (None, Some(annosat_core::worth::Bound::Below)) => format!("<{}{iv}", m.floor),
        (None, Some(annosat_core::worth::Bound::Above)) => format!(">{pool}{iv}"),
        (None, None) => "undefined".into(),
    }
}

fn row_view(r: &AnnotatorRow) -> impl IntoView {
    let cells = SHOWN
        .iter()
        .map(|&m| {
            let text = r
                .worth
                .iter()
                .find(|w| w.metric == m)
                .map(cell)
                .unwrap_or_default();
            view! { <td class="num" data-metric=m.key()>{text}</td> }
        })
        .collect_view();
    let flag = if r.below_one { "below one" } else { "" };
    view! {
        <tr data-id=r.id.clone() data-below=r.below_one.to_string()>
            <th scope="row"><bdi>{r.id.clone()}</bdi></th>
            <td class="num">{r.items}</td>
            {cells}
            <td class="num">{format!("{:.2}", r.ds_accuracy)}</td>
            <td class="flag">{flag}</td>
        </tr>
    }
}

/// One sentence on the ranking: who is below one, what was not ranked.
fn summary(r: &Ranking) -> String {
    let below = r.rows.iter().filter(|x| x.below_one).count();
    let over = if r.over_annotators {
        "items, reference splits and the other annotators"
    } else {
        "items and reference splits"
    };
    let mut s = format!(
        "{} annotators ranked, lowest first; {below} detectably below one typical annotator (their {} ν's interval wholly under 1). Intervals: 95% over {over}.",
        r.rows.len(),
        super::chart::label(FLAG_METRIC)
    );
    if r.unranked > 0 {
        s.push_str(&format!(
            " {} annotators with fewer than {MIN_ITEMS} items ({} votes) are not ranked.",
            r.unranked, r.unranked_votes
        ));
    }
    s
}

#[component]
pub(super) fn AnnotatorRanking() -> impl IntoView {
    let st = expect_context::<St>();
    let src = st.sources;
    let long = move || {
        st.summary
            .with(|s| s.as_ref().is_some_and(|s| s.annotators.is_some()))
    };
    let start = move |_| src.start_rank(st.seed.get_untracked(), st.dataset.get_untracked());
    let words = Words {
        id: "rank-status",
        doing: "ranking the annotators…",
        preparing: "",
        stopped: "Stopped; nothing new was ranked.",
        failed: "The annotators were not ranked: ",
    };
    let status = move || {
        let idle = src
            .ranking_shown(&st.dataset.get())
            .map(|r| computed(r.ms, &super::state::settings(&r.config)));
        status_line(src.rank.status.get(), &words, idle, move || {
            st.stop_job(src.rank)
        })
    };
    let table = move || {
        let r = src.ranking_shown(&st.dataset.get())?;
        let csv = r.ranking.csv();
        let file = format!("annosat-annotators-{}.csv", st.dataset.get_untracked());
        let download = move |_| crate::export::download_text(&csv, "text/csv", &file);
        let head = SHOWN
            .iter()
            .map(|&m| view! { <th>{format!("ν {}", super::chart::label(m))}</th> })
            .collect_view();
        let rows = r.ranking.rows.iter().map(row_view).collect_view();
        Some(view! {
            <p id="rank-summary">{summary(&r.ranking)}</p>
            <div class="table-wrap rank-wrap">
                <table class="sources-each" id="rank-table">
                    <thead><tr><th>"annotator"</th><th>"items"</th>{head}<th>"Dawid–Skene accuracy"</th><th></th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <button id="rank-csv" class="link" on:click=download>"Download as CSV (what annosat annotators prints)"</button>
        })
    };
    move || {
        long().then(|| {
            view! {
                <section class="card" id="rank">
                    <h3>"Your annotators: who pulls their weight"</h3>
                    <p>"Each annotator of this file in typical annotators: their votes measured against the other annotators' on the items they labelled (1 ≈ a typical annotator, below 1 a careless one), with a Dawid–Skene estimate of how often they give an item's true class. "
                    <code>"annosat annotators --votes …"</code>" prints the same numbers."</p>
                    <button id="rank-start" prop:disabled=move || matches!(src.rank.status.get(), JobStatus::Busy { .. }) on:click=start>"Rank the annotators"</button>
                    {status}
                    {table}
                </section>
            }
        })
    }
}
