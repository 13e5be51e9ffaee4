//! Which text fields an item has, and how their embeddings become one feature vector for a head.
//!
//! Layouts (d = encoder width):
//! - **pair** (`premise`, `hypothesis`; NLI): `[u, v, |u−v|, u∗v]`, 4d — the classic sentence-pair
//!   features (InferSent, SBERT), with premise and hypothesis embedded separately.
//! - **abductive** (`obs1`, `obs2`, `hyp1`, `hyp2`; αNLI): context c = obs1 + " " + obs2, then
//!   `[c, h1−h2, c∗h1, c∗h2]`, 4d: the classes are "hyp1"/"hyp2", so the features keep the order.
//! - **single** (`text`, or the first string field): `[u]`, d.

use anyhow::{bail, Context, Result};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Pair,
    Abductive,
    Single,
}

impl Layout {
    /// The named inputs embedded per item, in storage order.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            Layout::Pair => &["premise", "hypothesis"],
            Layout::Abductive => &["context", "hyp1", "hyp2"],
            Layout::Single => &["text"],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Layout::Pair => "pair [u, v, |u-v|, u*v]",
            Layout::Abductive => "abductive [c, h1-h2, c*h1, c*h2]",
            Layout::Single => "single [u]",
        }
    }

    /// Feature width for encoder width `d`.
    pub fn width(self, d: usize) -> usize {
        match self {
            Layout::Single => d,
            _ => 4 * d,
        }
    }

    /// Writes one item's features from its field embeddings (each of length d, in `fields()` order).
    pub fn combine(self, e: &[&[f32]], out: &mut Vec<f32>) {
        match self {
            Layout::Pair => {
                let (u, v) = (e[0], e[1]);
                out.extend_from_slice(u);
                out.extend_from_slice(v);
                out.extend(u.iter().zip(v).map(|(a, b)| (a - b).abs()));
                out.extend(u.iter().zip(v).map(|(a, b)| a * b));
            }
            Layout::Abductive => {
                let (c, h1, h2) = (e[0], e[1], e[2]);
                out.extend_from_slice(c);
                out.extend(h1.iter().zip(h2).map(|(a, b)| a - b));
                out.extend(c.iter().zip(h1).map(|(a, b)| a * b));
                out.extend(c.iter().zip(h2).map(|(a, b)| a * b));
            }
            Layout::Single => out.extend_from_slice(e[0]),
        }
    }
}

/// Every item's input texts, in the order of `item_ids` (the vote table's rows).
pub struct ItemTexts {
    pub layout: Layout,
    /// `texts[f][i]`: field f of item i.
    pub texts: Vec<Vec<String>>,
}

type Object = serde_json::Map<String, serde_json::Value>;

/// The objects of an `items.jsonl` by `item_id` (errors name the line; `what` names the file).
pub fn jsonl_objects(body: &str, what: &str) -> Result<HashMap<String, Object>> {
    let mut by_id = HashMap::new();
    for (n, line) in body
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("{what}:{}: not JSON", n + 1))?;
        let serde_json::Value::Object(obj) = v else {
            bail!("{what}:{}: expected a JSON object", n + 1)
        };
        let id = match obj.get("item_id") {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => bail!("{what}:{}: no item_id", n + 1),
        };
        by_id.insert(id, obj);
    }
    Ok(by_id)
}

/// How to read texts from items with these string fields: the layout, and for [`Layout::Single`]
/// the field (`text`, else the first string field other than `item_id`).
pub fn layout_of(fields: &[&str]) -> Option<(Layout, String)> {
    let has = |k: &str| fields.contains(&k);
    if has("premise") && has("hypothesis") {
        Some((Layout::Pair, String::new()))
    } else if has("obs1") && has("hyp1") && has("hyp2") {
        Some((Layout::Abductive, String::new()))
    } else if has("text") {
        Some((Layout::Single, "text".into()))
    } else {
        fields
            .iter()
            .find(|k| **k != "item_id")
            .map(|k| (Layout::Single, k.to_string()))
    }
}

/// One item's inputs in `layout.fields()` order (missing fields are empty).
pub fn row_texts(layout: Layout, single: &str, get: impl Fn(&str) -> String) -> Vec<String> {
    match layout {
        Layout::Pair => vec![get("premise"), get("hypothesis")],
        Layout::Abductive => vec![
            format!("{} {}", get("obs1"), get("obs2")),
            get("hyp1"),
            get("hyp2"),
        ],
        Layout::Single => vec![get(single)],
    }
}

/// The layout of the objects of a jsonl file, from their first object's string fields.
pub fn jsonl_layout(by_id: &HashMap<String, Object>, what: &str) -> Result<(Layout, String)> {
    let first = by_id
        .values()
        .next()
        .with_context(|| format!("{what} has no items"))?;
    let fields: Vec<&str> = first
        .iter()
        .filter(|(_, v)| v.is_string())
        .map(|(k, _)| k.as_str())
        .collect();
    layout_of(&fields).with_context(|| format!("{what}: items have no text field"))
}

/// A string field of an object ("" when absent or not a string).
pub fn field(o: &Object, k: &str) -> String {
    o.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string()
}

/// Parses `items.jsonl` (one JSON object per line with `item_id` and text fields) and picks the
/// layout from the fields the items have; `item_ids` gives the order (the vote table's rows). Errors
/// name the line (`what` names the file).
pub fn parse_jsonl(body: &str, item_ids: &[String], what: &str) -> Result<ItemTexts> {
    let by_id = jsonl_objects(body, what)?;
    let (layout, single) = jsonl_layout(&by_id, what)?;
    let mut texts = vec![Vec::with_capacity(item_ids.len()); layout.fields().len()];
    for id in item_ids {
        let o = by_id
            .get(id)
            .with_context(|| format!("{what}: no text for item {id:?}"))?;
        for (f, t) in row_texts(layout, &single, |k| field(o, k))
            .into_iter()
            .enumerate()
        {
            texts[f].push(t);
        }
    }
    Ok(ItemTexts { layout, texts })
}

impl ItemTexts {
    /// Every distinct text, longest first (stable on ties): batches then pad little, and the order
    /// — hence every batch — is the same wherever it runs.
    pub fn unique_longest_first(&self) -> Vec<&str> {
        let mut unique: Vec<&str> = self.texts.iter().flatten().map(String::as_str).collect();
        unique.sort_unstable();
        unique.dedup();
        unique.sort_by_key(|t| std::cmp::Reverse(t.len()));
        unique
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_features_are_u_v_absdiff_product() {
        let mut out = Vec::new();
        Layout::Pair.combine(&[&[1.0, -2.0], &[3.0, 0.5]], &mut out);
        assert_eq!(out, vec![1.0, -2.0, 3.0, 0.5, 2.0, 2.5, 3.0, -1.0]);
        assert_eq!(Layout::Pair.width(2), out.len());
    }

    #[test]
    fn abductive_features_keep_hypothesis_order() {
        let mut a = Vec::new();
        let mut b = Vec::new();
        Layout::Abductive.combine(&[&[1.0], &[2.0], &[5.0]], &mut a);
        Layout::Abductive.combine(&[&[1.0], &[5.0], &[2.0]], &mut b);
        assert_eq!(a, vec![1.0, -3.0, 2.0, 5.0]);
        assert_ne!(a, b, "swapping the hypotheses must change the features");
    }
}
