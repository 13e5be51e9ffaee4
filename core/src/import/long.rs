//! Long format: one row per vote, `item_id,annotator_id,label`.
//!
//! Classes are the distinct labels, sorted numerically when every label is a number (ordinal scales
//! such as 1..5 stay in scale order) and lexicographically otherwise, so the result does not depend
//! on row order. Items keep their first-appearance order.

use super::{validate_classes, ImportError, ImportErrorKind};
use crate::votes::{Annotation, VoteTable};
use std::collections::HashMap;

pub(super) fn parse_long(
    rows: impl Iterator<Item = Result<(u64, csv::StringRecord), ImportError>>,
) -> Result<VoteTable, ImportError> {
    let mut item_index: HashMap<String, u32> = HashMap::new();
    let mut item_ids: Vec<String> = Vec::new();
    let mut annotator_index: HashMap<String, u32> = HashMap::new();
    let mut annotator_ids: Vec<String> = Vec::new();
    let mut label_index: HashMap<String, u32> = HashMap::new();
    let mut labels: Vec<String> = Vec::new();
    // (item, annotator, raw label index), relabelled once the class order is known.
    let mut raw: Vec<(u32, u32, u32)> = Vec::new();
    for row in rows {
        let (line, rec) = row?;
        if rec.len() != 3 {
            let kind = if rec.len() > 3 {
                ImportErrorKind::MixedFormats {
                    detail: format!("a long-format header but a row with {} columns", rec.len()),
                }
            } else {
                ImportErrorKind::WrongColumnCount {
                    expected: 3,
                    found: rec.len(),
                }
            };
            return Err(ImportError::line(line, kind));
        }
        let id = rec[0].trim();
        if id.is_empty() {
            return Err(ImportError::at(line, 1, ImportErrorKind::EmptyItemId));
        }
        let label = rec[2].trim();
        if label.is_empty() {
            return Err(ImportError::at(line, 3, ImportErrorKind::EmptyLabel));
        }
        let item = intern(&mut item_index, &mut item_ids, id);
        let annotator = intern(&mut annotator_index, &mut annotator_ids, rec[1].trim());
        let l = intern(&mut label_index, &mut labels, label);
        raw.push((item, annotator, l));
    }
    if raw.is_empty() {
        return Err(ImportError::whole(ImportErrorKind::NoItems));
    }
    let mut order: Vec<usize> = (0..labels.len()).collect();
    let numeric: Option<Vec<f64>> = labels.iter().map(|l| l.parse::<f64>().ok()).collect();
    match numeric {
        Some(v) => order.sort_by(|&a, &b| v[a].total_cmp(&v[b])),
        None => order.sort_by(|&a, &b| labels[a].cmp(&labels[b])),
    }
    let classes: Vec<String> = order.iter().map(|&o| labels[o].clone()).collect();
    if classes.len() < 2 {
        return Err(ImportError::whole(ImportErrorKind::FewerThanTwoClasses {
            found: classes.len(),
        }));
    }
    validate_classes(&classes).map_err(|e| ImportError {
        line: None,
        column: Some(3),
        ..e
    })?;
    let mut rank = vec![0u16; labels.len()];
    for (new, &old) in order.iter().enumerate() {
        rank[old] = new as u16;
    }
    let k = classes.len();
    let mut counts = vec![0u32; item_ids.len() * k];
    let annotations: Vec<Annotation> = raw
        .into_iter()
        .map(|(item, annotator, l)| {
            let label = rank[l as usize];
            counts[item as usize * k + label as usize] += 1;
            Annotation {
                item,
                annotator,
                label,
            }
        })
        .collect();
    Ok(VoteTable::new(classes, item_ids, counts).with_annotations(annotator_ids, annotations))
}

fn intern(index: &mut HashMap<String, u32>, names: &mut Vec<String>, name: &str) -> u32 {
    if let Some(&i) = index.get(name) {
        return i;
    }
    let i = names.len() as u32;
    index.insert(name.to_string(), i);
    names.push(name.to_string());
    i
}
