//! The plotting frame both rooms' charts share (target-side curves and model-side arms): white
//! background, caption, axes with N on x (linear or log, integer ticks only), the shaded band
//! between two lines, the red marker at the slider's N (drawn into exports; on the page an element
//! placed by [`Geom::marker_style`], so moving N redraws no chart) and an empty panel. Each chart adds
//! only its own series.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

pub type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// plotters' errors as text (a canvas without a context, say).
pub fn err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> String {
    e.to_string()
}

/// Sizes of a chart: the target side's big panels and the Models room's smaller ones differ only
/// in these.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub caption_px: u32,
    pub margin: u32,
    pub margin_right: u32,
    pub x_label_area: u32,
    pub y_label_area: u32,
    /// Decimals on the y axis.
    pub y_decimals: usize,
}

impl Look {
    /// The target-side panels and their like (Plan, Sources, multilabel): every chart of a room
    /// that shows four or five metric panels side by side.
    pub const PANEL: Look = Look {
        caption_px: 15,
        margin: 10,
        margin_right: 22,
        x_label_area: 38,
        y_label_area: 56,
        y_decimals: 2,
    };
    /// The Models room's smaller panels (model-side values need a third decimal).
    pub const MODEL: Look = Look {
        caption_px: 14,
        margin: 8,
        margin_right: 16,
        x_label_area: 34,
        y_label_area: 52,
        y_decimals: 3,
    };
}

/// Where the x axis is: N from 1 to `x_max`, linear or log10.
#[derive(Clone, Copy, Debug)]
pub struct XAxis {
    pub x_max: f64,
    pub logx: bool,
}

impl XAxis {
    /// Chart x of annotator count `n`.
    pub fn at(&self, n: f64) -> f64 {
        if self.logx {
            n.log10()
        } else {
            n
        }
    }
    /// The axis' ends in chart units.
    pub fn range(&self) -> (f64, f64) {
        (self.at(1.0), self.at(self.x_max.max(2.0)))
    }
}

/// Fills `root` and draws the caption, mesh and axis labels; returns the chart to draw series on.
pub fn frame<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    look: Look,
    caption: &str,
    y_desc: Option<&str>,
    x: XAxis,
    y: (f64, f64),
) -> Result<Chart<'a, DB>, String> {
    let x_desc = if x.logx {
        "annotators per item N (log scale)"
    } else {
        "annotators per item N"
    };
    frame_with(root, look, caption, (x_desc, y_desc), (x, x.range()), y)
}

/// [`frame`] with another x axis description and span in chart units (an axis of a few integers
/// other than N, padded so points at its ends stay clear of the frame).
pub fn frame_with<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    look: Look,
    caption: &str,
    (x_desc, y_desc): (&str, Option<&str>),
    (x, (xa, xb)): (XAxis, (f64, f64)),
    (lo, hi): (f64, f64),
) -> Result<Chart<'a, DB>, String> {
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", look.caption_px))
        .margin(look.margin)
        .margin_right(look.margin_right)
        .x_label_area_size(look.x_label_area)
        .y_label_area_size(look.y_label_area)
        .build_cartesian_2d(xa..xb, lo..hi)
        .map_err(err)?;
    let logx = x.logx;
    let decimals = look.y_decimals;
    let x_label = |v: &f64| {
        let n = if logx { 10f64.powf(*v) } else { *v };
        if logx || (n - n.round()).abs() < 1e-6 {
            format!("{n:.0}")
        } else {
            String::new()
        }
    };
    let y_label = |y: &f64| format!("{y:.decimals$}");
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_desc)
        // N (or j) is an integer: with a short grid (say N ≤ 4) plotters' ten ticks would fall between
        // integers and print as "1 1 2 2 …", so ask for at most one tick per N and blank the rest.
        .x_labels(if logx {
            10
        } else {
            (x.x_max as usize).clamp(2, 10)
        })
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .light_line_style(RGBColor(236, 236, 236));
    if let Some(d) = y_desc {
        mesh.y_desc(d);
    }
    mesh.draw().map_err(err)?;
    Ok(chart)
}

/// Where the plotting area sits in pixels and how x maps to N (for the hover tooltip and the N
/// marker laid over the canvas).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geom {
    pub x0: i32,
    pub x1: i32,
    pub y0: i32,
    pub y1: i32,
    pub lo: f64,
    pub hi: f64,
    pub logx: bool,
}

impl Geom {
    /// The plotting area of a chart drawn on axis `x`.
    pub fn of<DB: DrawingBackend>(chart: &Chart<'_, DB>, x: XAxis) -> Geom {
        let (px, py) = chart.plotting_area().get_pixel_range();
        let (lo, hi) = x.range();
        Geom {
            x0: px.start,
            x1: px.end,
            y0: py.start,
            y1: py.end,
            lo,
            hi,
            logx: x.logx,
        }
    }

