//! Multilabel import: each annotator may tick any number of labels of an item.
//!
//! Two layouts, detected from the header:
//! - **wide**: `item_id,annotator_id,<label_1>,…,<label_L>` with a 0/1 cell per label, one row per
//!   (item, annotator); a row of zeros is a rating that ticked nothing;
//! - **long**: `item_id,annotator_id,label`, one row per ticked label; an empty label cell is a
//!   rating that ticked nothing. A label named `none` (a task's own "no relation" box) is a label
//!   like any other: annosat never drops it.
//!
//! The annotator column may also be named `annotator`, `worker_id`, `worker`, `rater_id` or
//! `rater`. Text columns ([`super::TEXT_COLUMNS`]) are read as in the single-label import. Labels
//! of a long file are sorted as the single-label long import sorts classes (numerically when all
//! are numbers), so the result does not depend on row order; a wide file keeps its column order.
//! Items keep their first-appearance order. Every inconsistency is an [`ImportError`] with its line.

use super::open::{csv_error, open_csv, OpenCsv};
use super::{parse_count, text_columns, ImportError, ImportErrorKind, TextColumn};
use crate::multilabel::{MultilabelTable, MAX_LABELS};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::io::Read;

/// Header names accepted for the annotator column (lower case).
pub const ANNOTATOR_COLUMNS: [&str; 6] = [
    "annotator_id",
    "annotator",
    "worker_id",
    "worker",
    "rater_id",
    "rater",
];

/// Which multilabel layout a file used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultilabelFormat {
    /// One 0/1 row per (item, annotator).
    Wide,
    /// One row per ticked label.
    Long,
}

/// What the multilabel importer detected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultilabelReport {
    pub format: MultilabelFormat,
    pub delimiter: u8,
    pub texts: Vec<TextColumn>,
}

/// Parses multilabel votes from CSV bytes (either layout).
pub fn parse_multilabel(bytes: &[u8]) -> Result<(MultilabelTable, MultilabelReport), ImportError> {
    parse_multilabel_from(bytes, None)
}

