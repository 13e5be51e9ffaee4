//! The one chart module: every panel of every room draws through it.
//!
//! - `plot`: the frame (axes, N axis linear or log, the y range), bands, the empty panel, the two
//!   looks (`Look::PANEL`, `Look::MODEL`) and `Geom`, where N lies on the drawn chart;
//! - `figure`: a chart's place on the page — painting a canvas (`paint`), the N marker over it,
//!   the PNG and SVG downloads and the SVG-only panel;
//! - `curves`: the target-side curves panel (Target and Plan rooms);
//! - `points`: a panel drawn from (N, mean, low, high) points, with an optional dashed line beside
//!   it and a labelled point — the multilabel and the rating panels;
//! - `heat`: the comparison's heat map of power over items × votes per item (Plan room);
//! - `multilabel`: the multilabel panel (Target and Models rooms), a `points` panel.
//!
//! A room's own `chart.rs` holds only what it draws (its series and colours), never a canvas
//! set-up or an export of its own.

pub mod curves;
pub mod figure;
pub mod heat;
pub mod multilabel;
pub mod plot;
pub mod points;