    /// CSS placing the N marker over a canvas of `size` pixels, in percent (CSS scales canvases).
    pub fn marker_style(&self, n: u32, (w, h): (u32, u32)) -> String {
        let left = self.px_of(n as f64) / w as f64 * 100.0;
        let top = self.y0 as f64 / h as f64 * 100.0;
        let height = (self.y1 - self.y0) as f64 / h as f64 * 100.0;
        format!("left:{left:.3}%;top:{top:.3}%;height:{height:.3}%")
    }

    /// The canvas pixel of annotator count `n` (inverse of [`Geom::n_at`]).
    pub fn px_of(&self, n: f64) -> f64 {
        let v = if self.logx { n.log10() } else { n };
        let t = (v - self.lo) / (self.hi - self.lo).max(1e-12);
        self.x0 as f64 + t * (self.x1 - self.x0) as f64
    }

    pub fn n_at(&self, px: f64) -> f64 {
        let t = ((px - self.x0 as f64) / (self.x1 - self.x0).max(1) as f64).clamp(0.0, 1.0);
        let v = self.lo + t * (self.hi - self.lo);
        if self.logx {
            10f64.powf(v)
        } else {
            v
        }
    }
}

/// A shaded band between `lower` and `upper` over the same N points.
pub fn band<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    x: XAxis,
    points: &[(u32, f64, f64)],
    colour: RGBAColor,
) -> Result<(), String> {
    let poly: Vec<(f64, f64)> = points
        .iter()
        .map(|&(n, _, hi)| (x.at(n as f64), hi))
        .chain(points.iter().rev().map(|&(n, lo, _)| (x.at(n as f64), lo)))
        .collect();
    chart
        .draw_series(std::iter::once(Polygon::new(poly, colour)))
        .map_err(err)?;
    Ok(())
}

/// Ends a chart: the N marker when `n` is given (exports), the drawing presented, and where the
/// plotting area is (for the tooltip and the marker element on the page).
pub fn finish<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    mut chart: Chart<'_, DB>,
    x: XAxis,
    n: Option<u32>,
    y: (f64, f64),
) -> Result<Geom, String> {
    if let Some(n) = n {
        n_marker(&mut chart, x, n, y)?;
    }
    let g = Geom::of(&chart, x);
    drop(chart);
    root.present().map_err(err)?;
    Ok(g)
}

/// Where a saturation point's label goes and how it looks.
pub struct PointLabel {
    pub text: String,
    pub colour: RGBColor,
    pub font_px: u32,
    /// Past this share of the x range the label ends at the line instead of starting there, so the
    /// panel's right edge does not cut it off (short grids put the point at N = max).
    pub flip_past: f64,
}

/// The dashed vertical line at a saturation point `n`, labelled at the top of the panel.
pub fn point_marker<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    x: XAxis,
    n: u32,
    label: PointLabel,
    (lo, hi): (f64, f64),
) -> Result<(), String> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let (xa, xb) = x.range();
    let at = x.at(n as f64);
    chart
        .draw_series(DashedLineSeries::new(
            [(at, lo), (at, hi)],
            6,
            4,
            label.colour.stroke_width(2),
        ))
        .map_err(err)?;
    let anchor = if at - xa > label.flip_past * (xb - xa) {
        HPos::Right
    } else {
        HPos::Left
    };
    let style = ("sans-serif", label.font_px)
        .into_font()
        .color(&label.colour)
        .pos(Pos::new(anchor, VPos::Top));
    chart
        .draw_series(std::iter::once(Text::new(
            label.text,
            (at, hi - 0.06 * (hi - lo)),
            style,
        )))
        .map_err(err)?;
    Ok(())
}

/// The red vertical line at the slider's N.
fn n_marker<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    x: XAxis,
    n: u32,
    (lo, hi): (f64, f64),
) -> Result<(), String> {
    let red = RGBColor(220, 38, 38);
    let at = x.at(n as f64);
    chart
        .draw_series(LineSeries::new([(at, lo), (at, hi)], red.stroke_width(2)))
        .map_err(err)?;
    Ok(())
}

/// A panel with nothing to plot: white, with `note` in the middle.
pub fn empty<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, note: &str) -> Result<(), String> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    root.fill(&WHITE).map_err(err)?;
    let (w, h) = root.dim_in_pixel();
    let style = ("sans-serif", 15)
        .into_font()
        .color(&RGBColor(120, 120, 120))
        .pos(Pos::new(HPos::Center, VPos::Center));
    root.draw(&Text::new(note, ((w / 2) as i32, (h / 2) as i32), style))
        .map_err(err)?;
    root.present().map_err(err)
}
