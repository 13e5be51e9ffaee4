//! Groups of `St`'s signals that travel together: what an upload shows, how long the curves took,
//! the Target room's reading choices and the rating view. Each is `Copy`, one field of `St`.

use annosat_core::curves::{default_eps, Metric};
use annosat_core::ratings::{RatingReport, Scale, ScaleKind};
use leptos::prelude::*;
use std::sync::Arc;

/// The uploaded file's name and its refusal.
#[derive(Clone, Copy)]
pub struct Upload {
    /// The name of the uploaded file shown (set once it has loaded, so a refused file never names
    /// the data on screen).
    pub name: RwSignal<Option<String>>,
    /// The name of the file being read.
    pub reading: RwSignal<Option<String>>,
    pub error: RwSignal<Option<String>>,
}

impl Upload {
    pub fn new() -> Self {
        Upload {
            name: RwSignal::new(None),
            reading: RwSignal::new(None),
            error: RwSignal::new(None),
        }
    }
}

/// How long the shown curves took, as the Target room's status line says.
#[derive(Clone, Copy)]
pub struct Took {
    /// The mean curves.
    pub curves_ms: RwSignal<f64>,
    /// The item bootstrap's intervals (after the mean curves; 0 while they come).
    pub bands_ms: RwSignal<f64>,
}

impl Took {
    pub fn new() -> Self {
        Took {
            curves_ms: RwSignal::new(0.0),
            bands_ms: RwSignal::new(0.0),
        }
    }
}

/// How the Target room reads the curves: its band, tolerances and headline reference.
#[derive(Clone, Copy)]
pub struct TargetChoices {
    /// Whether the panels' band is over items (else over repeats).
    pub item_band: RwSignal<bool>,
    /// The absolute tolerance per metric (in `Metric::ALL` order), as `--within`.
    pub eps: RwSignal<[f64; 4]>,
    /// Where a metric's own point is bounded by the votes, the headline extrapolates to this many
    /// votes per item (0: the items' true distributions).
    pub headline_to: RwSignal<u32>,
}

impl TargetChoices {
    pub fn new(headline_to: u32) -> Self {
        TargetChoices {
            item_band: RwSignal::new(true),
            eps: RwSignal::new(Metric::ALL.map(default_eps)),
            headline_to: RwSignal::new(headline_to),
        }
    }
}

/// How the classes are read, and what the rating curves of the shown data are.
#[derive(Clone, Copy)]
pub struct Ratings {
    /// `None`: as the classes say (numbered classes are an interval scale, others unordered);
    /// else the user's choice (`&scale=` in the URL).
    pub read_as: RwSignal<Option<ScaleKind>>,
    /// The rating curves and headline of the shown data, on its scale.
    pub report: RwSignal<Option<Arc<RatingReport>>>,
    /// The time to them.
    pub ms: RwSignal<f64>,
}

impl Ratings {
    pub fn new() -> Self {
        Ratings {
            read_as: RwSignal::new(None),
            report: RwSignal::new(None),
            ms: RwSignal::new(0.0),
        }
    }

    /// The scale of `classes` as the user reads them (else as the dataset `declared` them, else
    /// as their names say): `None` for unordered classes.
    pub fn scale(&self, classes: &[String], declared: Option<ScaleKind>) -> Option<Scale> {
        match self.read_as.get_untracked().or(declared) {
            None => Scale::detect(classes),
            Some(ScaleKind::Nominal) => None,
            Some(kind) => Scale::declared(kind, classes, None).ok(),
        }
    }
}
