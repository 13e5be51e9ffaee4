//! Whether a vote file's classes are a scale, and where each class sits on it.
//!
//! Nominal classes have no order ("cat", "dog"); ordinal ones have an order and nothing more
//! (agree … disagree, ranked 1..K); interval ones are numbers (1–5 stars), so a mean and a
//! distance in scale units mean something. A file whose every class name is a number is read as
//! an interval scale, and the CLI and the app say so in one line ([`Scale::detected_note`]) with
//! how to read it otherwise — never guessed silently.

use serde::{Deserialize, Serialize};

/// How the classes relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScaleKind {
    Nominal,
    Ordinal,
    Interval,
}

impl ScaleKind {
    pub fn parse(s: &str) -> Option<ScaleKind> {
        match s {
            "nominal" => Some(ScaleKind::Nominal),
            "ordinal" => Some(ScaleKind::Ordinal),
            "interval" => Some(ScaleKind::Interval),
            _ => None,
        }
    }
}

/// A scale over a table's classes: each class's value, in the table's class order. Ordinal
/// classes take their rank (1..K) in the declared order; interval ones their number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scale {
    pub kind: ScaleKind,
    pub values: Vec<f64>,
}

impl Scale {
    /// Every class name a finite number (at least two, all different): an interval scale.
    pub fn detect(classes: &[String]) -> Option<Scale> {
        let values: Vec<f64> = classes
            .iter()
            .map(|c| c.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect::<Option<_>>()?;
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        let distinct = sorted.windows(2).all(|w| w[0] < w[1]);
        (values.len() >= 2 && distinct).then_some(Scale {
            kind: ScaleKind::Interval,
            values,
        })
    }

    /// The scale the user declared: `kind` over `classes`, ordinal in `order` (class names, every
    /// class once; default: the table's order), interval from the class names' numbers.
    pub fn declared(
        kind: ScaleKind,
        classes: &[String],
        order: Option<&[String]>,
    ) -> Result<Scale, String> {
        match kind {
            ScaleKind::Nominal => Err("a nominal scale has no values".into()),
            ScaleKind::Interval => Scale::detect(classes).ok_or_else(|| {
                format!(
                    "an interval scale needs every class to be a number; the classes are {}",
                    classes.join(", ")
                )
            }),
            ScaleKind::Ordinal => {
                let order: Vec<String> = order.map_or_else(|| classes.to_vec(), <[_]>::to_vec);
                let mut values = Vec::with_capacity(classes.len());
                for c in classes {
                    let rank = order.iter().position(|o| o == c).ok_or_else(|| {
                        format!("--order does not name the class {c:?}; give every class once")
                    })?;
                    values.push(rank as f64 + 1.0);
                }
                if order.len() != classes.len() {
                    return Err(format!(
                        "--order names {} classes; the votes have {}: give every class once",
                        order.len(),
                        classes.len()
                    ));
                }
                Ok(Scale {
                    kind: ScaleKind::Ordinal,
                    values,
                })
            }
        }
    }

    /// The class indices from the lowest value to the highest.
    pub fn ascending(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.values.len()).collect();
        idx.sort_by(|&a, &b| self.values[a].total_cmp(&self.values[b]));
        idx
    }

    /// "1–5", the scale's ends.
    pub fn range(&self) -> String {
        let a = self.ascending();
        let (lo, hi) = (self.values[a[0]], self.values[a[a.len() - 1]]);
        format!("{}–{}", fmt_value(lo), fmt_value(hi))
    }

    /// The line that says a scale was read from the class names, and how to read them otherwise.
    pub fn detected_note(&self) -> String {
        format!(
            "classes read as a {} scale; use --scale nominal if they are not",
            self.range()
        )
    }
}

fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn numbers_are_detected_and_words_are_not() {
        let s = Scale::detect(&names(&["1", "2", "3", "4", "5"])).unwrap();
        assert_eq!(s.kind, ScaleKind::Interval);
        assert_eq!(s.range(), "1–5");
        assert_eq!(
            s.detected_note(),
            "classes read as a 1–5 scale; use --scale nominal if they are not"
        );
        assert!(Scale::detect(&names(&["cat", "dog"])).is_none());
        assert!(
            Scale::detect(&names(&["1", "1.0"])).is_none(),
            "two classes at one value"
        );
        assert!(Scale::detect(&names(&["7"])).is_none());
        let s = Scale::detect(&names(&["0.5", "-1", "2"])).unwrap();
        assert_eq!(s.ascending(), vec![1, 0, 2]);
    }

    #[test]
    fn ordinal_order_ranks_the_classes_and_refuses_a_partial_order() {
        let classes = names(&["agree", "neutral", "disagree"]);
        let order = names(&["disagree", "neutral", "agree"]);
        let s = Scale::declared(ScaleKind::Ordinal, &classes, Some(&order)).unwrap();
        assert_eq!(s.values, vec![3.0, 2.0, 1.0]);
        let short = names(&["disagree", "agree"]);
        assert!(Scale::declared(ScaleKind::Ordinal, &classes, Some(&short)).is_err());
        assert!(Scale::declared(ScaleKind::Interval, &classes, None).is_err());
    }
}
