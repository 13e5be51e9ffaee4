//! Another vote source measured in humans: "this source is worth ν_m human annotators for metric m".
//!
//! *Definition.* Humans H and a source S (an LLM panel, experts, a second crowd) label the same
//! items. Both are compared with the same human reference that neither contains: each item's human
//! votes are split into a reference part R and a pool P (by annotator when ids are known, else a
//! seeded share of each item's votes: [`sample::split_heldout`], as `--heldout` does). The human
//! curve is d_m(p_N, p_R) for N = 1..|P| votes drawn from P (the target-side curves, the same
//! engine and metric definitions); the source's level is d_m(p_S, p_R). ν_m is the N where the
//! mean human curve reaches the source's level, interpolated linearly in 1/N between grid points
//! (where the squared error's expected curve is exactly a line, so its ν is its closed form); a source worse than one human is "below 1", one
//! better than the whole pool "above |P|" — said in words, not extrapolated.
//!
//! *Metrics.* The four target-side metrics plus the squared error ‖p − p_R‖², whose human curve has
//! a closed form per item — E‖p_N − p_R‖² = ‖p_P − p_R‖² + (1 − ‖p_P‖²)/N · (|P| − N)/(|P| − 1)
//! for N votes drawn without replacement from the item's |P| pool votes — the quantity behind Li,
//! Yu & Li's ν_MSE = J/E (J the mean 1 − ‖h‖², E the mean ‖p_S − h‖²), which [`Worth::j_over_e`]
//! computes with the finite reference for comparison.
//!
//! *Intervals.* For every R/P split seed, the curves' item bootstrap (B resamples) gives each
//! resample's human curve, and the source's level is resampled with exactly the same item weights
//! (`curves::bootstrap::item_weights`), so a resample's ν is paired; the interval is the 2.5th and
//! 97.5th percentiles of the resamples' ν over all split seeds together, so it covers which items
//! and which split.

use crate::curves::{self, Metric};
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

mod crossed;
mod human;
mod measure;
pub mod panel;
pub mod rank;

pub use panel::{Panel, PanelPoint};
#[cfg(test)]
mod tests;

#[cfg(test)]
use measure::locate;

/// The metrics a source is measured on: the target side's four and the squared error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorthMetric {
    Jsd,
    EntropyCorr,
    Kl,
    MajorityAgreement,
    SquaredError,
    /// On a scale: (m_S − m_R)², the source's mean rating against the reference's.
    MeanRatingSe,
    /// On a scale: Pearson's r over items of the source's mean rating with the reference's.
    MeanRatingCorr,
}

impl WorthMetric {
    pub const ALL: [WorthMetric; 5] = [
        WorthMetric::Jsd,
        WorthMetric::EntropyCorr,
        WorthMetric::Kl,
        WorthMetric::MajorityAgreement,
        WorthMetric::SquaredError,
    ];

    /// The rating metrics, measured where the classes are read on a scale ([`WorthConfig::scale`]).
    pub const RATING: [WorthMetric; 2] = [WorthMetric::MeanRatingSe, WorthMetric::MeanRatingCorr];

    /// The key in CSV and JSON output.
    pub fn key(self) -> &'static str {
        match self {
            WorthMetric::SquaredError => "squared_error",
            WorthMetric::MeanRatingSe => "mean_rating_se",
            WorthMetric::MeanRatingCorr => "mean_rating_corr",
            m => m.target().map(Metric::name).unwrap_or(""),
        }
    }

    /// The target-side metric, for all but the squared error.
    fn target(self) -> Option<Metric> {
        match self {
            WorthMetric::Jsd => Some(Metric::Jsd),
            WorthMetric::EntropyCorr => Some(Metric::EntropyCorr),
            WorthMetric::Kl => Some(Metric::Kl),
            WorthMetric::MajorityAgreement => Some(Metric::MajorityAgreement),
            WorthMetric::SquaredError | WorthMetric::MeanRatingSe | WorthMetric::MeanRatingCorr => {
                None
            }
        }
    }

    fn lower_is_better(self) -> bool {
        !matches!(
            self,
            WorthMetric::EntropyCorr | WorthMetric::MajorityAgreement | WorthMetric::MeanRatingCorr
        )
    }
}