/// [`parse_multilabel`] from any reader, stopping past `max_items` items when given.
pub fn parse_multilabel_from(
    input: impl Read,
    max_items: Option<usize>,
) -> Result<(MultilabelTable, MultilabelReport), ImportError> {
    let OpenCsv {
        delimiter,
        mut reader,
        header,
    } = open_csv(input)?;
    let text_cols = text_columns(&header);
    let vote_cols: Vec<usize> = (0..header.len())
        .filter(|j| !text_cols.contains(j))
        .collect();
    let lower: Vec<String> = vote_cols
        .iter()
        .map(|&j| header[j].trim().to_ascii_lowercase())
        .collect();
    if lower.len() < 3 || !ANNOTATOR_COLUMNS.contains(&lower[1].as_str()) {
        return Err(ImportError::line(
            1,
            ImportErrorKind::NotMultilabel {
                header: header.join(","),
            },
        ));
    }
    let format = if lower.len() == 3 && lower[2] == "label" {
        MultilabelFormat::Long
    } else {
        MultilabelFormat::Wide
    };
    let mut b = Builder::new(&header, &text_cols, max_items);
    let width = header.len();
    let wide_labels: Vec<String> = vote_cols[2..].iter().map(|&j| header[j].clone()).collect();
    if format == MultilabelFormat::Wide {
        check_labels(&wide_labels)?;
    }
    let mut label_index: HashMap<String, u32> = HashMap::new();
    let mut long_labels: Vec<String> = Vec::new();
    for rec in reader.records() {
        let rec = rec.map_err(csv_error)?;
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        ImportError::check_width(line, width, rec.len())?;
        let id = rec[vote_cols[0]].trim();
        if id.is_empty() {
            return Err(ImportError::at(
                line,
                vote_cols[0] + 1,
                ImportErrorKind::EmptyItemId,
            ));
        }
        let annotator = rec[vote_cols[1]].trim();
        if annotator.is_empty() {
            return Err(ImportError::at(
                line,
                vote_cols[1] + 1,
                ImportErrorKind::EmptyAnnotatorId,
            ));
        }
        match format {
            MultilabelFormat::Wide => {
                let mut bits = 0u64;
                for (l, &j) in vote_cols[2..].iter().enumerate() {
                    if binary(&rec[j]).map_err(|k| ImportError::at(line, j + 1, k))? {
                        bits |= 1 << l;
                    }
                }
                b.rating(line, id, annotator, &rec, bits, true)?;
            }
            MultilabelFormat::Long => {
                let label = rec[vote_cols[2]].trim();
                let bits = if label.is_empty() {
                    0
                } else {
                    let next = long_labels.len() as u32;
                    let l = *label_index.entry(label.to_string()).or_insert_with(|| {
                        long_labels.push(label.to_string());
                        next
                    });
                    if l as usize >= MAX_LABELS {
                        return Err(ImportError::at(
                            line,
                            vote_cols[2] + 1,
                            ImportErrorKind::TooManyLabels {
                                found: l as usize + 1,
                            },
                        ));
                    }
                    1u64 << l
                };
                b.rating(line, id, annotator, &rec, bits, false)?;
            }
        }
    }
    if b.item_ids.is_empty() {
        return Err(ImportError::whole(ImportErrorKind::NoItems));
    }
    let labels = match format {
        MultilabelFormat::Wide => wide_labels,
        MultilabelFormat::Long => {
            if long_labels.is_empty() {
                return Err(ImportError::whole(ImportErrorKind::NotMultilabel {
                    header: format!("{} (no label is ticked anywhere)", header.join(",")),
                }));
            }
            b.sort_labels(long_labels)
        }
    };
    let texts = std::mem::take(&mut b.texts);
    let table = MultilabelTable::new(
        labels,
        b.item_ids,
        b.annotator_ids,
        b.ratings
            .into_iter()
            .map(|r| r.into_iter().map(|(a, bits, _)| (a, bits)).collect())
            .collect(),
    );
    Ok((
        table,
        MultilabelReport {
            format,
            delimiter,
            texts,
        },
    ))
}

