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
            let table = |datasets: &[String],
                         rows: &[annosat_core::models::ReproRow],
                         id: &'static str| {
                let body = rows
                    .iter()
                    .map(|row| {
                        // One line per dataset in one column: the values carry intervals and
                        // verdicts, too long for a column each at 1280 px.
                        let ours = datasets
                            .iter()
                            .map(|d| {
                                let v = row.ours.get(d).cloned().unwrap_or_else(|| "–".into());
                                view! { <div class="ours-line" data-dataset=d.clone()><span class="ds">{d.clone()}</span>" "<span class="num">{v}</span></div> }
                            })
                            .collect_view();
                        view! {
                            <tr>
                                <td>{row.source.clone()}</td>
                                <td>{row.claim.clone()}{(!row.note.is_empty()).then(|| view! { <div class="hint">{row.note.clone()}</div> })}</td>
                                <td class="num">{row.published.clone()}{(!row.published_model.is_empty() && row.published_model != "–").then(|| view! { <div class="hint">{row.published_model.clone()}</div> })}</td>
                                <td class="ours">{ours}</td>
                            </tr>
                        }
                    })
                    .collect_view();
                view! {
                    <div class="table-wrap card">
                        <table class="movers repro" id=id>
                            <thead><tr><th>"source"</th><th>"claim"</th><th>"published (their model)"</th><th>"ours, per dataset"</th></tr></thead>
                            <tbody>{body}</tbody>
                        </table>
                    </div>
                }
            };
            let findings = r
                .findings
                .iter()
                .map(|f| view! { <li>{f.clone()}</li> })
                .collect_view();
            let main = table(&r.datasets, &r.rows, "repro-table");
            let controls = (!r.controls.is_empty()).then(|| view! {
                <h2>"Synthetic controls (known truth)"</h2>
                <p class="hint">"Generated data, not human labels, each scored against its true distributions. Linear features carry the truth plus noise, so a head pools similar items; twins share a truth and their features are a random code per pair, so a head can only learn an item through its twin's votes. Each verdict says whether N changes the metric at all before a 90% point is given."</p>
                <ul class="notes" id="control-notes">{r.control_notes.iter().map(|(d, what)| view! { <li><b>{d.clone()}</b>": "{what.clone()}</li> }).collect_view()}</ul>
                {table(&r.control_datasets, &r.controls, "controls-table")}
            });
            view! {
                <div class="card" id="findings">
                    <h2>"What the models show"</h2>
                    <ul>{findings}</ul>
                </div>
                <div class="card">
                    <p>{format!("Ours: {}. Published: the papers' own models, named per row. Same metric definitions (KL(human ‖ model) in nats with 1e-15 clipping, entropy correlation as Pearson r, Brier with soft targets and its Murphy decomposition).", r.ours_model)}</p>
                    <p class="hint">"Regenerate: " <code>{r.command.clone()}</code></p>
                </div>
                {main}
                {controls}
            }
            .into_any()
        }
    };
    view! { <section class="repro-room" id="repro-room">{body}</section> }
}