/// Settings of one measurement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorthConfig {
    /// Share of each item's human votes (or of the annotators) kept as the reference R.
    pub reference_share: f64,
    /// R/P split seeds: `seed`, `seed + 1`, … (`splits` of them).
    pub seed: u64,
    pub splits: u32,
    /// Repeats of the human subsampling per split.
    pub repeats: u32,
    /// Item resamples per split (0: no interval).
    pub bootstrap: u32,
    /// Add-α smoothing for KL (`None`: 1/K), the target side's.
    pub alpha: Option<f64>,
    /// Where the human file says who voted, widen the intervals by the annotators' share of
    /// the variance ([`crossed`]): intervals over items and annotators (`--resample crossed`,
    /// the default); `false`: over items only.
    #[serde(default = "yes")]
    pub over_annotators: bool,
    /// The scale the human classes are on (`None`: unordered): the rating metrics
    /// ([`WorthMetric::RATING`]) are measured too.
    #[serde(default)]
    pub scale: Option<crate::ratings::Scale>,
}

impl WorthConfig {
    /// The metrics measured: the five of every file, and the rating ones on a scale.
    pub fn metrics(&self) -> Vec<WorthMetric> {
        let mut m = WorthMetric::ALL.to_vec();
        if self.scale.is_some() {
            m.extend(WorthMetric::RATING);
        }
        m
    }
}

fn yes() -> bool {
    true
}

impl Default for WorthConfig {
    fn default() -> Self {
        WorthConfig {
            reference_share: 0.5,
            seed: 42,
            splits: 3,
            repeats: 20,
            bootstrap: 200,
            alpha: None,
            over_annotators: true,
            scale: None,
        }
    }
}

/// Where ν lies when the source's level is outside the human curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// Worse than one human vote: ν < 1.
    Below,
    /// Better than all |P| pool votes: ν > |P|.
    Above,
}

/// One metric's answer: `worth.<metric> = {nu, lo, hi, bound}` in the CLI's JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricWorth {
    pub metric: WorthMetric,
    /// ν from the split seeds' mean human curve and mean source level; `None` when bounded.
    pub nu: Option<f64>,
    /// 2.5th and 97.5th percentiles over the resamples of every split (`None`: that end lies
    /// below 1 or above |P|).
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub bound: Option<Bound>,
    /// The source's level d_m(p_S, p_R), mean over splits.
    pub source: Option<f64>,
    /// The mean human curve over splits, per grid N.
    pub human: Vec<(u32, Option<f64>)>,
    /// The curve's first N with a value (1, or 2 for entropy correlation): `Below` means "worth
    /// fewer than this many humans".
    pub floor: u32,
}

impl MetricWorth {
    /// "worth 4.2 humans [3.6, 4.9]", "worth fewer than 1 human", "worth more than 50 humans".
    pub fn words(&self, pool: u32) -> String {
        let floor = self.floor;
        let end = |x: Option<f64>, below: bool| match x {
            Some(v) => format!("{v:.1}"),
            None if below => format!("<{floor}"),
            None => format!(">{pool}"),
        };
        // A bound keeps its interval when the resamples reach inside the curve.
        let iv = match (self.lo, self.hi) {
            (None, None) => String::new(),
            (lo, hi) => format!(" [{}, {}]", end(lo, true), end(hi, false)),
        };
        match (self.bound, self.nu) {
            (Some(Bound::Below), _) if floor == 1 => format!("worth fewer than 1 human{iv}"),
            (Some(Bound::Below), _) => {
                format!("worth fewer than {floor} humans (the curve starts at N = {floor}){iv}")
            }
            (Some(Bound::Above), _) => {
                format!("worth more than {pool} humans (all the pool has){iv}")
            }
            (None, Some(nu)) => match self.unresolved(nu) {
                Some(k) => format!(
                    "between {k} and {} humans: the metric cannot tell {k} human votes from {} (its human curve is flat there; majority agreement scores a 1–1 tie as half right)",
                    k + 1,
                    k + 1
                ),
                None => format!(
                    "worth {nu:.1} humans [{}, {}]",
                    end(self.lo, true),
                    end(self.hi, false)
                ),
            },
            (None, None) => "undefined".into(),
        }
    }

    /// The k with ν between k and k + 1 human votes where the mean human curve does not move
    /// from k to k + 1 (within 2% of its whole change): there a decimal ν says nothing the metric
    /// can tell — majority agreement between 1 and 2 votes, whose 1–1 ties score half.
    /// The closed-form curves (the squared errors) are exact and strictly falling: never flat.
    pub fn unresolved(&self, nu: f64) -> Option<u32> {
        self.metric.target()?;
        let k = nu.floor() as u32;
        let at = |n: u32| {
            self.human
                .iter()
                .find(|(g, _)| *g == n)
                .and_then(|(_, v)| *v)
        };
        let vals: Vec<f64> = self.human.iter().filter_map(|(_, v)| *v).collect();
        let range = vals.iter().copied().fold(f64::MIN, f64::max)
            - vals.iter().copied().fold(f64::MAX, f64::min);
        let (a, b) = (at(k)?, at(k + 1)?);
        (range > 0.0 && (a - b).abs() <= 0.02 * range).then_some(k)
    }
}

