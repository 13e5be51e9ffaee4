//! CSV import of vote tables, with the format and delimiter detected from the header.
//!
//! Two formats:
//! - **wide**: `item_id,<class_1>,…,<class_K>` with integer counts, one row per item;
//! - **long**: exactly `item_id,annotator_id,label`, one row per vote.
//!
//! Either may carry item texts in columns named `text`, or `premise` and `hypothesis` (any case, any
//! position after the first): they are not classes, and come back in [`ImportReport::texts`] (for the
//! app's model worker, which embeds them). In the long format an item's text is its first non-empty
//! value.
//!
//! Accepted: a UTF-8 BOM, CRLF line ends, quoted fields, and `,` `;` or tab as delimiter (the one
//! that occurs most often in the header line outside quotes). Every bad input is an
//! [`ImportError`] with line/column and a fix; the parser never panics (property-tested).

mod error;
pub mod gold;
pub mod judges;
mod long;
pub mod multilabel;
mod open;
pub mod source;
mod wide;

pub use error::{thousands, ImportError, ImportErrorKind};

use crate::votes::{VoteTable, MAX_CLASSES};
use open::{csv_error, open_csv, OpenCsv};
use std::io::Read;
use wide::parse_wide;

/// How to treat questionable but recoverable input.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Drop items with zero votes (listed in [`ImportReport::skipped_zero_vote`]) instead of failing.
    pub skip_zero_vote_items: bool,
    /// Stop with [`ImportErrorKind::TooManyItems`] at the first item past this many (the app's
    /// limit: it says so while reading, instead of running out of memory later).
    pub max_items: Option<usize>,
}

/// Header names of text columns (compared in lower case).
pub const TEXT_COLUMNS: [&str; 3] = ["text", "premise", "hypothesis"];

/// One text column of an import: its header name (as written) and one value per item of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextColumn {
    pub name: String,
    pub values: Vec<String>,
}

impl TextColumn {
    /// One empty column per index of `cols` in `header`.
    pub(crate) fn empty(header: &[String], cols: &[usize]) -> Vec<TextColumn> {
        cols.iter()
            .map(|&j| TextColumn {
                name: header[j].clone(),
                values: Vec::new(),
            })
            .collect()
    }
}

/// Indices of the text columns in a header (never the first: that is the item id).
fn text_columns(header: &[String]) -> Vec<usize> {
    (1..header.len())
        .filter(|&j| TEXT_COLUMNS.contains(&header[j].to_ascii_lowercase().as_str()))
        .collect()
}

/// Which of the two layouts a file used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Wide,
    Long,
}

/// What the importer detected and what it skipped, for the caller to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportReport {
    pub format: Format,
    pub delimiter: u8,
    pub skipped_zero_vote: Vec<String>,
    /// Text columns, if the file had any (see [`TEXT_COLUMNS`]).
    pub texts: Vec<TextColumn>,
}

/// Parses a vote table from CSV bytes (wide or long, auto-detected).
pub fn parse_votes(
    bytes: &[u8],
    opts: &ImportOptions,
) -> Result<(VoteTable, ImportReport), ImportError> {
    parse_votes_with_progress(bytes, opts, &mut |_| {})
}

