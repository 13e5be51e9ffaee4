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
        let mut s = String::from("n,metric,mean,lo,hi\n");
        for g in 0..self.grid.len() {
            for m in Metric::ALL {
                let p = self.point_at(m, g);
                let _ = writeln!(
                    s,
                    "{},{},{},{},{}",
                    p.n,
                    m.name(),
                    cell(p.mean),
                    cell(p.lo),
                    cell(p.hi)
                );
            }
        }
        s
    }
}
