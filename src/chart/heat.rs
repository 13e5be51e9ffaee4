//! The comparison's heat map (Plan room): power over items (rows) × votes per item (columns) for
//! one metric, a cell per grid point with its power written in, the fixed budgets of a power of
//! ten as lines through the grid (items = budget / N, placed between rows in log items) and the recommended split
//! marked — the cheapest with the power asked for, else the most powerful split of the largest
//! budget.

use crate::chart::plot::err;
use annosat_core::power::{PowerMetric, PowerReport};
use plotters::coord::Shift;
use plotters::prelude::*;

pub const W: u32 = 720;
pub const H: u32 = 460;

/// A cell's colour: white at power 0 to deep blue at 1.
fn shade(p: f64) -> RGBColor {
    let p = p.clamp(0.0, 1.0);
    let mix = |a: f64, b: f64| (a + (b - a) * p).round() as u8;
    RGBColor(mix(248.0, 30.0), mix(250.0, 64.0), mix(252.0, 175.0))
}

/// The row position of `items` (row j spans j..j+1 around its center), linear in log items
/// between the rows' centers; `None` outside the grid.
fn row_at(rows: &[u32], items: f64) -> Option<f64> {
    let first = *rows.first()? as f64;
    let last = *rows.last()? as f64;
    if items < first || items > last {
        return None;
    }
    for (j, w) in rows.windows(2).enumerate() {
        let (a, b) = (w[0] as f64, w[1] as f64);
        if items <= b {
            return Some(j as f64 + 0.5 + (items.ln() - a.ln()) / (b.ln() - a.ln()));
        }
    }
    Some(rows.len() as f64 - 0.5)
}

fn is_power_of_ten(mut v: u64) -> bool {
    while v >= 10 && v % 10 == 0 {
        v /= 10;
    }
    v == 1
}

/// "20k", "1.5k", "500".
fn short(v: u64) -> String {
    if v >= 1000 {
        let k = v as f64 / 1000.0;
        if k.fract() == 0.0 {
            format!("{k:.0}k")
        } else {
            format!("{k:.1}k")
        }
    } else {
        v.to_string()
    }
}

/// Draws the heat map of `m` in `r`.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    r: &PowerReport,
    m: PowerMetric,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let (rows, cols) = (&r.config.items, &r.config.n);
    let (nr, nc) = (rows.len() as f64, cols.len() as f64);
    let title = format!(
        "{}: power to see B − A ({:.0}% level)",
        m.label(),
        r.config.alpha * 100.0
    );
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 15))
        .margin(10)
        .margin_right(85)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..nc, 0.0..nr)
        .map_err(err)?;
    let (x_tick, y_tick) = (tick(cols.clone()), tick(rows.clone()));
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(cols.len() * 2 + 1)
        .y_labels(rows.len() * 2 + 1)
        .x_label_formatter(&x_tick)
        .y_label_formatter(&y_tick)
        .x_desc("votes per item N")
        .y_desc("items I")
        .draw()
        .map_err(err)?;
    for (ci, c) in r.columns.iter().enumerate() {
        for cell in c.cells.iter().filter(|x| x.metric == m) {
            let Some(ri) = rows.iter().position(|&i| i == cell.items) else {
                continue;
            };
            let (x0, y0) = (ci as f64, ri as f64);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                    shade(cell.power).filled(),
                )))
                .map_err(err)?;
            let ink = if cell.power > 0.55 { WHITE } else { BLACK };
            let text = format!("{:.2}", cell.power);
            chart
                .draw_series(std::iter::once(Text::new(
                    text,
                    (x0 + 0.3, y0 + 0.62),
                    ("sans-serif", 11).into_font().color(&ink),
                )))
                .map_err(err)?;
        }
    }
    // The fixed budgets of a power of ten: items = budget / N across the columns.
    let line = RGBColor(217, 119, 6);
    let budgets: Vec<u64> = {
        let mut v: Vec<u64> = r
            .budgets
            .iter()
            .filter(|b| b.metric == m && is_power_of_ten(b.votes))
            .map(|b| b.votes)
            .collect();
        v.dedup();
        v
    };
    for votes in budgets {
        let pts: Vec<(f64, f64)> = cols
            .iter()
            .enumerate()
            .filter_map(|(ci, &n)| {
                row_at(rows, votes as f64 / n as f64).map(|y| (ci as f64 + 0.5, y))
            })
            .collect();
        if pts.len() < 2 {
            continue;
        }
        // A line that reaches the last column runs on to the plot's edge and is labelled in the
        // right margin, off the cells; one that leaves the grid earlier is labelled where it ends.
        let mut pts = pts;
        let mut end = pts[pts.len() - 1];
        if end.0 > nc - 1.0 {
            end = (nc, end.1);
            pts.push(end);
        }
        chart
            .draw_series(std::iter::once(PathElement::new(pts, line.stroke_width(2))))
            .map_err(err)?;
        // The label on a white patch, so the cells' numbers do not run through it.
        let label = format!("{} votes", short(votes));
        let w = 7 * label.chars().count() as i32;
        chart
            .draw_series(std::iter::once(
                EmptyElement::at(end)
                    + Rectangle::new([(4, -8), (w + 8, 7)], WHITE.filled())
                    + Text::new(label, (6, -7), ("sans-serif", 12).into_font().color(&line)),
            ))
            .map_err(err)?;
    }
    // The recommended split.
    let pick = r
        .reach
        .iter()
        .find(|x| x.metric == m)
        .and_then(|x| x.found.clone())
        .or_else(|| r.budgets.iter().rfind(|b| b.metric == m).cloned());
    if let Some(b) = pick {
        if let (Some(ci), Some(y)) = (
            cols.iter().position(|&n| n == b.n),
            row_at(rows, b.items as f64),
        ) {
            let at = (ci as f64 + 0.5, y);
            let red = RGBColor(220, 38, 38);
            chart
                .draw_series(std::iter::once(Circle::new(at, 7, red.stroke_width(3))))
                .map_err(err)?;
        }
    }
    root.present().map_err(err)?;
    Ok(())
}

/// A tick formatter for a grid of cells: a cell's label at its centre (k + 0.5), nothing on the
/// half-steps the mesh also asks for.
fn tick<T: ToString>(labels: Vec<T>) -> impl Fn(&f64) -> String {
    move |v| {
        let i = (*v - 0.5).round();
        if (v - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
            labels[i as usize].to_string()
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_placed_in_log_items() {
        let rows = [100, 1000];
        assert_eq!(row_at(&rows, 100.0), Some(0.5));
        assert_eq!(row_at(&rows, 1000.0), Some(1.5));
        assert!((row_at(&rows, 316.227766).unwrap() - 1.0).abs() < 1e-6);
        assert_eq!(row_at(&rows, 50.0), None);
        assert_eq!(short(20000), "20k");
        assert_eq!(short(1500), "1.5k");
        assert!(is_power_of_ten(10_000) && is_power_of_ten(1) && !is_power_of_ten(2000));
    }
}
