//! The flag parsers `curves`, `extrapolate`, `worth` and `annotators` share: `--within
//! METRIC=EPS`, the reference vote count (`M|inf`), the ε of every metric and what `--resample`
//! covers. A leaf, so no command imports another.

use annosat_core::curves::{default_eps, Metric};
use annosat_core::extrapolate::ReferenceVotes;

/// `--resample`: what the intervals cover. Left out, a file that says who voted gets `crossed`
/// and a count file `items`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Resample {
    /// The item bootstrap alone.
    Items,
    /// Items and annotators: the item interval widened by the annotators' share of the variance.
    Crossed,
}

/// `--within kl=0.05`: a metric and its tolerance.
pub(crate) fn parse_within(s: &str) -> Result<(Metric, f64), String> {
    let (m, e) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: expected METRIC=EPS, e.g. kl=0.05"))?;
    let metric = Metric::from_name(m.trim()).ok_or_else(|| {
        format!("{m:?}: not a metric (jsd, entropy_corr, kl, majority_agreement)")
    })?;
    let eps: f64 = e
        .trim()
        .parse()
        .map_err(|_| format!("{e:?}: expected a number"))?;
    if !eps.is_finite() {
        return Err(format!("{e:?}: expected a finite number"));
    }
    Ok((metric, eps))
}

/// The ε of every metric: the defaults, overridden by `--within`.
pub(crate) fn eps_of(within: &[(Metric, f64)]) -> [f64; 4] {
    Metric::ALL.map(|m| {
        within
            .iter()
            .rev()
            .find(|(w, _)| *w == m)
            .map_or(default_eps(m), |w| w.1)
    })
}

/// `--reference-votes` / `--extrapolate-to`: a number of votes per item, or `inf`.
pub(crate) fn parse_reference(s: &str) -> Result<ReferenceVotes, String> {
    match s {
        "inf" => Ok(ReferenceVotes::Truth),
        n => n
            .parse()
            .map(ReferenceVotes::Votes)
            .map_err(|_| format!("{s:?}: expected a number of votes per item, or inf")),
    }
}
