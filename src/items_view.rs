//! Per-item view at the current N: H(p_N) against H(p_full) for every item (one draw, the curves'
//! first repeat), and the items whose entropy moves most, with their text where the dataset has it.

use crate::state::{ItemsView as View, St};
use leptos::html;
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;

fn draw_scatter(el: web_sys::HtmlCanvasElement, v: &View) -> Result<(), String> {
    let (n, points) = (v.n, &v.points);
    let backend = CanvasBackend::with_canvas_object(el).ok_or("no 2d context")?;
    let root = backend.into_drawing_area();
    let e = |e: DrawingAreaErrorKind<_>| format!("{e}");
    root.fill(&WHITE).map_err(e)?;
    let top = points.iter().map(|p| p.0.max(p.1)).fold(0.1f64, f64::max) * 1.05;
    let mut chart = ChartBuilder::on(&root)
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

#[component]
pub fn ItemsView() -> impl IntoView {
    let st = expect_context::<St>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let Some(v) = st.items.get() else { return };
        if let Some(el) = canvas.get() {
            if let Err(e) = draw_scatter(el, &v) {
                leptos::logging::error!("scatter: {e}");
            }
        }
    });
    let movers = move || {
        let v = st.items.get()?;
        let (n, rows) = (v.n, &v.movers);
        let texts = st.texts.get();
        let classes = st
            .summary
            .with(|s| s.as_ref().map(|s| s.classes.join("/")).unwrap_or_default());
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
                view! {
                    <tr>
                        <td class="id">{r.item.clone()}</td>
                        <td class="text" title=full>{text}</td>
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
                <caption>{format!("Items whose entropy moves most at N={n} (counts as {classes})")}</caption>
                <thead><tr><th>"item"</th><th>"text"</th><th>"N votes"</th><th>"all votes"</th><th>"H(p_N)"</th><th>"H(p_full)"</th></tr></thead>
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
