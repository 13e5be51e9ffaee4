//! Krippendorff's α of the items' votes, on the full data and on N-vote subsamples
//! (`annosat agree`).
//!
//! From each item's class counts alone (no annotator ids needed): with n_uc votes of class c on
//! item u (n_u votes in all), the coincidences are o_ck = Σ_u (n_uc·n_uk − [c = k]·n_uc) / (n_u − 1)
//! over items with at least two votes, n_c = Σ_k o_ck, n = Σ_c n_c, and
//!
//!   α = 1 − (n − 1) · Σ_{c,k} o_ck·δ²_ck / Σ_{c,k} n_c·n_k·δ²_ck
//!
//! with the level's difference δ²: nominal [c ≠ k]; ordinal (Σ_{g from c to k} n_g − (n_c + n_k)/2)²
//! over the classes in their order; interval (v_c − v_k)² of the classes' numeric values
//! (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"). The PyPI package
//! `krippendorff` computes the same from the same value counts; tests/reference/
//! krippendorff_reference.py and trainer/tests/agree.rs compare the two at every level.

use crate::curves::CurvePoint;
use crate::sample;
use crate::votes::VoteTable;

const PURPOSE_AGREE: u64 = 0xA_9;

/// Which differences between classes count as disagreement, and how much.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Level {
    /// Any two different classes disagree equally.
    Nominal,
    /// Classes are ranks: `order` lists the class indices from lowest to highest; a difference
    /// counts by how many votes lie between the two ranks.
    Ordinal { order: Vec<usize> },
    /// Classes are numbers (`values[c]` of class c); a difference counts by its square.
    Interval { values: Vec<f64> },
}

impl Level {
    /// The level called `name` ("nominal", "ordinal", "interval") on `classes`: ordinal ranks them
    /// in `order` (class names, lowest first; empty: the table's class order), interval reads the
    /// class names as numbers. The CLI's flags and the Plan room's choice both come through here.
    pub fn from_choice(name: &str, classes: &[String], order: &[String]) -> Result<Level, String> {
        if !order.is_empty() && name != "ordinal" {
            return Err("an order of the classes is for the ordinal level".into());
        }
        match name {
            "nominal" => Ok(Level::Nominal),
            "interval" => classes
                .iter()
                .map(|c| {
                    c.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| {
                        format!("interval α needs numeric classes; {c:?} is not a number (ordinal α ranks named classes)")
                    })
                })
                .collect::<Result<_, _>>()
                .map(|values| Level::Interval { values }),
            "ordinal" if order.is_empty() => Ok(Level::Ordinal {
                order: (0..classes.len()).collect(),
            }),
            "ordinal" => {
                let mut idx = Vec::new();
                for name in order {
                    let Some(i) = classes.iter().position(|c| c == name.trim()) else {
                        return Err(format!("the order names {name:?}, which is not a class; the classes are {classes:?}"));
                    };
                    if idx.contains(&i) {
                        return Err(format!("the order names {name:?} twice"));
                    }
                    idx.push(i);
                }
                if idx.len() != classes.len() {
                    return Err(format!("the order must name every class once; the classes are {classes:?}"));
                }
                Ok(Level::Ordinal { order: idx })
            }
            other => Err(format!("unknown level {other:?}: nominal, ordinal or interval")),
        }
    }

    /// Whether the level fits `k` classes (a level built for another table does not).
    fn fits(&self, k: usize) -> bool {
        match self {
            Level::Nominal => true,
            Level::Ordinal { order } => order.len() == k && order.iter().all(|&c| c < k),
            Level::Interval { values } => values.len() == k,
        }
    }

    /// Where the classes sit on the level's scale (interval: their numbers; ordinal: their rank,
    /// 1 = lowest); `None` for nominal classes.
    pub fn scale_values(&self) -> Option<Vec<f64>> {
        match self {
            Level::Nominal => None,
            Level::Interval { values } => Some(values.clone()),
            Level::Ordinal { order } => {
                let mut v = vec![0.0; order.len()];
                for (rank, &c) in order.iter().enumerate() {
                    v[c] = rank as f64 + 1.0;
                }
                Some(v)
            }
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Level::Nominal => "nominal",
            Level::Ordinal { .. } => "ordinal",
            Level::Interval { .. } => "interval",
        }
    }

    /// δ²_ck for every pair, from the coincidence marginals `nc` (used by ordinal).
    fn distances(&self, nc: &[f64]) -> Vec<f64> {
        let k = nc.len();
        let mut d = vec![0.0; k * k];
        for c in 0..k {
            for kk in 0..k {
                d[c * k + kk] = match self {
                    Level::Nominal => (c != kk) as u8 as f64,
                    Level::Interval { values } => {
                        let d = values[c] - values[kk];
                        d * d
                    }
                    Level::Ordinal { order } => {
                        let pos = |x: usize| order.iter().position(|&o| o == x).unwrap();
                        let (a, b) = (pos(c).min(pos(kk)), pos(c).max(pos(kk)));
                        let between: f64 = order[a..=b].iter().map(|&g| nc[g]).sum();
                        {
                            let d = between - (nc[c] + nc[kk]) / 2.0;
                            d * d
                        }
                    }
                };
            }
        }
        d
    }
}

