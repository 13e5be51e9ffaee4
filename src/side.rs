//! The side panel every room shares: the controls (N, x%, held-out, seed, log x, export) and the
//! dataset card (picker, what the data is, synthetic settings, upload).

use crate::state::{St, SYNTHETIC, UPLOADED, X_RANGE};
use crate::upload::Upload;
use crate::{data, export};
use leptos::prelude::*;

#[component]
pub fn DataCard() -> impl IntoView {
    let st = expect_context::<St>();
    let on_pick = move |ev| {
        let name = event_target_value(&ev);
        if name == SYNTHETIC {
            st.dataset.set(name);
            data::open_synthetic(st);
        } else if name != UPLOADED {
            st.dataset.set(name.clone());
            data::open_bundled(st, name);
        }
    };
    let options = move || {
        let mut v: Vec<_> = st
            .index
            .get()
            .into_iter()
            .map(|e| {
                // Short enough for the side panel's width (the data card below has the rest).
                let label = format!(
                    "{} · {}×{}",
                    e.name,
                    annosat_core::import::thousands(e.summary.items),
                    e.summary.votes_median
                );
                let sel = e.name == st.dataset.get();
                let title = format!(
                    "{} items, {} votes per item (median)",
                    annosat_core::import::thousands(e.summary.items),
                    e.summary.votes_median
                );
                view! { <option value=e.name.clone() selected=sel title=title>{label}</option> }
            })
            .collect::<Vec<_>>();
        v.push(view! { <option value=SYNTHETIC.to_string() selected=st.dataset.get() == SYNTHETIC title="generated in the page from a known truth".to_string()>{"synthetic · generated, known truth".to_string()}</option> });
        if let Some(name) = st
            .upload
            .name
            .get()
            .filter(|_| st.dataset.get() == UPLOADED)
        {
            v.push(view! { <option value=UPLOADED.to_string() selected=true title="your file".to_string()>{format!("uploaded: {}", crate::state::isolate(&name))}</option> });
        }
        v
    };
    let about = move || {
        let s = st.summary.get()?;
        let entry = st.entry(&st.dataset.get());
        Some(view! {
            <dl class="stats" id="stats">
                <dt>"items"</dt><dd>{s.items}</dd>
                <dt>{if s.multilabel { "labels (multilabel)" } else { "classes" }}</dt><dd id="classes">{s.classes.iter().enumerate().map(|(i, c)| view! { {(i > 0).then_some(", ")}<bdi>{c.clone()}</bdi> }).collect_view()}</dd>
                <dt>{if s.multilabel { "annotators per item" } else { "votes per item" }}</dt><dd>{format!("{} / {} / {} (min / median / max)", s.votes_min, s.votes_median, s.votes_max)}</dd>
                <dt>{if s.multilabel { "mean label-set entropy" } else { "mean entropy" }}</dt><dd>{format!("{:.3} bits", s.mean_entropy_bits)}</dd>
                <dt>"annotators"</dt><dd>{match s.annotators {
                    Some(a) => format!("{a} known by id (held-out splits whole annotators)"),
                    None => "no ids (held-out splits each item's votes)".to_string(),
                }}</dd>
                <dt>"source"</dt><dd>{entry.as_ref().map(|e| e.source.clone()).unwrap_or_else(|| if st.dataset.get() == SYNTHETIC {
                    format!("generated in this tab — {}", st.synth.get().describe())
                } else {
                    "your file (stays in this tab)".into()
                })}</dd>
                <dt>"license"</dt>
                {
                    let license = entry.map(|e| e.license).unwrap_or_else(|| if st.dataset.get() == SYNTHETIC { "generated data, no license needed".into() } else { "yours".into() });
                    let short: String = if license.chars().count() > 110 { license.chars().take(110).chain("…".chars()).collect() } else { license.clone() };
                    view! { <dd title=license>{short}</dd> }
                }
            </dl>
        })
    };
    view! {
        <section class="card data">
            <label for="dataset">"Dataset"</label>
            <select id="dataset" on:change=on_pick>{options}</select>
            {move || (st.dataset.get() == SYNTHETIC).then(|| view! { <crate::synth_view::SynthControls /> })}
            {about}
            {move || st.notes.get().into_iter().map(|n| view! { <p class="note load-note">{n}</p> }).collect_view()}
            <Upload />
        </section>
    }
}

#[component]
pub fn Controls() -> impl IntoView {
    let st = expect_context::<St>();
    let max_n = move || {
        st.curves
            .with(|c| c.as_ref().and_then(|c| c.grid.last().copied()))
            .unwrap_or(1)
    };
    let set_n = move |v: String| {
        if let Ok(v) = v.trim().parse::<u32>() {
            st.set_n(v);
            st.request_items();
        }
    };
    let recompute = move || {
        if st.summary.get_untracked().is_some() {
            st.compute();
        }
    };
    let export_csv = move |_| {
        if let Some(c) = st.curves.get_untracked() {
            export::download_text(&c.to_csv(), "text/csv", &st.export_name("curves", "csv"));
        }
    };
    view! {
        <section class="card controls">
            <label for="n-slider">"Annotators per item, N = " <output id="n-value">{move || st.n.get()}</output></label>
            <div class="row">
                // The value also tracks max: the browser clamps a range input's value to its max, so
                // it must be set again once the curves (and the real max) arrive.
                <input id="n-slider" type="range" min="1" max=move || max_n().to_string() step="1"
                    prop:value=move || { max_n(); st.n.get().to_string() } on:input=move |ev| set_n(event_target_value(&ev)) />
                <input id="n-number" type="number" min="1" max=move || max_n().to_string()
                    prop:value=move || st.n.get().to_string() on:change=move |ev| set_n(event_target_value(&ev)) />
            </div>
            <label for="x-pct">"Saturation at "
                <input id="x-pct" type="number" min=X_RANGE.start().to_string() max=X_RANGE.end().to_string() prop:value=move || st.x.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u32>() { st.set_x(v) } } />
                "% of the N=1 → N=max improvement"
            </label>
            <label class="check"><input id="heldout" type="checkbox" prop:checked=move || st.heldout.get()
                on:change=move |ev| { st.heldout.set(event_target_checked(&ev)); recompute(); } />
                " Held-out annotators: compare with a disjoint 20% of annotators"</label>
            <label class="check"><input id="logx" type="checkbox" prop:checked=move || st.logx.get()
                on:change=move |ev| st.logx.set(event_target_checked(&ev)) />" Log-scale N axis"</label>
            <label for="seed">"Seed "
                <input id="seed" type="number" min="0" prop:value=move || st.seed.get().to_string()
                    on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u64>() { st.seed.set(v); recompute(); } } />
            </label>
            <button id="export-csv" on:click=export_csv>"Export curves (CSV)"</button>
        </section>
    }
}
