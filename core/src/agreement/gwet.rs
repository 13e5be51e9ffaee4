//! Gwet's AC1 and AC2 (Gwet 2008; Handbook of Inter-Rater Reliability, 2014), from the items'
//! class counts alone, beside Krippendorff's α.
//!
//! α and κ can sit near zero while the raters almost always agree, when one category dominates
//! (the "kappa paradox"); AC1 takes chance agreement as the propensity to agree on hard items and
//! does not. With r_ik raters of item i in category k (r_i in all), weights w_kl (1 on the
//! diagonal), r*_ik = Σ_l w_kl·r_il, n items and q categories:
//!
//!   p_a = mean over items with r_i ≥ 2 of Σ_k r_ik·(r*_ik − 1) / (r_i·(r_i − 1))
//!   π_k = mean over items of r_ik / r_i
//!   p_e = Σ_kl w_kl / (q·(q − 1)) · Σ_k π_k·(1 − π_k)
//!   AC  = (p_a − p_e) / (1 − p_e)
//!
//! AC1 has identity weights; AC2 weights partial agreement on a scale: linear 1 − |v_k − v_l|/
//! range, quadratic 1 − ((v_k − v_l)/range)², ordinal 1 − m_kl/max m with m_kl = d(d + 1)/2 for
//! d = the number of scale steps between k and l. The PyPI package irrCAC computes the same
//! (tests/reference/irrcac_reference.py, trainer/tests/gwet.rs).

use serde::{Deserialize, Serialize};

/// How much two categories agree: 1 for the same one, less for farther ones on a scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weights {
    /// AC1: only the same category agrees.
    Identity,
    Linear,
    Quadratic,
    Ordinal,
}

impl Weights {
    /// AC2's weights, for scales.
    pub const SCALE: [Weights; 3] = [Weights::Ordinal, Weights::Linear, Weights::Quadratic];

    /// The name in `annosat agree`'s output: `gwet_ac1`, `gwet_ac2_linear`, …
    pub fn metric_name(self) -> &'static str {
        match self {
            Weights::Identity => "gwet_ac1",
            Weights::Linear => "gwet_ac2_linear",
            Weights::Quadratic => "gwet_ac2_quadratic",
            Weights::Ordinal => "gwet_ac2_ordinal",
        }
    }

    /// The q×q weights (row-major, the table's class order) for classes at `values` on the
    /// scale (only their order matters for ordinal weights; identity needs none).
    pub fn matrix(self, values: &[f64]) -> Vec<f64> {
        let q = values.len();
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let range = hi - lo;
        // Each class's rank on the scale (0 = lowest), for ordinal weights.
        let rank: Vec<usize> = values
            .iter()
            .map(|v| values.iter().filter(|&&x| x < *v).count())
            .collect();
        let steps = |k: usize, l: usize| rank[k].abs_diff(rank[l]) as f64;
        let top = ((q - 1) * q) as f64 / 2.0;
        let mut w = vec![0.0; q * q];
        for k in 0..q {
            for l in 0..q {
                w[k * q + l] = match self {
                    _ if k == l => 1.0,
                    Weights::Identity => 0.0,
                    Weights::Linear => 1.0 - (values[k] - values[l]).abs() / range,
                    Weights::Quadratic => 1.0 - ((values[k] - values[l]) / range).powi(2),
                    Weights::Ordinal => {
                        let d = steps(k, l);
                        1.0 - d * (d + 1.0) / 2.0 / top
                    }
                };
            }
        }
        w
    }
}

