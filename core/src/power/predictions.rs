//! A model's per-item predictions as `annosat compare` and the Plan room's comparison read them:
//! a CSV (`item_id` and one probability column per class, or `item_id,label`), a JSONL
//! (`{"item_id": …, "probs": {class: p, …}}` or `{"item_id": …, "label": …}`), or one arm of a
//! model export. Class names are matched to the vote file's with worth's rules
//! ([`crate::worth::class_map`]: same name, another case, the NLI letters), so a prediction file
//! and a second vote source are accepted and refused alike.

use crate::models::Manifest;
use crate::votes::VoteTable;
use crate::worth::class_map;
use std::collections::HashMap;

/// One model's predictions: item ids and, per item, a distribution over its own class names.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Predictions {
    pub classes: Vec<String>,
    pub item_ids: Vec<String>,
    /// items × classes, each row summing to 1.
    pub probs: Vec<f64>,
    /// Whether the file gave labels (each row one-hot) rather than distributions.
    pub labels: bool,
}

/// Two models' predictions on the vote file's shared items, in its order and class order.
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    /// The vote file cut to the items both models predict.
    pub table: VoteTable,
    /// items × K of model A and of model B.
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    /// What the matching dropped ("12 items of the votes have no prediction from A"), said beside
    /// the result.
    pub notes: Vec<String>,
}

/// Reads a prediction file by its name's ending (`.jsonl` or CSV).
pub fn parse(name: &str, bytes: &[u8]) -> Result<Predictions, String> {
    let r = if name.to_ascii_lowercase().ends_with(".jsonl") {
        parse_jsonl(bytes)
    } else {
        parse_csv(bytes)
    };
    r.map_err(|e| format!("{name}: {e}"))
}

fn parse_csv(bytes: &[u8]) -> Result<Predictions, String> {
    let mut r = csv::ReaderBuilder::new()
        .flexible(false)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let header: Vec<String> = r
        .headers()
        .map_err(|e| e.to_string())?
        .iter()
        .map(str::to_string)
        .collect();
    if header.first().map(String::as_str) != Some("item_id") || header.len() < 2 {
        return Err("the first column must be item_id, then one column per class (probabilities) or one column named label".into());
    }
    let labels = header.len() == 2 && matches!(header[1].as_str(), "label" | "prediction");
    let mut rows: Vec<(String, Row)> = Vec::new();
    for (line, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| e.to_string())?;
        let id = rec[0].to_string();
        let row = if labels {
            Row::Label(rec[1].to_string())
        } else {
            let mut p = Vec::with_capacity(header.len() - 1);
            for (c, v) in header[1..].iter().zip(rec.iter().skip(1)) {
                let x: f64 = v
                    .parse()
                    .map_err(|_| format!("line {}: {c} is {v:?}, not a probability", line + 2))?;
                p.push((c.clone(), x));
            }
            Row::Probs(p)
        };
        rows.push((id, row));
    }
    build(rows, labels)
}

fn parse_jsonl(bytes: &[u8]) -> Result<Predictions, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    let mut rows = Vec::new();
    let mut labels = None;
    for (line, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value =
            serde_json::from_str(l).map_err(|e| format!("line {}: {e}", line + 1))?;
        let id = match &v["item_id"] {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => return Err(format!("line {}: no item_id", line + 1)),
        };
        let row = if let Some(obj) = v["probs"].as_object() {
            let mut p = Vec::with_capacity(obj.len());
            for (c, x) in obj {
                let x = x
                    .as_f64()
                    .ok_or_else(|| format!("line {}: probs.{c} is not a number", line + 1))?;
                p.push((c.clone(), x));
            }
            Row::Probs(p)
        } else if let Some(s) = v["label"].as_str() {
            Row::Label(s.to_string())
        } else {
            return Err(format!(
                "line {}: give \"probs\": {{class: probability, …}} or \"label\": class",
                line + 1
            ));
        };
        let is_label = matches!(row, Row::Label(_));
        if *labels.get_or_insert(is_label) != is_label {
            return Err("every line gives probs, or every line gives a label, not both".into());
        }
        rows.push((id, row));
    }
    build(rows, labels.unwrap_or(false))
}

enum Row {
    Probs(Vec<(String, f64)>),
    Label(String),
}

fn build(rows: Vec<(String, Row)>, labels: bool) -> Result<Predictions, String> {
    if rows.is_empty() {
        return Err("no predictions".into());
    }
    let mut classes: Vec<String> = Vec::new();
    let index = |c: &str, classes: &mut Vec<String>| -> usize {
        classes.iter().position(|x| x == c).unwrap_or_else(|| {
            classes.push(c.to_string());
            classes.len() - 1
        })
    };
    let mut sparse: Vec<Vec<(usize, f64)>> = Vec::with_capacity(rows.len());
    let mut ids = Vec::with_capacity(rows.len());
    let mut seen = std::collections::HashSet::new();
    for (id, row) in rows {
        if !seen.insert(id.clone()) {
            return Err(format!("item {id:?} is predicted twice"));
        }
        let r = match row {
            Row::Label(l) => vec![(index(&l, &mut classes), 1.0)],
            Row::Probs(p) => {
                let mut r = Vec::with_capacity(p.len());
                for (c, x) in p {
                    if !(x.is_finite() && x >= 0.0) {
                        return Err(format!("item {id:?}: {c} = {x} is not a probability"));
                    }
                    r.push((index(&c, &mut classes), x));
                }
                let s: f64 = r.iter().map(|x| x.1).sum();
                if s <= 0.0 {
                    return Err(format!("item {id:?}: the probabilities sum to 0"));
                }
                r.iter_mut().for_each(|x| x.1 /= s);
                r
            }
        };
        ids.push(id);
        sparse.push(r);
    }
    let k = classes.len();
    let mut probs = vec![0.0; ids.len() * k];
    for (row, r) in probs.chunks_mut(k).zip(&sparse) {
        for &(j, x) in r {
            row[j] += x;
        }
    }
    Ok(Predictions {
        classes,
        item_ids: ids,
        probs,
        labels,
    })
}