/// [`parse_votes`], calling `progress(fraction of bytes read)` every 64k rows (for big uploads).
pub fn parse_votes_with_progress(
    bytes: &[u8],
    opts: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<(VoteTable, ImportReport), ImportError> {
    parse_votes_from(bytes, bytes.len(), opts, progress)
}

/// [`parse_votes_with_progress`] from any reader of `len` bytes (the app's worker streams a
/// `File` in slices, so a big upload is never held whole next to the table it becomes).
pub fn parse_votes_from(
    input: impl Read,
    len: usize,
    opts: &ImportOptions,
    progress: &mut dyn FnMut(f64),
) -> Result<(VoteTable, ImportReport), ImportError> {
    let OpenCsv {
        delimiter,
        mut reader,
        header,
    } = open_csv(input)?;
    let len = len.max(1) as f64;
    let mut seen = 0usize;
    let records = reader.records();
    let lower: Vec<String> = header.iter().map(|s| s.to_ascii_lowercase()).collect();
    let text_cols = text_columns(&header);
    let votes_lower: Vec<&str> = (0..lower.len())
        .filter(|j| !text_cols.contains(j))
        .map(|j| lower[j].as_str())
        .collect();
    let rows = records.map(|r| {
        r.map_err(csv_error).map(|rec| {
            seen += 1;
            if seen % 65_536 == 0 {
                progress(rec.position().map(|p| p.byte() as f64 / len).unwrap_or(0.0));
            }
            let line = rec.position().map(|p| p.line()).unwrap_or(0);
            (line, rec)
        })
    });

    if votes_lower == ["item_id", "annotator_id", "label"] {
        let (table, texts) = long::parse_long(rows, &header, &text_cols, opts.max_items)?;
        return Ok((
            table,
            ImportReport {
                format: Format::Long,
                delimiter,
                skipped_zero_vote: Vec::new(),
                texts,
            },
        ));
    }
    if let Some(col) = lower
        .iter()
        .position(|h| h == "annotator_id" || h == "label")
    {
        // item_id,annotator_id,<label…>: a 0/1 row per item and annotator, the multilabel layout.
        if col == 1 && lower[col] == "annotator_id" && !lower.iter().any(|h| h == "label") {
            return Err(ImportError::at(
                1,
                col + 1,
                ImportErrorKind::Multilabel {
                    evidence: format!(
                        "the header is item_id,annotator_id and then {} label columns: a 0/1 row per item and annotator",
                        header.len() - 2
                    ),
                },
            ));
        }
        return Err(ImportError::at(
            1,
            col + 1,
            ImportErrorKind::MixedFormats {
                detail: format!(
                    "the header has a long-format column {} next to {} other column(s)",
                    error::quoted(&header[col]),
                    header.len() - 1
                ),
            },
        ));
    }
    let (table, skipped, texts) = parse_wide(&header, &text_cols, rows, opts)?;
    Ok((
        table,
        ImportReport {
            format: Format::Wide,
            delimiter,
            skipped_zero_vote: skipped,
            texts,
        },
    ))
}

/// Votes of either kind, as [`parse_any`] found them.
#[derive(Debug, Clone)]
pub enum AnyVotes {
    Single(VoteTable, ImportReport),
    Multilabel(
        crate::multilabel::MultilabelTable,
        multilabel::MultilabelReport,
    ),
}

/// Parses single-label votes, or multilabel votes where the file shows it is multilabel (a 0/1
/// row per item and annotator, or an annotator with several labels on one item in the long
/// layout). A long file in which every annotator happens to give one label per item reads as
/// single-label: nothing in it says otherwise (callers offer a `--multilabel` switch that calls
/// [`multilabel::parse_multilabel`] directly).
pub fn parse_any(bytes: &[u8], opts: &ImportOptions) -> Result<AnyVotes, ImportError> {
    match parse_votes(bytes, opts) {
        Ok((t, r)) => Ok(AnyVotes::Single(t, r)),
        Err(ImportError {
            kind: ImportErrorKind::Multilabel { .. },
            ..
        }) => {
            let (t, r) = multilabel::parse_multilabel_from(bytes, opts.max_items)?;
            Ok(AnyVotes::Multilabel(t, r))
        }
        // An empty label in the long layout is a rating that ticked nothing when the file is
        // multilabel; otherwise it stays the single-label error.
        Err(
            e @ ImportError {
                kind: ImportErrorKind::EmptyLabel,
                ..
            },
        ) => match multilabel::parse_multilabel_from(bytes, opts.max_items) {
            Ok((t, r)) if t.has_several_labels_in_a_rating() => Ok(AnyVotes::Multilabel(t, r)),
            _ => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Parses one count cell. Integral decimals such as `3.0` (pandas writes these) are accepted.
pub(crate) fn parse_count(raw: &str) -> Result<u32, ImportErrorKind> {
    let s = raw.trim();
    let value = || s.to_string();
    if let Ok(v) = s.parse::<i64>() {
        return if v < 0 {
            Err(ImportErrorKind::Negative { value: value() })
        } else if v >= 1_000_000_000 {
            Err(ImportErrorKind::CountTooLarge { value: value() })
        } else {
            Ok(v as u32)
        };
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => {
            if v < 0.0 {
                Err(ImportErrorKind::Negative { value: value() })
            } else if v.fract() != 0.0 {
                Err(ImportErrorKind::Fractional { value: value() })
            } else if v >= 1e9 {
                Err(ImportErrorKind::CountTooLarge { value: value() })
            } else {
                Ok(v as u32)
            }
        }
        _ => Err(ImportErrorKind::NotInteger { value: value() }),
    }
}

/// A texts file beside a vote file: CSV with the item id first and text columns (see
/// [`TEXT_COLUMNS`]); other columns are ignored. Returns the ids and the text columns, row order.
pub fn parse_texts_csv(bytes: &[u8]) -> Result<(Vec<String>, Vec<TextColumn>), ImportError> {
    let OpenCsv {
        mut reader, header, ..
    } = open_csv(bytes)?;
    let records = reader.records();
    let text_cols = text_columns(&header);
    if text_cols.is_empty() {
        return Err(ImportError::line(
            1,
            ImportErrorKind::NoTextColumn {
                header: header.join(",").chars().take(80).collect(),
            },
        ));
    }
    let mut ids = Vec::new();
    let mut cols = TextColumn::empty(&header, &text_cols);
    for rec in records {
        let rec = rec.map_err(csv_error)?;
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        ImportError::check_width(line, header.len(), rec.len())?;
        let id = rec[0].trim();
        if id.is_empty() {
            return Err(ImportError::at(line, 1, ImportErrorKind::EmptyItemId));
        }
        ids.push(id.to_string());
        for (c, &j) in cols.iter_mut().zip(&text_cols) {
            c.values.push(rec[j].trim().to_string());
        }
    }
    Ok((ids, cols))
}

/// Class names: 2..=64 of them, none empty, no duplicates.
pub(crate) fn validate_classes(classes: &[String]) -> Result<(), ImportError> {
    if let Some(j) = classes.iter().position(|c| c.is_empty()) {
        return Err(ImportError::at(1, j + 2, ImportErrorKind::EmptyClassName));
    }
    if classes.len() < 2 {
        return Err(ImportError::line(
            1,
            ImportErrorKind::FewerThanTwoClasses {
                found: classes.len(),
            },
        ));
    }
    if classes.len() > MAX_CLASSES {
        return Err(ImportError::line(
            1,
            ImportErrorKind::TooManyClasses {
                found: classes.len(),
            },
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for (j, c) in classes.iter().enumerate() {
        if !seen.insert(c.as_str()) {
            return Err(ImportError::at(
                1,
                j + 2,
                ImportErrorKind::DuplicateClassName(c.clone()),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
