//! The Sources room: another vote source on the current dataset's items — an LLM judge panel, an
//! expert's gold label, a second crowd — measured in human annotators per metric
//! (annosat_core::worth, the same function as `annosat worth`). Pick a source the dataset ships
//! with or drop your own files (a vote CSV, a gold file, judge `.jsonl` files or their folder);
//! the measurement runs in the first curve worker with progress and Stop. Shown: a sentence per
//! metric, the human curve with the source's level crossing it at ν, the panel's curve ν(j) and
//! each annotator's ν when the source has annotator ids, and the CSV the CLI prints.

mod chart;
mod pick;
mod ranking;
mod result;
pub mod state;

use crate::room_jobs::{computed, status_line, JobStatus, Words};
use crate::state::St;
use leptos::prelude::*;
use pick::Picker;
use ranking::AnnotatorRanking;
use result::Result;
use state::Choice;

#[component]
pub fn SourcesRoom() -> impl IntoView {
    let st = expect_context::<St>();
    let src = st.sources;
    // Measure the chosen source once the data are loaded (and again after new data).
    Effect::new(move |_| {
        let ready = st.summary.with(|s| s.is_some());
        let choice = src.choice.get();
        if let (true, Some(choice)) = (ready, choice) {
            if src.result.with_untracked(|r| r.is_none())
                && src.job.status.get_untracked() == JobStatus::Idle
            {
                measure(st, choice);
            }
        }
    });
    // A source named by the URL, once the dataset's entry says which it ships.
    Effect::new(move |_| {
        let name = st.dataset.get();
        let Some(key) = src.wanted.get() else { return };
        if st.index.with(|i| i.is_empty()) {
            return;
        }
        if st
            .entry(&name)
            .is_some_and(|e| e.sources.iter().any(|s| s.key == key))
        {
            src.choice.set(Some(Choice::Bundled(key)));
        }
        src.wanted.set(None);
    });
    view! {
        <section class="card sources-intro">
            <h2>"What another source of votes is worth in annotators"</h2>
            <p>"An LLM judge panel, an expert or a second crowd labelled the same items. Each item's human votes are split into a reference R (half of them, by annotator when ids are known) and a pool; the human curve is how close N pool votes come to R, and the source is compared with the same R. It is "<em>"worth ν humans"</em>" for a metric where the human curve reaches the source's level — per metric, with a 95% interval over items and reference splits (and over the human annotators, where the votes say who gave them). "
            <code>"annosat worth --votes … --source …"</code>" prints the same numbers."</p>
        </section>
        <Picker />
        <Status />
        <Result />
        <AnnotatorRanking />
    }
}

/// Fetches (a bundled source) or takes (an upload) the files and sends the measurement.
fn measure(st: St, choice: Choice) {
    let src = st.sources;
    src.job.set(JobStatus::Preparing);
    leptos::task::spawn_local(async move {
        let got = match &choice {
            Choice::Uploaded(files) => Ok((files.to_vec(), upload_name(files))),
            Choice::Bundled(key) => {
                let entry = st.entry(&st.dataset.get_untracked());
                match entry.and_then(|e| e.sources.into_iter().find(|s| &s.key == key)) {
                    // New data without that source: nothing is chosen any more.
                    None => {
                        src.choice.set(None);
                        src.job.set(JobStatus::Idle);
                        return;
                    }
                    Some(s) => crate::data::fetch_bytes(&format!("data/{}", s.file))
                        .await
                        .map(|b| {
                            (
                                vec![(
                                    format!("{key}.csv"),
                                    String::from_utf8_lossy(&b).into_owned(),
                                )],
                                s.title,
                            )
                        }),
                }
            }
        };
        // The choice may have changed while the files were read.
        if src.choice.get_untracked().as_ref() != Some(&choice) {
            return;
        }
        match got {
            Ok(got) => src.start(
                got,
                st.seed.get_untracked(),
                st.dataset.get_untracked(),
                st.scale(),
            ),
            Err(e) => src.failed(e),
        }
    });
}

fn upload_name(files: &[(String, String)]) -> String {
    match files {
        [(one, _)] => one.clone(),
        many => format!("{} judge files", many.len()),
    }
}

#[component]
fn Status() -> impl IntoView {
    let st = expect_context::<St>();
    let src = st.sources;
    let words = Words {
        id: "sources-status",
        doing: "measuring the source against the human curve…",
        preparing: "Reading the source…",
        stopped: "Stopped; nothing new was measured.",
        failed: "The source was not measured: ",
    };
    move || {
        let idle = src
            .shown(&st.dataset.get())
            .map(|r| computed(r.ms, &state::settings(&r.config)));
        status_line(src.job.status.get(), &words, idle, move || {
            st.stop_job(src.job)
        })
    }
}