/// The whole answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Worth {
    /// Items in both files and used (each with ≥ 2 human votes and ≥ 1 source vote).
    pub items: usize,
    /// Ids only in the human file, only in the source file, and shared items left out (fewer
    /// than 2 human votes or no source vote).
    pub only_humans: Vec<String>,
    pub only_source: Vec<String>,
    pub left_out: Vec<String>,
    /// The largest pool size |P| (the human curve's last N).
    pub pool: u32,
    pub metrics: Vec<MetricWorth>,
    /// Li, Yu & Li's closed form with the finite reference, mean over splits: J / E with
    /// J = mean 1 − ‖p_R‖², E = mean ‖p_S − p_R‖².
    pub j_over_e: Option<f64>,
    /// The squared error's ν in closed form, mean over splits, where every item's pool has the
    /// same size M: the human curve is B + V (M/N − 1)/(M − 1) (B the mean ‖p_P − p_R‖², V the
    /// mean 1 − ‖p_P‖²), so ν = M / (1 + (E − B)(M − 1)/V) — what the interpolated ν must agree
    /// with. `None` for ragged pools or a source outside the curve.
    pub closed_form_nu: Option<f64>,
    /// The intervals cover which human annotators as well as which items and splits.
    #[serde(default)]
    pub over_annotators: bool,
}

impl Worth {
    pub fn get(&self, m: WorthMetric) -> Option<&MetricWorth> {
        self.metrics.iter().find(|w| w.metric == m)
    }
}

/// Why a measurement cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WorthError {
    #[error("the source's classes ({theirs}) are not the human file's ({humans}); relabel one of them so both name the same classes (a source may use fewer of them, in any order and case; e, n and c stand for entailment, neutral and contradiction, 1 and 2 for hyp1 and hyp2)")]
    Classes { humans: String, theirs: String },
    #[error("no item id is in both files ({humans} human items, {theirs} source items, e.g. {example_h:?} and {example_s:?})")]
    NoSharedItems {
        humans: usize,
        theirs: usize,
        example_h: String,
        example_s: String,
    },
    #[error("the reference share must be strictly between 0 and 1 (got {0})")]
    BadShare(f64),
    #[error("splits and repeats must be at least 1")]
    NoSplits,
    #[error("after the reference split no item has 2 or more pool votes: the human curve needs N = 1 and 2 at least")]
    ShortPool,
    #[error(transparent)]
    Curves(#[from] curves::CurveError),
}

/// The human class each source class names: the same name, the same name in another case, or
/// one of the documented aliases — the NLI letters `e`, `n`, `c` for entailment, neutral and
/// contradiction, and `1`, `2` for αNLI's `hyp1`, `hyp2` (what LLM judges are often asked to
/// answer). Several source names may name one class (judges of one panel answering `e` and
/// `entailment`): their votes count together. `None` if a class has no match.
pub fn class_map(humans: &[String], source: &[String]) -> Option<Vec<usize>> {
    let alias = |s: &str| -> String {
        match s.to_lowercase().as_str() {
            "e" => "entailment".into(),
            "n" => "neutral".into(),
            "c" => "contradiction".into(),
            // αNLI's two hypotheses, as judges answer them.
            "1" => "hyp1".into(),
            "2" => "hyp2".into(),
            other => other.to_string(),
        }
    };
    let mut map = Vec::with_capacity(source.len());
    for c in source {
        let j = humans
            .iter()
            .position(|h| h == c)
            .or_else(|| humans.iter().position(|h| h.to_lowercase() == alias(c)))?;
        map.push(j);
    }
    Some(map)
}

/// Each item id's row (the matching of the two files, and a split's items back to the table's).
fn rows_by_id(ids: &[String]) -> std::collections::HashMap<&str, usize> {
    ids.iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect()
}

