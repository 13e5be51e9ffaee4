//! Messages between the page and the worker. Each message is a JS array `[json, bytes?]`: the
//! request or response as JSON, plus the raw file bytes for a load (kept binary: uploads can be
//! tens of megabytes). Every request carries an id so the page can drop stale answers.

use annosat_core::adaptive::AdaptiveResult;
use annosat_core::agreement::Agreement;
use annosat_core::answer::MetricAnswer;
use annosat_core::curves::crossed::AnnotatorSpread;
use annosat_core::curves::{CurveConfig, Curves, ItemBands, ItemDraw};
use annosat_core::extrapolate::{check::FitCheck, ExtrapolateConfig, Prior};
use annosat_core::pilot::Beyond;
use annosat_core::power::{PowerConfig, PowerReport, Predictions};
use annosat_core::ratings::{RatingReport, Scale};
use annosat_core::summary::Summary;
use annosat_core::worth::rank::Ranking;
use annosat_core::worth::{Report, WorthConfig};
use serde::{Deserialize, Serialize};

/// How the bytes of a load are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// A bundled dataset (`annosat bundle`).
    Bundle,
    /// A user's CSV (wide or long).
    Csv,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Request {
    /// Parse the attached bytes; on success they become the worker's current table.
    Load { id: u64, format: Format },
    /// Curves of the current table, for the repeats `part` (start, end) or all of them; the page
    /// splits the repeats over several workers and merges the parts (`Curves::merge`).
    Compute {
        id: u64,
        config: CurveConfig,
        part: Option<(u32, u32)>,
        /// The scale the classes are read on, where they are one: the rating curves of the same
        /// repeats follow the mean curves ([`Response::Ratings`]).
        #[serde(default)]
        scale: Option<Scale>,
    },
    /// One draw per item at N (repeat 0 of the curves), for the per-item view.
    Items {
        id: u64,
        config: CurveConfig,
        n: u32,
    },
    /// A job on the current table, run by the first worker ([`Job`]).
    Job { id: u64, job: Job },
    /// The multilabel curves of the current (multilabel) table, reported for the share `target`.
    Multilabel {
        id: u64,
        config: annosat_core::multilabel::MlConfig,
        target: f64,
    },
}

/// Every job a room (or the Target room's intervals) runs on the current table, one at a time in
/// the first worker: one request family, one answer family ([`JobOutcome`]), tracked by
/// [`JobKind`] (the latest of each kind is answered). A new tool is one variant here and one in
/// [`JobOutcome`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Job {
    /// The Plan room's tools and the Target room's headline extrapolation.
    Plan(PlanJob),
    /// The Sources room's measurement of another vote source.
    Worth(WorthJob),
    /// The annotators' share of the curves' points (`curves::crossed`), for a table that says who
    /// voted: what widens the Target room's intervals to items and annotators.
    Spread(CurveConfig),
    /// The Sources room's ranking of the file's own annotators (`annosat annotators`).
    Rank(WorthConfig),
    /// The Plan room's comparison of two models (`annosat compare`).
    Compare(CompareJob),
}

/// Which channel a job answers on: the latest request of each kind is the one answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JobKind {
    Plan,
    Worth,
    Spread,
    Rank,
    Compare,
}

impl Job {
    pub fn kind(&self) -> JobKind {
        match self {
            Job::Plan(_) => JobKind::Plan,
            Job::Worth(_) => JobKind::Worth,
            Job::Spread(_) => JobKind::Spread,
            Job::Rank(_) => JobKind::Rank,
            Job::Compare(_) => JobKind::Compare,
        }
    }
}

impl JobKind {
    /// Whether the job is part of the Target room's own work, replaced (with the workers) by new
    /// curves or data; the rooms' jobs are not: the target side's work queues behind them.
    pub fn target_side(self) -> bool {
        self == JobKind::Spread
    }
}

/// What a [`Job`] gives back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum JobOutcome {
    Planned(Box<PlanOutcome>),
    /// The measurement and what reading the source found.
    Worthed {
        report: Box<Report>,
        notes: Vec<String>,
    },
    /// `None`: the table does not say who voted.
    Spread(Option<Box<AnnotatorSpread>>),
    Ranked(Box<Ranking>),
    /// The comparison and what matching the models to the votes left out.
    Compared {
        report: Box<PowerReport>,
        notes: Vec<String>,
    },
}

