//! Wide format: one row per item, `item_id,<class_1>,…,<class_K>` with integer counts.

use super::{
    parse_count, validate_classes, ImportError, ImportErrorKind, ImportOptions, TextColumn,
};
use crate::votes::{VoteTable, MAX_CLASSES};

type Rows<'a> = dyn Iterator<Item = Result<(u64, csv::StringRecord), ImportError>> + 'a;

/// A wide table: the table, the skipped zero-vote items, and the text columns.
type Wide = (VoteTable, Vec<String>, Vec<TextColumn>);

pub(super) fn parse_wide<'a>(
    header: &[String],
    text_cols: &[usize],
    rows: impl Iterator<Item = Result<(u64, csv::StringRecord), ImportError>> + 'a,
    opts: &ImportOptions,
) -> Result<Wide, ImportError> {
    let class_cols: Vec<usize> = (1..header.len())
        .filter(|j| !text_cols.contains(j))
        .collect();
    // A 0/1 row per (item, annotator) under the label columns is the multilabel layout.
    let annotator_names = super::multilabel::ANNOTATOR_COLUMNS;
    if let Some(&j) = class_cols.first() {
        if annotator_names.contains(&header[j].trim().to_ascii_lowercase().as_str()) {
            return Err(ImportError::at(
                1,
                j + 1,
                ImportErrorKind::Multilabel {
                    evidence: format!(
                        "a column {} and then one column per label: a 0/1 row per item and annotator",
                        header[j].trim()
                    ),
                },
            ));
        }
    }
    let classes: Vec<String> = class_cols.iter().map(|&j| header[j].clone()).collect();
    let mut texts = TextColumn::empty(header, text_cols);
    validate_classes(&classes)?;
    // Numeric class names (0/1, a 1..5 scale) are common, so a numeric header row is data only
    // when its first cell is not an id column name either.
    let id_names = ["item_id", "id", "item", "uid", "item id"];
    let named_id = id_names.contains(&header[0].to_ascii_lowercase().as_str());
    if !named_id && classes.iter().all(|c| parse_count(c).is_ok()) {
        return Err(ImportError::at(
            1,
            2,
            ImportErrorKind::NoHeader {
                first_cell: classes[0].clone(),
            },
        ));
    }
    let k = classes.len();
    let width = header.len();
    let mut ids: Vec<String> = Vec::new();
    // Line of each kept item, for the duplicate check after reading (a map of ids while reading
    // would hold a second copy of every id).
    let mut lines: Vec<u64> = Vec::new();
    let mut counts: Vec<u32> = Vec::new();
    let mut skipped = Vec::new();
    let rows: Box<Rows<'a>> = Box::new(rows);
    for row in rows {
        let (line, rec) = row?;
        ImportError::check_width(line, width, rec.len())?;
        let id = rec[0].trim().to_string();
        if id.is_empty() {
            return Err(ImportError::at(line, 1, ImportErrorKind::EmptyItemId));
        }
        let mut row_counts = [0u32; MAX_CLASSES];
        let mut total: u64 = 0;
        for (j, &col) in class_cols.iter().enumerate() {
            let c = parse_count(&rec[col]).map_err(|kind| ImportError::at(line, col + 1, kind))?;
            row_counts[j] = c;
            total += c as u64;
        }
        if total >= 1_000_000_000 {
            return Err(ImportError::line(
                line,
                ImportErrorKind::CountTooLarge {
                    value: total.to_string(),
                },
            ));
        }
        if total == 0 {
            if opts.skip_zero_vote_items {
                skipped.push(id);
                continue;
            }
            return Err(ImportError::line(line, ImportErrorKind::ZeroVotes { id }));
        }
        if opts.max_items.is_some_and(|m| ids.len() >= m) {
            return Err(ImportError::line(
                line,
                ImportErrorKind::TooManyItems {
                    limit: opts.max_items.unwrap_or(0),
                },
            ));
        }
        lines.push(line);
        ids.push(id);
        counts.extend_from_slice(&row_counts[..k]);
        for (t, &col) in texts.iter_mut().zip(text_cols) {
            t.values.push(rec[col].trim().to_string());
        }
    }
    if let Some((line, first_line, i)) = first_duplicate(&ids, &lines) {
        return Err(ImportError::at(
            line,
            1,
            ImportErrorKind::DuplicateItem {
                id: ids[i].clone(),
                first_line,
            },
        ));
    }
    if ids.is_empty() {
        return Err(ImportError::whole(if skipped.is_empty() {
            ImportErrorKind::NoItems
        } else {
            ImportErrorKind::AllZeroVotes {
                rows: skipped.len(),
            }
        }));
    }
    Ok((VoteTable::new(classes, ids, counts), skipped, texts))
}

/// The earliest repeated id: (its line, the line it first appeared on, its index). Sorting indices
/// by id finds repeats with no copy of the ids.
fn first_duplicate(ids: &[String], lines: &[u64]) -> Option<(u64, u64, usize)> {
    let mut order: Vec<u32> = (0..ids.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| ids[a as usize].cmp(&ids[b as usize]).then(a.cmp(&b)));
    let mut best: Option<(u64, u64, usize)> = None;
    // Index (into `order`) of the current run of equal ids: its first appearance.
    let mut run = 0;
    for k in 1..order.len() {
        let (a, b) = (order[k - 1] as usize, order[k] as usize);
        if ids[a] != ids[b] {
            run = k;
            continue;
        }
        if best.is_none_or(|(line, _, _)| lines[b] < line) {
            best = Some((lines[b], lines[order[run] as usize], b));
        }
    }
    best
}