/// The shared items of both tables, in the human file's order and the human file's classes (the
/// source's relabelled by [`class_map`]), and the ids in only one.
pub fn match_items(
    humans: &VoteTable,
    source: &VoteTable,
) -> Result<(VoteTable, VoteTable, Vec<String>, Vec<String>), WorthError> {
    let k = humans.num_classes();
    let map = class_map(humans.classes(), source.classes()).ok_or_else(|| WorthError::Classes {
        humans: humans.classes().join(", "),
        theirs: source.classes().join(", "),
    })?;
    let relabel = |c: &[u32]| {
        let mut out = vec![0u32; k];
        for (&v, &j) in c.iter().zip(&map) {
            out[j] += v;
        }
        out
    };
    let at = rows_by_id(source.item_ids());
    let (mut ids, mut sc, mut only_h) = (Vec::new(), Vec::new(), Vec::new());
    let mut used = vec![false; source.num_items()];
    for id in humans.item_ids() {
        match at.get(id.as_str()) {
            Some(&j) => {
                used[j] = true;
                ids.push(id.clone());
                sc.extend(relabel(source.counts(j)));
            }
            None => only_h.push(id.clone()),
        }
    }
    if ids.is_empty() {
        return Err(WorthError::NoSharedItems {
            humans: humans.num_items(),
            theirs: source.num_items(),
            example_h: humans.item_ids().first().cloned().unwrap_or_default(),
            example_s: source.item_ids().first().cloned().unwrap_or_default(),
        });
    }
    let only_s = source
        .item_ids()
        .iter()
        .zip(&used)
        .filter(|(_, &u)| !u)
        .map(|(id, _)| id.clone())
        .collect();
    let classes = humans.classes().to_vec();
    let rows: Vec<usize> = humans
        .item_ids()
        .iter()
        .enumerate()
        .filter(|(_, id)| at.contains_key(id.as_str()))
        .map(|(i, _)| i)
        .collect();
    Ok((
        select(humans, &rows),
        VoteTable::new(classes, ids, sc),
        only_h,
        only_s,
    ))
}

/// The rows `rows` of a table, in that order, with their per-annotator rows when it has them (so a
/// reference split can still go by annotator).
fn select(t: &VoteTable, rows: &[usize]) -> VoteTable {
    let sub = t.reordered(rows);
    if t.annotations().is_empty() {
        return sub;
    }
    let mut new_index = vec![u32::MAX; t.num_items()];
    for (j, &r) in rows.iter().enumerate() {
        new_index[r] = j as u32;
    }
    let ann = t
        .annotations()
        .iter()
        .filter(|a| new_index[a.item as usize] != u32::MAX)
        .map(|a| crate::votes::Annotation {
            item: new_index[a.item as usize],
            ..*a
        })
        .collect();
    sub.with_annotations(t.annotator_ids().to_vec(), ann)
}

/// The matched, kept items: humans (with their per-annotator rows) and the source's counts in the
/// same order, and what was left out on the way.
struct Prepared {
    h: VoteTable,
    s: VoteTable,
    only_humans: Vec<String>,
    only_source: Vec<String>,
    left_out: Vec<String>,
}

fn prepare_items(
    humans: &VoteTable,
    source: &VoteTable,
    cfg: &WorthConfig,
) -> Result<Prepared, WorthError> {
    if !(cfg.reference_share > 0.0 && cfg.reference_share < 1.0) {
        return Err(WorthError::BadShare(cfg.reference_share));
    }
    if cfg.splits == 0 || cfg.repeats == 0 {
        return Err(WorthError::NoSplits);
    }
    let (h, s, only_humans, only_source) = match_items(humans, source)?;
    // Items the source has no vote for say nothing about it.
    let keep: Vec<usize> = (0..s.num_items()).filter(|&i| s.total(i) > 0).collect();
    let left_out = (0..s.num_items())
        .filter(|&i| s.total(i) == 0)
        .map(|i| s.item_ids()[i].clone())
        .collect();
    Ok(Prepared {
        h: select(&h, &keep),
        s: s.reordered(&keep),
        only_humans,
        only_source,
        left_out,
    })
}

/// Measures `source` in humans of `humans` (see the module docs).
pub fn worth(
    humans: &VoteTable,
    source: &VoteTable,
    cfg: &WorthConfig,
) -> Result<Worth, WorthError> {
    Ok(report(humans, source, cfg, 0, &mut |_| {})?.worth)
}

/// The panel view alone (see [`report`]); `None` for a source without two annotators.
pub fn panel(
    humans: &VoteTable,
    source: &VoteTable,
    cfg: &WorthConfig,
    subsets: u32,
) -> Result<Option<Panel>, WorthError> {
    Ok(report(humans, source, cfg, subsets.max(1), &mut |_| {})?.panel)
}

