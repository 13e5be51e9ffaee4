//! The simulation's results as the CLI prints them and the Plan room exports them: one CSV and one
//! sentence per policy and metric, so the two never disagree.

use super::AdaptiveResult;
use crate::curves::Metric;

impl AdaptiveResult {
    /// `budget,policy,metric,mean,lo,hi,diff_mean,diff_lo,diff_hi`: each policy's metric over
    /// repeats, and its paired difference from uniform (undefined values empty).
    pub fn to_csv(&self) -> String {
        let f = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
        let mut s = String::from("budget,policy,metric,mean,lo,hi,diff_mean,diff_lo,diff_hi\n");
        for (b, &budget) in self.config.budgets.iter().enumerate() {
            for (p, policy) in self.config.policies.iter().enumerate() {
                for m in Metric::ALL {
                    let (v, d) = (self.point(p, m, b), self.difference(p, 0, m, b));
                    s += &format!(
                        "{budget},{},{},{},{},{},{},{},{}\n",
                        policy.name(),
                        m.name(),
                        f(v.mean),
                        f(v.lo),
                        f(v.hi),
                        f(d.mean),
                        f(d.lo),
                        f(d.hi)
                    );
                }
            }
        }
        s
    }

    /// One line per adaptive policy and metric: the budgets where it beats uniform (the paired
    /// difference's 2.5–97.5% interval entirely on the better side), where it loses, and by how
    /// much (difference, and relative to uniform's value). Policy 0 must be uniform.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (p, policy) in self.config.policies.iter().enumerate().skip(1) {
            for m in Metric::ALL {
                let sign = if m.lower_is_better() { -1.0 } else { 1.0 };
                let (mut wins, mut losses) = (Vec::new(), Vec::new());
                for b in 0..self.config.budgets.len() {
                    let d = self.difference(p, 0, m, b);
                    let (Some(lo), Some(hi), Some(mean)) = (d.lo, d.hi, d.mean) else {
                        continue;
                    };
                    let rel = self
                        .point(0, m, b)
                        .mean
                        .filter(|u| *u != 0.0)
                        .map_or(String::new(), |u| {
                            format!(", {:+.1}%", 100.0 * mean / u.abs())
                        });
                    let item = format!("{} ({mean:+.4}{rel})", d.n);
                    let (a, z) = (sign * lo, sign * hi);
                    if a.min(z) > 0.0 {
                        wins.push(item);
                    } else if a.max(z) < 0.0 {
                        losses.push(item);
                    }
                }
                let list = |v: &[String]| {
                    if v.is_empty() {
                        "none".to_string()
                    } else {
                        v.join(", ")
                    }
                };
                lines.push(format!(
                    "{} vs uniform, {}: better at budgets {}; worse at {}",
                    policy.name(),
                    m.name(),
                    list(&wins),
                    list(&losses)
                ));
            }
        }
        lines
    }
}
