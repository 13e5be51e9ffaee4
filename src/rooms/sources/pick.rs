//! The Sources room's source picker: the sources the dataset ships, the user's files (picked,
//! dropped, or a folder of judge files; read in the page, nothing leaves the tab), and the
//! measurement's settings.

use super::state::Choice;
use crate::room_jobs::JobStatus;
use crate::state::St;
use annosat_app::limits;
use leptos::html;
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The source's files as (name, text), read in the page.
async fn read_files(files: Vec<web_sys::File>) -> Result<Vec<(String, String)>, String> {
    let total: f64 = files.iter().map(|f| f.size()).sum();
    limits::check_file_size(total)?;
    let mut out = Vec::new();
    for f in files {
        let name = f.name();
        let text = wasm_bindgen_futures::JsFuture::from(f.text())
            .await
            .map_err(|e| format!("cannot read {name}: {e:?}"))?;
        out.push((name, text.as_string().unwrap_or_default()));
    }
    Ok(out)
}

/// Takes picked or dropped files as the source (read in the page; nothing leaves the tab). From a
/// folder only the judge files count, as `annosat worth --source FOLDER` reads it.
fn take_files(st: St, list: Option<web_sys::FileList>, folder: bool) {
    let Some(list) = list else { return };
    let mut files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    let src = st.sources;
    if folder {
        files.retain(|f| annosat_core::import::source::is_judge_file(&f.name()));
        if files.is_empty() {
            src.failed("the folder holds no .jsonl judge files".into());
            return;
        }
    }
    if files.is_empty() {
        return;
    }
    src.job.set(JobStatus::Preparing);
    leptos::task::spawn_local(async move {
        match read_files(files).await {
            Ok(files) => {
                src.result.set(None);
                src.job.set(JobStatus::Idle);
                src.choice.set(Some(Choice::Uploaded(Arc::new(files))));
            }
            Err(e) => src.failed(e),
        }
    });
}

#[component]
pub(super) fn Picker() -> impl IntoView {
    let st = expect_context::<St>();
    let src = st.sources;
    let shipped = move || {
        st.index.track();
        st.entry(&st.dataset.get())
            .map(|e| e.sources)
            .unwrap_or_default()
    };
    let pick = move |key: String| {
        src.result.set(None);
        src.job.set(JobStatus::Idle);
        src.choice.set(Some(Choice::Bundled(key)));
    };
    let on_files = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = ev.target().expect("target").unchecked_into();
        take_files(st, input.files(), input.id() == "source-folder");
        input.set_value("");
    };
    let (over, set_over) = signal(false);
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_over.set(false);
        take_files(st, ev.data_transfer().and_then(|d| d.files()), false);
    };
    // The result shown stays until the new one replaces it (a Stop keeps it).
    let again = move |_| {
        src.job.set(JobStatus::Idle);
        if let Some(c) = src.choice.get_untracked() {
            super::measure(st, c);
        }
    };
    let busy = move || {
        matches!(
            src.job.status.get(),
            JobStatus::Busy { .. } | JobStatus::Preparing
        )
    };
    // A folder picker (Chromium, Firefox, Safari): the judge files of a panel in one go.
    let folder = NodeRef::<html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = folder.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
    view! {
        <section class="card sources-pick">
            <div class="row" id="sources-shipped">
                {move || {
                    let list = shipped();
                    if list.is_empty() {
                        return view! { <p class="hint" id="sources-none">"This dataset ships no second source; drop your own below."</p> }.into_any();
                    }
                    list.into_iter().map(|s| {
                        let key = s.key.clone();
                        let k2 = s.key.clone();
                        let chosen = move || src.choice.get() == Some(Choice::Bundled(k2.clone()));
                        view! {
                            <label class="source-choice">
                                <input type="radio" name="source" id=format!("source-{}", s.key) prop:checked=chosen
                                    on:change=move |_| pick(key.clone()) />
                                " " {s.title}
                            </label>
                        }
                    }).collect_view().into_any()
                }}
            </div>
            <div class="dropzone" class:over=over id="sources-drop"
                on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); set_over.set(true); }
                on:dragleave=move |_| set_over.set(false)
                on:drop=on_drop>
                <label for="source-files">"Your source: drop files here, or pick "</label>
                <input id="source-files" type="file" multiple accept=".csv,.tsv,.txt,.jsonl" on:change=on_files />
                <label for="source-folder">" or a folder of judge files "</label>
                <input id="source-folder" type="file" node_ref=folder on:change=on_files />
                <p class="hint">"A vote file in the formats the page reads (same item ids and classes; e/n/c and 1/2 are read as the NLI classes), a "
                    <code>"item_id,gold"</code>" file, or one "<code>"<judge>.jsonl"</code>" per judge with "<code>"uid"</code>", "<code>"label"</code>", "<code>"parse_fail"</code>". The files stay in this tab."</p>
            </div>
            <div class="row">
                <label>"Reference splits "
                    <input type="number" id="sources-splits" min="1" max="20" prop:value=move || src.splits.get()
                        on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u32>() { src.splits.set(v.clamp(1, 20)) } } />
                </label>
                <label>"Item resamples per split "
                    <input type="number" id="sources-bootstrap" min="0" max="2000" prop:value=move || src.bootstrap.get()
                        on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u32>() { src.bootstrap.set(v.min(2000)) } } />
                </label>
                <button id="sources-run" on:click=again
                    prop:disabled=move || busy() || src.choice.get().is_none() || st.summary.get().is_none()>"Measure again"</button>
            </div>
        </section>
    }
}
