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
mod long;

pub use error::{thousands, ImportError, ImportErrorKind};

use crate::votes::{VoteTable, MAX_CLASSES};
use std::io::{Cursor, Read};

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

/// A CSV ready past its header.
struct OpenCsv<R> {
    delimiter: u8,
    reader: csv::Reader<R>,
    /// The header's cells, trimmed.
    header: Vec<String>,
}

/// What a file that is not CSV text is, from its first bytes, and what to do about it: the
/// messages a user gets for a compressed file, a workbook, an image, UTF-16 or JSON instead of
/// "not valid UTF-8".
fn not_csv(bytes: &[u8]) -> Option<ImportErrorKind> {
    let kind = |what, fix| Some(ImportErrorKind::NotCsv { what, fix });
    let utf16 = "UTF-16 text";
    let utf16_fix = "re-save it as UTF-8 (Excel: Save As → CSV UTF-8; or iconv -f UTF-16 -t UTF-8 in.csv > out.csv)";
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return kind(
            "a gzip-compressed file",
            "decompress it first (gunzip FILE) and load the CSV inside",
        );
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return kind(
            "a zip archive (an Excel .xlsx workbook is one)",
            "in Excel use File → Save As → CSV UTF-8; a zip of CSVs: unzip it first",
        );
    }
    if bytes.starts_with(&[0xd0, 0xcf, 0x11, 0xe0]) {
        return kind(
            "an old Excel .xls workbook",
            "in Excel use File → Save As → CSV UTF-8",
        );
    }
    if bytes.starts_with(b"\x89PNG")
        || bytes.starts_with(&[0xff, 0xd8, 0xff])
        || bytes.starts_with(b"GIF8")
    {
        return kind(
            "an image",
            "load the vote table as CSV (item_id,<class…> or item_id,annotator_id,label)",
        );
    }
    if bytes.starts_with(b"%PDF") {
        return kind("a PDF document", "export the vote table as CSV");
    }
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        return kind(utf16, utf16_fix);
    }
    // UTF-16 without a byte-order mark: ASCII text with every other byte 0.
    let head = &bytes[..bytes.len().min(64)];
    if head.len() >= 8 && head.iter().filter(|&&b| b == 0).count() * 3 >= head.len() {
        return kind(utf16, utf16_fix);
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if matches!(first, Some(b'{') | Some(b'[')) {
        return kind("JSON (it starts with { or [)", "convert it to CSV: a wide file item_id,<class_1>,…,<class_K> with one row of counts per item, or a long file item_id,annotator_id,label with one row per vote");
    }
    None
}

/// Excel's optional first line `sep=;` (common where `,` is the decimal mark): its delimiter.
fn excel_sep(bytes: &[u8]) -> Option<u8> {
    let rest = bytes.strip_prefix(b"sep=")?;
    let d = *rest.first()?;
    let after = &rest[1..];
    (matches!(d, b',' | b';' | b'\t' | b'|')
        && (after.starts_with(b"\n") || after.starts_with(b"\r\n") || after.is_empty()))
    .then_some(d)
}

/// How much of the input is looked at before parsing: the file type, a BOM, Excel's `sep=` line and
/// the delimiter are told from it (the rest streams through).
const HEAD: u64 = 64 * 1024;

/// Strips a BOM, sniffs the delimiter (or takes Excel's `sep=` line) and reads the header; empty or
/// whitespace-only input is [`ImportErrorKind::Empty`], a file that is not CSV text is named
/// ([`not_csv`]). Shared by vote files and texts files. Only [`HEAD`] bytes are held at once
/// besides the parser's buffer, so a big upload is never copied whole.
fn open_csv<R: Read>(mut input: R) -> Result<OpenCsv<impl Read>, ImportError> {
    let mut head = Vec::new();
    (&mut input)
        .take(HEAD)
        .read_to_end(&mut head)
        .map_err(|e| ImportError::whole(ImportErrorKind::Read(e.to_string())))?;
    if let Some(kind) = not_csv(&head) {
        return Err(ImportError::whole(kind));
    }
    let start = if head.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let body = &head[start..];
    if body.iter().all(|b| b.is_ascii_whitespace()) && (head.len() as u64) < HEAD {
        return Err(ImportError::whole(ImportErrorKind::Empty));
    }
    let sep = excel_sep(body);
    let delimiter = sep.unwrap_or_else(|| sniff_delimiter(body));
    let mut head = Cursor::new(head);
    head.set_position(start as u64);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(head.chain(input));
    if sep.is_some() {
        // The `sep=` line itself; the header follows (line numbers stay the file's).
        let _ = reader.records().next();
    }
    let header = match reader.records().next() {
        None => return Err(ImportError::whole(ImportErrorKind::Empty)),
        Some(r) => r.map_err(csv_error)?,
    };
    let header = header.iter().map(|s| s.trim().to_string()).collect();
    Ok(OpenCsv {
        delimiter,
        reader,
        header,
    })
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

fn csv_error(e: csv::Error) -> ImportError {
    let line = e.position().map(|p| p.line());
    let kind = match e.kind() {
        csv::ErrorKind::Utf8 { .. } => ImportErrorKind::InvalidUtf8,
        _ => ImportErrorKind::Malformed(e.to_string()),
    };
    ImportError {
        line,
        column: None,
        kind,
    }
}

/// The delimiter among `,` `;` `\t` seen most often in the first line, outside quotes.
fn sniff_delimiter(bytes: &[u8]) -> u8 {
    let mut counts = [0usize; 3];
    let mut in_quotes = false;
    for &b in bytes {
        match b {
            b'"' => in_quotes = !in_quotes,
            b'\n' | b'\r' if !in_quotes => break,
            b',' if !in_quotes => counts[0] += 1,
            b';' if !in_quotes => counts[1] += 1,
            b'\t' if !in_quotes => counts[2] += 1,
            _ => {}
        }
    }
    let best = (0..3).max_by_key(|&i| (counts[i], 3 - i)).unwrap_or(0);
    [b',', b';', b'\t'][best]
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
        if rec.len() != header.len() {
            return Err(ImportError::line(
                line,
                ImportErrorKind::WrongColumnCount {
                    expected: header.len(),
                    found: rec.len(),
                },
            ));
        }
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

type Rows<'a> = dyn Iterator<Item = Result<(u64, csv::StringRecord), ImportError>> + 'a;

/// A wide table: the table, the skipped zero-vote items, and the text columns.
type Wide = (VoteTable, Vec<String>, Vec<TextColumn>);

fn parse_wide<'a>(
    header: &[String],
    text_cols: &[usize],
    rows: impl Iterator<Item = Result<(u64, csv::StringRecord), ImportError>> + 'a,
    opts: &ImportOptions,
) -> Result<Wide, ImportError> {
    let class_cols: Vec<usize> = (1..header.len())
        .filter(|j| !text_cols.contains(j))
        .collect();
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
        if rec.len() != width {
            return Err(ImportError::line(
                line,
                ImportErrorKind::WrongColumnCount {
                    expected: width,
                    found: rec.len(),
                },
            ));
        }
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
