//! The reproduction room: published numbers beside this project's, from `models/reproduction.json`
//! (written by `annosat repro` from the exports; nothing here is typed into the page).

use leptos::prelude::*;

use annosat_core::models::Repro;

#[component]
pub fn ReproRoom() -> impl IntoView {
    let data = LocalResource::new(|| async {
        let b = crate::data::fetch_bytes("models/reproduction.json").await?;
        serde_json::from_slice::<Repro>(&b).map_err(|e| format!("models/reproduction.json: {e}"))
    });
    let body = move || match data.get() {
        None => view! { <p class="status">"loading…"</p> }.into_any(),
        Some(Err(e)) => view! { <p class="error">{e}</p> }.into_any(),
        Some(Ok(r)) => {
            let head = r
                .datasets
                .iter()
                .map(|d| view! { <th>{format!("ours: {d}")}</th> })
                .collect_view();
            let rows = r
                .rows
                .iter()
                .map(|row| {
                    let cells = r
                        .datasets
                        .iter()
                        .map(|d| view! { <td class="num">{row.ours.get(d).cloned().unwrap_or_else(|| "–".into())}</td> })
                        .collect_view();
                    view! {
                        <tr>
                            <td>{row.source.clone()}</td>
                            <td>{row.claim.clone()}{(!row.note.is_empty()).then(|| view! { <div class="hint">{row.note.clone()}</div> })}</td>
                            <td class="num">{row.published.clone()}</td>
                            <td>{row.published_model.clone()}</td>
                            {cells}
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="card">
                    <p>{format!("Ours: {}. Published: the papers' own models, named per row. Same metric definitions (KL(human ‖ model) in nats with 1e-15 clipping, entropy correlation as Pearson r, Brier with soft targets and its Murphy decomposition).", r.ours_model)}</p>
                    <p class="hint">"Regenerate: " <code>{r.command.clone()}</code></p>
                </div>
                <div class="table-wrap card">
                    <table class="movers repro" id="repro-table">
                        <thead><tr><th>"source"</th><th>"claim"</th><th>"published"</th><th>"their model"</th>{head}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
            .into_any()
        }
    };
    view! { <section class="repro-room" id="repro-room">{body}</section> }
}