/// α of items given as rows of `k` class counts (row-major); `None` when no item has two votes or
/// there is no expected disagreement (every vote of one class). Nominal: `krippendorff_alpha(c, k,
/// &Level::Nominal)`.
pub fn krippendorff_alpha(counts: &[u32], k: usize, level: &Level) -> Option<f64> {
    if !level.fits(k) {
        return None;
    }
    let mut o = vec![0.0f64; k * k];
    let mut any = false;
    for row in counts.chunks(k) {
        let n: u32 = row.iter().sum();
        if n < 2 {
            continue;
        }
        any = true;
        let w = 1.0 / (n - 1) as f64;
        for c in 0..k {
            for kk in 0..k {
                let same = if c == kk { row[c] as f64 } else { 0.0 };
                o[c * k + kk] += (row[c] as f64 * row[kk] as f64 - same) * w;
            }
        }
    }
    if !any {
        return None;
    }
    let nc: Vec<f64> = (0..k).map(|c| o[c * k..(c + 1) * k].iter().sum()).collect();
    let n: f64 = nc.iter().sum();
    let d = level.distances(&nc);
    let (mut observed, mut expected) = (0.0, 0.0);
    for c in 0..k {
        for kk in 0..k {
            if c != kk {
                observed += o[c * k + kk] * d[c * k + kk];
                expected += nc[c] * nc[kk] * d[c * k + kk];
            }
        }
    }
    (expected > 0.0).then(|| 1.0 - (n - 1.0) * observed / expected)
}

/// One agreement coefficient (α of a level, Gwet's AC with its weights: `kind`) at each N of
/// `grid` over `repeats` seeded subsamples (each item's N votes without replacement; items with
/// fewer than N votes left out at that N), and of all the votes.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CoefCurve<K> {
    pub kind: K,
    pub grid: Vec<u32>,
    pub repeats: u32,
    /// Items used at each N.
    pub items: Vec<u32>,
    /// The coefficient of the full data.
    pub full: Option<f64>,
    /// `values[g * repeats + r]`; NaN where undefined.
    values: Vec<f64>,
}

/// Krippendorff's α of a level at every N.
pub type AlphaCurve = CoefCurve<Level>;

impl<K> CoefCurve<K> {
    /// The same curve under another kind (the shared computation tags its coefficients first).
    pub fn retag<L>(self, f: impl FnOnce(K) -> L) -> CoefCurve<L> {
        CoefCurve {
            kind: f(self.kind),
            grid: self.grid,
            repeats: self.repeats,
            items: self.items,
            full: self.full,
            values: self.values,
        }
    }

    pub fn point_at(&self, g: usize) -> CurvePoint {
        let r = self.repeats as usize;
        let v = self.values[g * r..(g + 1) * r]
            .iter()
            .copied()
            .filter(|x| !x.is_nan())
            .collect();
        CurvePoint::of_repeats(self.grid[g], v)
    }
}

/// A coefficient of rows of class counts (row-major, the table's classes).
pub type Coefficient<'a> = &'a dyn Fn(&[u32]) -> Option<f64>;

/// Every coefficient of `coefs` (with its kind) on the same subsamples of `table` at each N of
/// `grid` (empty: 2..=max votes; N = 1 has no pairs), and on all the votes.
pub fn coefficient_curves<K: Clone>(
    table: &VoteTable,
    coefs: &[(K, Coefficient)],
    grid: &[u32],
    repeats: u32,
    seed: u64,
) -> Vec<CoefCurve<K>> {
    let k = table.num_classes();
    let mut grid: Vec<u32> = if grid.is_empty() {
        (2..=table.max_total()).collect()
    } else {
        grid.to_vec()
    };
    grid.sort_unstable();
    grid.dedup();
    grid.retain(|&n| n >= 2 && n <= table.max_total());
    let all: Vec<u32> = (0..table.num_items())
        .flat_map(|i| table.counts(i).iter().copied())
        .collect();
    let nr = repeats as usize;
    let mut values = vec![vec![f64::NAN; grid.len() * nr]; coefs.len()];
    let mut items = vec![0u32; grid.len()];
    let mut sub = Vec::with_capacity(all.len());
    for (g, &n) in grid.iter().enumerate() {
        for r in 0..repeats {
            sub.clear();
            for i in 0..table.num_items() {
                let mut rng = sample::stream(seed, PURPOSE_AGREE, i as u64, r as u64);
                if let Some(c) = sample::subsample_counts(table.counts(i), n, &mut rng) {
                    sub.extend(c);
                }
            }
            items[g] = (sub.len() / k) as u32;
            for (v, (_, coef)) in values.iter_mut().zip(coefs) {
                if let Some(a) = coef(&sub) {
                    v[g * nr + r as usize] = a;
                }
            }
        }
    }
    coefs
        .iter()
        .zip(values)
        .map(|((kind, coef), values)| CoefCurve {
            kind: kind.clone(),
            grid: grid.clone(),
            repeats,
            items: items.clone(),
            full: coef(&all),
            values,
        })
        .collect()
}