/// One arm of a model export at `n` votes per item (default: the most the sweep trained on):
/// model seed 0 (the smallest), each item from the first split that tests it — a k-fold export
/// predicts every item once.
pub fn of_export(
    m: &Manifest,
    pred: &[u16],
    arm: &str,
    n: Option<u32>,
) -> Result<Predictions, String> {
    let runs: Vec<_> = m.runs.iter().filter(|r| r.arm == arm).collect();
    if runs.is_empty() {
        return Err(format!(
            "the export has no arm {arm:?}; its arms: {}",
            m.arms().join(", ")
        ));
    }
    let n = n.unwrap_or_else(|| runs.iter().map(|r| r.n).max().unwrap_or(0));
    let seed = runs
        .iter()
        .filter(|r| r.n == n)
        .map(|r| r.seed)
        .min()
        .ok_or_else(|| {
            format!(
                "arm {arm:?} was not trained at N = {n}; its N: {:?}",
                m.ns()
            )
        })?;
    let k = m.classes.len();
    let (mut ids, mut probs) = (Vec::new(), Vec::new());
    let mut seen = std::collections::HashSet::new();
    for s in &m.splits {
        let Some(r) = runs
            .iter()
            .find(|r| r.n == n && r.seed == seed && r.split == s.seed)
        else {
            continue;
        };
        let vals = pred
            .get(r.offset..r.offset + s.test_items.len() * k)
            .ok_or("predictions.bin is shorter than the manifest says")?;
        for (id, row) in s.test_items.iter().zip(vals.chunks_exact(k)) {
            if seen.insert(id.clone()) {
                ids.push(id.clone());
                let t: f64 = row.iter().map(|&v| v as f64).sum::<f64>().max(1.0);
                probs.extend(row.iter().map(|&v| v as f64 / t));
            }
        }
    }
    Ok(Predictions {
        classes: m.classes.clone(),
        item_ids: ids,
        probs,
        labels: false,
    })
}

/// Both models on the vote file's items they share, in the vote file's classes (a model may name
/// fewer classes: the others get probability 0). Fails when a class has no match or no item is
/// shared.
pub fn pair(table: &VoteTable, a: &Predictions, b: &Predictions) -> Result<Paired, String> {
    let k = table.num_classes();
    let relabel = |p: &Predictions, who: &str| -> Result<HashMap<String, Vec<f64>>, String> {
        let map = class_map(table.classes(), &p.classes).ok_or_else(|| {
            format!(
                "model {who}'s classes ({}) are not the votes' ({}); name the same classes (fewer, any order and case; e, n, c for entailment, neutral, contradiction)",
                p.classes.join(", "),
                table.classes().join(", ")
            )
        })?;
        let kp = p.classes.len();
        Ok(p.item_ids
            .iter()
            .zip(p.probs.chunks_exact(kp))
            .map(|(id, row)| {
                let mut q = vec![0.0; k];
                for (&j, &x) in map.iter().zip(row) {
                    q[j] += x;
                }
                (id.clone(), q)
            })
            .collect())
    };
    let (ma, mb) = (relabel(a, "A")?, relabel(b, "B")?);
    let mut keep = Vec::new();
    let (mut qa, mut qb) = (Vec::new(), Vec::new());
    let (mut no_a, mut no_b) = (0usize, 0usize);
    for (i, id) in table.item_ids().iter().enumerate() {
        match (ma.get(id), mb.get(id)) {
            (Some(x), Some(y)) => {
                keep.push(i);
                qa.extend_from_slice(x);
                qb.extend_from_slice(y);
            }
            (x, y) => {
                no_a += x.is_none() as usize;
                no_b += y.is_none() as usize;
            }
        }
    }
    if keep.is_empty() {
        return Err("no item of the votes has a prediction from both models (item_id must match the vote file's)".into());
    }
    let mut notes = Vec::new();
    for (who, missing) in [("A", no_a), ("B", no_b)] {
        if missing > 0 {
            notes.push(format!(
                "{missing} item(s) of the votes have no prediction from model {who} and are left out"
            ));
        }
    }
    let ids: Vec<String> = keep.iter().map(|&i| table.item_ids()[i].clone()).collect();
    let counts: Vec<u32> = keep
        .iter()
        .flat_map(|&i| table.counts(i).iter().copied())
        .collect();
    Ok(Paired {
        table: VoteTable::new(table.classes().to_vec(), ids, counts),
        a: qa,
        b: qb,
        notes,
    })
}
