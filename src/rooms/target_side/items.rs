//! Per-item view at the current N: H(p_N) against H(p_full) for every item (one draw, the curves'
//! first repeat), and the items whose entropy moves most, with their text where the dataset has it.

use crate::chart::figure;
use crate::state::{ItemsView as View, St};
use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;

fn draw_scatter<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, v: &View) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let (n, points) = (v.n, &v.points);
    let e = |e: DrawingAreaErrorKind<_>| format!("{e}");
    root.fill(&WHITE).map_err(e)?;
    let top = points.iter().map(|p| p.0.max(p.1)).fold(0.1f64, f64::max) * 1.05;
    let mut chart = ChartBuilder::on(root)
        .caption(
            if points.len() < v.total {
                format!(
                    "entropy per item at N={n} ({} of {} items shown)",
                    points.len(),
                    v.total
                )
            } else {
                format!("entropy per item: N={n} vs all votes")
            },
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(38)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..top, 0f64..top)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("H(p_full) in nats")
        .y_desc("H(p_N) in nats")
        .x_label_formatter(&|v| format!("{v:.2}"))
        .y_label_formatter(&|v| format!("{v:.2}"))
        .light_line_style(RGBColor(236, 236, 236))
        .draw()
        .map_err(e)?;
    chart
        .draw_series(LineSeries::new(
            [(0.0, 0.0), (top, top)],
            RGBColor(150, 150, 150),
        ))
        .map_err(e)?;
    let blue = RGBColor(37, 99, 235).mix(0.35).filled();
    chart
        .draw_series(points.iter().map(|&p| Circle::new(p, 2, blue)))
        .map_err(e)?;
    root.present().map_err(e)
}

fn counts(c: &[u32]) -> String {
    c.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// An item id for the table: whole up to 24 characters, else its first 14 and last 8 around "…"
/// (URLs keep their host and their end).
fn short_id(id: &str) -> String {
    let n = id.chars().count();
    if n <= 24 {
        return id.to_string();
    }
    let head: String = id.chars().take(14).collect();
    let tail: String = id.chars().skip(n - 8).collect();
    format!("{head}…{tail}")
}

#[component]
pub fn ItemsView() -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let (Some(el), v) = (canvas.get(), st.items.get()) else {
            return;
        };
        match v {
            Some(v) => figure::paint(el, "scatter", |root| draw_scatter(root, &v)),
            None => figure::paint(el, "scatter", |root| {
                crate::chart::plot::empty(root, "no per-item draws yet")
            }),
        };
    });
    let movers = move || {
        let v = st.items.get()?;
        let (n, rows) = (v.n, &v.movers);
        let texts = st.texts.get();
        let classes = st
            .summary
            .with(|s| s.as_ref().map(|s| s.classes.join("/")).unwrap_or_default());
        // The text column only when some item has text; long ids (URLs) cut in the middle, whole
        // on hover, isolated so right-to-left characters cannot reorder the row.
        let has_text = texts.as_ref().is_some_and(|t| {
            rows.iter()
                .any(|r| t.get(&r.item).is_some_and(|x| !x.is_empty()))
        });
        let body = rows
            .iter()
            .map(|r| {
                let full = texts
                    .as_ref()
                    .and_then(|t| t.get(&r.item).cloned())
                    .unwrap_or_default();
                let text: String = if full.chars().count() > 180 {
                    full.chars().take(180).chain("…".chars()).collect()
                } else {
                    full.clone()
                };
                let id = short_id(&r.item);
                view! {
                    <tr>
                        <td class="id" title=r.item.clone()><bdi>{id}</bdi></td>
                        {has_text.then(|| view! { <td class="text" title=full.clone()><bdi>{text.clone()}</bdi></td> })}
                        <td>{counts(&r.counts_n)}</td>
                        <td>{counts(&r.reference)}</td>
                        <td>{format!("{:.3}", r.h_n)}</td>
                        <td>{format!("{:.3}", r.h_ref)}</td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <table class="movers" id="movers">
                <caption>{format!("Items whose entropy moves most at N={n} (counts as {})", crate::state::isolate(&classes))}</caption>
                <thead><tr><th>"item"</th>{has_text.then(|| view! { <th>"text"</th> })}<th>"N votes"</th><th>"all votes"</th><th>"H(p_N)"</th><th>"H(p_full)"</th></tr></thead>
                <tbody>{body}</tbody>
            </table>
        })
    };
    view! {
        <section class="items card">
            <h2>"Per item"</h2>
            <div class="items-grid">
                <canvas node_ref=canvas width="460" height="360" id="scatter"></canvas>
                <div class="table-wrap">{movers}</div>
            </div>
        </section>
    }
}
