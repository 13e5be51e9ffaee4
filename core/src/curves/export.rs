//! The curves as CSV: the CLI's `--format csv` and the app's "export CSV" are this one function.

use super::{Curves, Metric};
use std::fmt::Write as _;

fn cell(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

impl Curves {
    /// Exactly `n,metric,mean,lo,hi`, one row per N and metric (in [`Metric::ALL`] order), numbers in
    /// shortest round-trip form, undefined values as empty cells.
    pub fn to_csv(&self) -> String {
        let names = Metric::ALL.map(Metric::name);
        points_csv(self.grid.len(), &names, |g, m| {
            let p = self.point_at(Metric::ALL[m], g);
            (p.n, p.mean, p.lo, p.hi)
        })
    }
}

/// The `n,metric,mean,lo,hi` table every curve family prints (the CLI and the app's CSV): grid N
/// by grid N, the metrics in `names`' order, `at(g, m)` giving N and the point's mean and range.
pub(crate) fn points_csv(
    grid: usize,
    names: &[&str],
    at: impl Fn(usize, usize) -> (u32, Option<f64>, Option<f64>, Option<f64>),
) -> String {
    let mut s = String::from("n,metric,mean,lo,hi\n");
    for g in 0..grid {
        for (m, name) in names.iter().enumerate() {
            let (n, mean, lo, hi) = at(g, m);
            let _ = writeln!(s, "{n},{name},{},{},{}", cell(mean), cell(lo), cell(hi));
        }
    }
    s
}