/// Everything `annosat worth` and the Sources room show: the source's worth per metric and, for a
/// source with two or more annotators and `subsets` > 0, the panel view. The human side is
/// computed once for both; `progress` gets 0..=1.
pub fn report(
    humans: &VoteTable,
    source: &VoteTable,
    cfg: &WorthConfig,
    subsets: u32,
    progress: &mut dyn FnMut(f64),
) -> Result<Report, WorthError> {
    let mut p = prepare_items(humans, source, cfg)?;
    let with_panel = subsets > 0 && panel::is_panel(source);
    // The human side is most of the work without a panel, a third with one.
    let share = if with_panel { 0.35 } else { 0.9 };
    let splits = human::prepare(&p.h, cfg, &mut |d| progress(d * share))?;
    let s = &p.s;
    let mut m = measure::measure(&splits, &|i| Some(s.counts(i).to_vec()), true);
    // Over the annotators too (a share of the bar taken from the panel's or the end's).
    let shares = if cfg.over_annotators && cfg.bootstrap > 0 {
        annotator_shares(&p.h, s, cfg, &mut |d| progress(share + 0.05 * d))?
    } else {
        None
    };
    if let Some(v) = &shares {
        crossed::widen(&mut m.metrics, v);
    }
    let over_annotators = shares.is_some();
    progress(share + 0.05);
    let panel = with_panel.then(|| {
        panel::panel_of(humans, source, &p, &splits, cfg, subsets, &mut |d| {
            progress(share + 0.05 + d * (0.95 - share))
        })
    });
    p.left_out.extend(splits[0].left_out.iter().cloned());
    let worth = Worth {
        items: p.h.num_items() - splits[0].left_out.len(),
        only_humans: p.only_humans,
        only_source: p.only_source,
        left_out: p.left_out,
        pool: *splits[0].grid.last().unwrap_or(&1),
        metrics: m.metrics,
        j_over_e: m.j_over_e,
        closed_form_nu: m.closed_form_nu,
        over_annotators,
    };
    progress(1.0);
    Ok(Report {
        worth,
        panel,
        crowd: panel::crowd(source),
    })
}

/// Per metric, the annotators' raw share of ln ν's variance ([`crossed`]) for the matched,
/// kept items `h` (with who voted) and the source's counts `s` in the same order; `None` where
/// `h` does not say who voted.
fn annotator_shares(
    h: &VoteTable,
    s: &VoteTable,
    cfg: &WorthConfig,
    progress: &mut dyn FnMut(f64),
) -> Result<Option<Vec<f64>>, WorthError> {
    let point = WorthConfig {
        bootstrap: 0,
        splits: 1,
        ..cfg.clone()
    };
    let mut run = |h: &VoteTable| -> Result<Vec<f64>, WorthError> {
        let sp = human::prepare(h, &point, &mut |_| {})?;
        let m = measure::measure(&sp, &|i| Some(s.counts(i).to_vec()), false);
        Ok(crossed::log_nus(&m.metrics))
    };
    let runs = curves::crossed::leave_out(h, cfg.seed, crossed::GROUPS, &mut run, progress)?;
    Ok(runs.as_ref().map(crossed::shares))
}

/// [`annotator_shares`] for a human file and a source as [`report`] takes them.
pub(crate) fn source_shares(
    humans: &VoteTable,
    source: &VoteTable,
    cfg: &WorthConfig,
) -> Result<Option<Vec<f64>>, WorthError> {
    let p = prepare_items(humans, source, cfg)?;
    annotator_shares(&p.h, &p.s, cfg, &mut |_| {})
}

/// [`report`]'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub worth: Worth,
    pub panel: Option<Panel>,
    /// A source with annotator ids that is not a panel: how its workers spread.
    #[serde(default)]
    pub crowd: Option<panel::Crowd>,
}

impl Report {
    /// `annosat worth --format csv`, also the Sources room's CSV export: one row per metric,
    /// `metric,nu,lo,hi,bound,source_level` (empty where undefined).
    pub fn csv(&self) -> String {
        let o = |x: Option<f64>| x.map(|x| format!("{x:.4}")).unwrap_or_default();
        let mut out = String::from("metric,nu,lo,hi,bound,source_level\n");
        for m in &self.worth.metrics {
            let bound = match m.bound {
                Some(Bound::Below) => "below",
                Some(Bound::Above) => "above",
                None => "",
            };
            out.push_str(&format!(
                "{},{},{},{},{},{}\n",
                m.metric.key(),
                o(m.nu),
                o(m.lo),
                o(m.hi),
                bound,
                o(m.source)
            ));
        }
        out
    }
}