/// Wide label names: 1..=64, none empty, none twice.
fn check_labels(labels: &[String]) -> Result<(), ImportError> {
    if labels.len() > MAX_LABELS {
        return Err(ImportError::line(
            1,
            ImportErrorKind::TooManyLabels {
                found: labels.len(),
            },
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (j, l) in labels.iter().enumerate() {
        if l.is_empty() {
            return Err(ImportError::at(1, j + 3, ImportErrorKind::EmptyClassName));
        }
        if !seen.insert(l.as_str()) {
            return Err(ImportError::at(
                1,
                j + 3,
                ImportErrorKind::DuplicateClassName(l.clone()),
            ));
        }
    }
    Ok(())
}

/// A 0/1 cell (`0.0`/`1.0` as pandas writes them too).
fn binary(raw: &str) -> Result<bool, ImportErrorKind> {
    match parse_count(raw) {
        Ok(0) => Ok(false),
        Ok(1) => Ok(true),
        _ => Err(ImportErrorKind::NotBinary {
            value: raw.trim().to_string(),
        }),
    }
}

/// Items, annotators and their ratings as rows arrive.
struct Builder<'h> {
    item_index: HashMap<String, u32>,
    item_ids: Vec<String>,
    annotator_index: HashMap<String, u32>,
    annotator_ids: Vec<String>,
    /// Per item: (annotator, label bits, first line), in arrival order.
    ratings: Vec<Vec<(u32, u64, u64)>>,
    /// (item, annotator) → position in `ratings[item]`.
    seen: HashMap<(u32, u32), u32>,
    texts: Vec<TextColumn>,
    text_cols: &'h [usize],
    max_items: Option<usize>,
}

impl<'h> Builder<'h> {
    fn new(header: &[String], text_cols: &'h [usize], max_items: Option<usize>) -> Self {
        Builder {
            item_index: HashMap::new(),
            item_ids: Vec::new(),
            annotator_index: HashMap::new(),
            annotator_ids: Vec::new(),
            ratings: Vec::new(),
            seen: HashMap::new(),
            texts: TextColumn::empty(header, text_cols),
            text_cols,
            max_items,
        }
    }

    /// One row's rating (`whole`: the row is the annotator's whole rating, as in the wide layout;
    /// else it adds one tick, as in the long layout).
    fn rating(
        &mut self,
        line: u64,
        id: &str,
        annotator: &str,
        rec: &csv::StringRecord,
        bits: u64,
        whole: bool,
    ) -> Result<(), ImportError> {
        let item = intern(&mut self.item_index, &mut self.item_ids, id);
        if item as usize == self.ratings.len() {
            self.ratings.push(Vec::new());
            if let Some(limit) = self.max_items.filter(|&m| self.item_ids.len() > m) {
                return Err(ImportError::line(
                    line,
                    ImportErrorKind::TooManyItems { limit },
                ));
            }
        }
        for (t, &col) in self.texts.iter_mut().zip(self.text_cols) {
            if t.values.len() <= item as usize {
                t.values.resize(item as usize + 1, String::new());
            }
            if t.values[item as usize].is_empty() {
                t.values[item as usize] = rec[col].trim().to_string();
            }
        }
        let a = intern(
            &mut self.annotator_index,
            &mut self.annotator_ids,
            annotator,
        );
        let list = &mut self.ratings[item as usize];
        match self.seen.entry((item, a)) {
            Entry::Vacant(v) => {
                v.insert(list.len() as u32);
                list.push((a, bits, line));
            }
            Entry::Occupied(o) => {
                let slot = &mut list[*o.get() as usize];
                let dup = || ImportErrorKind::DuplicateRating {
                    item: id.to_string(),
                    annotator: annotator.to_string(),
                    first_line: slot.2,
                };
                if whole || bits & slot.1 != 0 {
                    return Err(ImportError::line(line, dup()));
                }
                if bits == 0 || slot.1 == 0 {
                    let kind = if bits == slot.1 {
                        dup()
                    } else {
                        ImportErrorKind::InconsistentRating {
                            item: id.to_string(),
                            annotator: annotator.to_string(),
                            first_line: slot.2,
                        }
                    };
                    return Err(ImportError::line(line, kind));
                }
                slot.1 |= bits;
            }
        }
        Ok(())
    }

    /// Sorts a long file's labels (numerically when all are numbers) and renumbers the bits.
    fn sort_labels(&mut self, labels: Vec<String>) -> Vec<String> {
        let mut order: Vec<usize> = (0..labels.len()).collect();
        let numeric: Option<Vec<f64>> = labels.iter().map(|l| l.parse::<f64>().ok()).collect();
        match numeric {
            Some(v) => order.sort_by(|&a, &b| v[a].total_cmp(&v[b])),
            None => order.sort_by(|&a, &b| labels[a].cmp(&labels[b])),
        }
        let mut rank = vec![0u32; labels.len()];
        for (new, &old) in order.iter().enumerate() {
            rank[old] = new as u32;
        }
        for list in &mut self.ratings {
            for r in list.iter_mut() {
                let (mut old, mut new) = (r.1, 0u64);
                while old != 0 {
                    new |= 1 << rank[old.trailing_zeros() as usize];
                    old &= old - 1;
                }
                r.1 = new;
            }
        }
        order.into_iter().map(|o| labels[o].clone()).collect()
    }
}

fn intern(index: &mut HashMap<String, u32>, ids: &mut Vec<String>, key: &str) -> u32 {
    if let Some(&i) = index.get(key) {
        return i;
    }
    let i = ids.len() as u32;
    index.insert(key.to_string(), i);
    ids.push(key.to_string());
    i
}