/// The α curve of `table` for `grid` (empty: 2..=max votes; N = 1 has no pairs).
pub fn alpha_curve(
    table: &VoteTable,
    level: &Level,
    grid: &[u32],
    repeats: u32,
    seed: u64,
) -> AlphaCurve {
    let k = table.num_classes();
    let alpha = |c: &[u32]| krippendorff_alpha(c, k, level);
    let coefs: [(Level, Coefficient); 1] = [(level.clone(), &alpha)];
    coefficient_curves(table, &coefs, grid, repeats, seed).remove(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Krippendorff (2011)'s reliability data as value counts per unit: 4 observers, 12 units
    /// (the last with one value, unpairable), values 1–5.
    fn worked_example() -> Vec<u32> {
        let units: [[u32; 5]; 12] = [
            [3, 0, 0, 0, 0],
            [0, 3, 1, 0, 0],
            [0, 0, 4, 0, 0],
            [0, 0, 4, 0, 0],
            [0, 4, 0, 0, 0],
            [1, 1, 1, 1, 0],
            [0, 0, 0, 4, 0],
            [3, 1, 0, 0, 0],
            [0, 4, 0, 0, 0],
            [0, 0, 0, 0, 3],
            [2, 0, 0, 0, 0],
            [0, 0, 1, 0, 0],
        ];
        units.iter().flatten().copied().collect()
    }

    /// Krippendorff (2011)'s worked example, nominal data with missing values: 4 observers, 12
    /// units (the last with one value, unpairable), values 1–5; α = 0.743.
    #[test]
    fn krippendorffs_worked_example() {
        let counts = worked_example();
        let a = krippendorff_alpha(&counts, 5, &Level::Nominal).unwrap();
        assert!((a - 0.743).abs() < 5e-4, "{a}");
    }

    #[test]
    fn perfect_agreement_is_one_and_curves_have_their_grid() {
        let t = VoteTable::new(
            vec!["a".into(), "b".into()],
            (0..4).map(|i| format!("i{i}")).collect(),
            vec![5, 0, 0, 5, 5, 0, 0, 5],
        );
        let all: Vec<u32> = (0..4).flat_map(|i| t.counts(i).to_vec()).collect();
        assert_eq!(krippendorff_alpha(&all, 2, &Level::Nominal), Some(1.0));
        let c = alpha_curve(&t, &Level::Nominal, &[], 3, 1);
        assert_eq!(c.grid, vec![2, 3, 4, 5]);
        assert_eq!(c.point_at(0).mean, Some(1.0));
        assert_eq!(c.items, vec![4; 4]);
        // All votes of one class: no expected disagreement, α undefined.
        assert_eq!(krippendorff_alpha(&[3, 0, 2, 0], 2, &Level::Nominal), None);
    }

    /// Krippendorff (2011)'s example read as ordinal and interval data: his paper gives
    /// α_interval = 0.849 for it; ordinal is checked against the PyPI package in trainer/tests.
    #[test]
    fn worked_example_at_other_levels() {
        let counts = worked_example();
        let interval = Level::Interval {
            values: vec![1.0, 2.0, 3.0, 4.0, 5.0],
        };
        let a = krippendorff_alpha(&counts, 5, &interval).unwrap();
        assert!((a - 0.849).abs() < 5e-4, "{a}");
        // Ordinal in the given order, and reversed: reversing ranks changes nothing.
        let ord = |order: Vec<usize>| krippendorff_alpha(&counts, 5, &Level::Ordinal { order });
        let (up, down) = (ord(vec![0, 1, 2, 3, 4]), ord(vec![4, 3, 2, 1, 0]));
        let (up, down) = (up.unwrap(), down.unwrap());
        assert!((up - down).abs() < 1e-12, "{up} {down}");
        assert!(up > 0.743 && up < 1.0, "{up}");
    }
}