/// What the Plan room's comparison asks: the two models' predictions (read in the page from the
/// user's files or an export's arm, by `annosat_core::power::predictions`), matched to the
/// worker's table there, and `annosat compare`'s settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompareJob {
    pub config: PowerConfig,
    pub a: Predictions,
    pub b: Predictions,
    /// The scale the classes are read on (Wasserstein and the mean rating's error).
    pub scale: Option<Scale>,
}

/// What the Sources room asks: `annosat worth` with these settings on the source's files (name,
/// text: sources are CSV or JSONL text, read by `annosat_core::import::source`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorthJob {
    pub config: WorthConfig,
    /// Random annotator subsets per panel size (`--panel-subsets`; 0: no panel view).
    pub subsets: u32,
    pub files: Vec<(String, String)>,
}

/// What the Plan room asks: the CLI's `extrapolate`, `agree` or `adaptive`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum PlanJob {
    Extrapolate(ExtrapolateConfig),
    /// The Target room's headline: the extrapolation, then what lies beyond it for these
    /// within-data answers (the file's pilot part, simulated pilots: `pilot::beyond`).
    Headline(ExtrapolateConfig, Vec<MetricAnswer>),
    /// `annosat agree` at the level called `level` on the worker's table (built there from its
    /// classes, so a job sent while new data loads cannot carry the old data's level).
    Agree {
        level: String,
        grid: Vec<u32>,
        repeats: u32,
        seed: u64,
    },
    /// `annosat adaptive` with its defaults for the table (`annosat_core::adaptive::AdaptiveConfig::defaults`).
    Adaptive {
        n0: u32,
        seed: u64,
    },
}

/// What it gets back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PlanOutcome {
    /// The fitted prior, its fit check and the extrapolated curves.
    /// (The prior and the fit check boxed: kept small, the enum is cheap to move for its other arms.)
    Extrapolated {
        prior: Box<Prior>,
        check: Box<FitCheck>,
        curves: Curves,
        /// The item bootstrap, the prior refitted per resample (when the config asked for one).
        bands: Option<ItemBands>,
        /// For the headline: the file's pilot part and the simulated pilots.
        #[serde(default)]
        beyond: Option<Box<Beyond>>,
    },
    Agreement(Agreement),
    Adaptive(AdaptiveResult),
}

/// Most points the per-item scatter receives.
pub const SCATTER_POINTS: usize = 3000;
/// How many of the items that move most the table shows.
pub const MOVERS: usize = 10;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Response {
    /// The worker's wasm is up; messages sent before this would be lost.
    Ready,
    /// `stage` is "parse", "compute" or "intervals" (the item bootstrap's resamples, after the
    /// mean curves), or "job" for a [`Job`]; `done` in 0..=1.
    Progress {
        id: u64,
        stage: String,
        done: f64,
    },
    Loaded {
        id: u64,
        summary: Summary,
        notes: Vec<String>,
    },
    /// A computation's mean curves, sent as soon as its draws are done (without the item
    /// bootstrap's sums); its `Curves`, with them, follow once the resamples are.
    MeanCurves {
        id: u64,
        curves: Curves,
        ms: f64,
    },
    Curves {
        id: u64,
        curves: Curves,
        ms: f64,
    },
    /// The items that move most, and up to [`SCATTER_POINTS`] (H(p_full), H(p_N)) pairs for the
    /// scatter (an even subsample on big data, so the page never handles more than it can draw).
    Items {
        id: u64,
        n: u32,
        movers: Vec<ItemDraw>,
        points: Vec<(f64, f64)>,
        total: usize,
    },
    /// A [`Job`]'s result (its progress comes as `Progress`).
    Done {
        id: u64,
        outcome: JobOutcome,
        ms: f64,
    },
    /// A computation's rating curves for its repeats (and, from the part with repeat 0, the
    /// rating headline), after its mean curves.
    Ratings {
        id: u64,
        report: Box<RatingReport>,
        ms: f64,
    },
    /// The multilabel curves as the Target room shows them (the CLI's JSON is the same report).
    MlReport {
        id: u64,
        report: Box<annosat_core::multilabel::MlReport>,
        ms: f64,
    },
    Error {
        id: u64,
        message: String,
    },
}

impl Request {
    pub fn id(&self) -> u64 {
        match self {
            Request::Load { id, .. }
            | Request::Compute { id, .. }
            | Request::Items { id, .. }
            | Request::Job { id, .. }
            | Request::Multilabel { id, .. } => *id,
        }
    }
}