/// Gwet's AC with weights `w` (q×q, from [`Weights::matrix`]) of items given as rows of `q` class
/// counts; `None` when no item has two ratings, there is one category, or p_e = 1.
pub fn gwet_ac(counts: &[u32], q: usize, w: &[f64]) -> Option<f64> {
    if q < 2 {
        return None;
    }
    let (mut pa, mut pairs, mut items) = (0.0, 0usize, 0usize);
    let mut pi = vec![0.0; q];
    let mut weighted = vec![0.0; q];
    for row in counts.chunks(q) {
        let r: u32 = row.iter().sum();
        if r == 0 {
            continue;
        }
        items += 1;
        let rf = r as f64;
        for (p, &c) in pi.iter_mut().zip(row) {
            *p += c as f64 / rf;
        }
        if r < 2 {
            continue;
        }
        for (k, wk) in weighted.iter_mut().enumerate() {
            *wk = (0..q).map(|l| w[k * q + l] * row[l] as f64).sum();
        }
        let agree: f64 = row
            .iter()
            .zip(&weighted)
            .map(|(&c, &s)| c as f64 * (s - 1.0))
            .sum();
        pa += agree / (rf * (rf - 1.0));
        pairs += 1;
    }
    if pairs == 0 {
        return None;
    }
    let pa = pa / pairs as f64;
    let spread: f64 = pi
        .iter()
        .map(|p| {
            let p = p / items as f64;
            p * (1.0 - p)
        })
        .sum();
    let pe = w.iter().sum::<f64>() / (q * (q - 1)) as f64 * spread;
    (pe < 1.0).then(|| (pa - pe) / (1.0 - pe))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gwet's 4 raters × 12 units with missing ratings (Handbook of Inter-Rater Reliability,
    /// 4th ed., the example irrCAC documents), as counts over the categories 1..5.
    fn gwet_example() -> Vec<u32> {
        let units: [&[u32]; 12] = [
            &[1, 1, 1],
            &[2, 2, 3, 2],
            &[3, 3, 3, 3],
            &[3, 3, 3, 3],
            &[2, 2, 2, 2],
            &[1, 2, 3, 4],
            &[4, 4, 4, 4],
            &[1, 1, 2, 1],
            &[2, 2, 2, 2],
            &[5, 5, 5],
            &[1, 1],
            &[3],
        ];
        let mut counts = Vec::new();
        for u in units {
            let mut c = [0u32; 5];
            for &v in u {
                c[v as usize - 1] += 1;
            }
            counts.extend_from_slice(&c);
        }
        counts
    }

    #[test]
    fn gwets_worked_example_gives_his_ac1() {
        let values = [1.0, 2.0, 3.0, 4.0, 5.0];
        let ac1 = gwet_ac(&gwet_example(), 5, &Weights::Identity.matrix(&values)).unwrap();
        // AC1 = 0.77544 (p_a 0.81818, p_e 0.19032) in the handbook and irrCAC's documentation.
        assert!((ac1 - 0.77544).abs() < 5e-6, "{ac1}");
    }

    #[test]
    fn weights_are_one_on_the_diagonal_and_zero_at_the_ends() {
        let values = [1.0, 2.0, 3.0, 4.0, 5.0];
        for w in [Weights::Linear, Weights::Quadratic, Weights::Ordinal] {
            let m = w.matrix(&values);
            assert!((0..5).all(|k| m[k * 5 + k] == 1.0));
            assert_eq!(m[4], 0.0, "{w:?}: the scale's ends do not agree at all");
            assert_eq!(m[1], m[5], "symmetric");
        }
        assert_eq!(Weights::Linear.matrix(&values)[1], 0.75);
        assert_eq!(Weights::Quadratic.matrix(&values)[2], 0.75);
        assert_eq!(Weights::Ordinal.matrix(&values)[1], 0.9);
    }

    #[test]
    fn one_dominant_category_keeps_ac1_high_where_alpha_falls() {
        // 100 items, 3 raters each: 97 all "no", 3 with one "yes" among "no"s.
        let mut counts = Vec::new();
        for i in 0..100 {
            counts.extend_from_slice(if i < 3 { &[2, 1] } else { &[3, 0] });
        }
        let ac1 = gwet_ac(&counts, 2, &Weights::Identity.matrix(&[0.0, 1.0])).unwrap();
        let alpha =
            crate::agreement::krippendorff_alpha(&counts, 2, &crate::agreement::Level::Nominal)
                .unwrap();
        assert!(ac1 > 0.9 && alpha < 0.1, "AC1 {ac1}, α {alpha}");
    }
}
