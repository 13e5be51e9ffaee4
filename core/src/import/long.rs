//! Long format: one row per vote, `item_id,annotator_id,label`.
//!
//! Classes are the distinct labels, sorted numerically when every label is a number (ordinal scales
//! such as 1..5 stay in scale order) and lexicographically otherwise, so the result does not depend
//! on row order. Items keep their first-appearance order.

use super::{validate_classes, ImportError, ImportErrorKind, TextColumn};
use crate::votes::{Annotation, VoteTable};
use std::collections::HashMap;

/// `header` and `text_cols` (indices of text columns in it): the three vote columns are the others,
/// in the order item_id, annotator_id, label.
pub(super) fn parse_long(
    rows: impl Iterator<Item = Result<(u64, csv::StringRecord), ImportError>>,
    header: &[String],
    text_cols: &[usize],
    max_items: Option<usize>,
) -> Result<(VoteTable, Vec<TextColumn>), ImportError> {
    let vote_cols: Vec<usize> = (0..header.len())
        .filter(|j| !text_cols.contains(j))
        .collect();
    let (c_item, c_ann, c_label) = (vote_cols[0], vote_cols[1], vote_cols[2]);
    let width = header.len();
    let mut texts = TextColumn::empty(header, text_cols);
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
        if rec.len() != width {
            let kind = if rec.len() > width {
                ImportErrorKind::MixedFormats {
                    detail: format!("a long-format header but a row with {} columns", rec.len()),
                }
            } else {
                ImportErrorKind::WrongColumnCount {
                    expected: width,
                    found: rec.len(),
                }
            };
            return Err(ImportError::line(line, kind));
        }
        let id = rec[c_item].trim();
        if id.is_empty() {
            return Err(ImportError::at(
                line,
                c_item + 1,
                ImportErrorKind::EmptyItemId,
            ));
        }
        let label = rec[c_label].trim();
        if label.is_empty() {
            return Err(ImportError::at(
                line,
                c_label + 1,
                ImportErrorKind::EmptyLabel,
            ));
        }
        let item = intern(&mut item_index, &mut item_ids, id);
        if let Some(limit) = max_items.filter(|&m| item_ids.len() > m) {
            return Err(ImportError::line(
                line,
                ImportErrorKind::TooManyItems { limit },
            ));
        }
        for (t, &col) in texts.iter_mut().zip(text_cols) {
            if t.values.len() <= item as usize {
                t.values.resize(item as usize + 1, String::new());
            }
            if t.values[item as usize].is_empty() {
                t.values[item as usize] = rec[col].trim().to_string();
            }
        }
        let who = rec[c_ann].trim();
        if who.is_empty() {
            return Err(ImportError::at(
                line,
                c_ann + 1,
                ImportErrorKind::EmptyAnnotatorId,
            ));
        }
        let annotator = intern(&mut annotator_index, &mut annotator_ids, who);
        let l = intern(&mut label_index, &mut labels, label);
        raw.push((item, annotator, l));
    }
    if raw.is_empty() {
        return Err(ImportError::whole(ImportErrorKind::NoItems));
    }
    if let Some((item, annotator, a, b)) = two_labels(&raw) {
        return Err(ImportError::whole(ImportErrorKind::Multilabel {
            evidence: format!(
                "annotator {} gave item {} both {} and {}",
                annotator_ids[annotator as usize],
                item_ids[item as usize],
                labels[a as usize],
                labels[b as usize]
            ),
        }));
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
    for t in &mut texts {
        t.values.resize(item_ids.len(), String::new());
    }
    Ok((
        VoteTable::new(classes, item_ids, counts).with_annotations(annotator_ids, annotations),
        texts,
    ))
}

/// The first (item, annotator) with two different labels, by item and annotator order: the sign of
/// multilabel votes. (The same label twice is a repeated row, counted as the file says.)
fn two_labels(raw: &[(u32, u32, u32)]) -> Option<(u32, u32, u32, u32)> {
    let mut keyed: Vec<(u64, u32)> = raw
        .iter()
        .map(|&(item, annotator, l)| (((item as u64) << 32) | annotator as u64, l))
        .collect();
    keyed.sort_unstable();
    keyed
        .windows(2)
        .find(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
        .map(|w| ((w[0].0 >> 32) as u32, w[0].0 as u32, w[0].1, w[1].1))
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
