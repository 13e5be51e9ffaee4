//! Bringing your own votes: drag and drop or a file picker. The file is read in the tab and parsed
//! in the worker; nothing is sent anywhere.

use crate::state::St;
use annosat_app::limits;
use annosat_app::protocol::Format;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Hands a picked or dropped file to the workers, which stream it (the page never holds its
/// bytes) — unless it is past the app's size limit, which is said before anything is read.
fn take_file(st: St, file: web_sys::File) {
    if let Err(e) = limits::check_file_size(file.size()) {
        st.upload.error.set(Some(e));
        return;
    }
    st.upload.reading.set(Some(file.name()));
    st.upload.error.set(None);
    st.load(Format::Csv, file.into(), true);
}

#[component]
pub fn Upload() -> impl IntoView {
    let st = expect_context::<St>();
    let (over, set_over) = signal(false);
    let on_pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(f) = input.files().and_then(|l| l.get(0)) {
            take_file(st, f);
        }
        input.set_value("");
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_over.set(false);
        if let Some(f) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|l| l.get(0))
        {
            take_file(st, f);
        }
    };
    view! {
        <div
            class="dropzone"
            class:over=over
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                set_over.set(true);
            }
            on:dragleave=move |_| set_over.set(false)
            on:drop=on_drop
        >
            <label for="upload">"Your own votes: drop a CSV here or "</label>
            <input id="upload" type="file" accept=".csv,.tsv,.txt,text/csv" on:change=on_pick />
            <p class="hint">
                "Wide " <code>"item_id,<class_1>,…"</code> " with counts, or long "
                <code>"item_id,annotator_id,label"</code> "; comma, semicolon or tab. "
                <a href="sample_votes.csv" download="sample_votes.csv" id="sample">"Download a sample"</a>
                ". The file stays in this tab. Up to " {format!("{:.0}", limits::MAX_FILE_BYTES / 1e6)} " MB and "
                {annosat_core::import::thousands(limits::MAX_ITEMS)} " items; larger files: the annosat CLI."
            </p>
            {move || st.upload.error.get().map(|e| view! { <p class="error" id="upload-error" role="alert"><bdi>{e}</bdi></p> })}
        </div>
    }
}

/// The element that fired `ev`, as `T`.
fn event_target<T: JsCast>(ev: &leptos::ev::Event) -> T {
    ev.target().expect("event has a target").unchecked_into()
}
