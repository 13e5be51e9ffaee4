//! Before any row is read: what the input is (named from its first bytes when it is not CSV text),
//! its BOM, Excel's `sep=` line, the delimiter and the header. Only the first [`HEAD`] bytes are
//! looked at; the rest streams through the CSV reader.

use super::{ImportError, ImportErrorKind};
use std::io::{Cursor, Read};

/// A CSV ready past its header.
pub(super) struct OpenCsv<R> {
    pub delimiter: u8,
    pub reader: csv::Reader<R>,
    /// The header's cells, trimmed.
    pub header: Vec<String>,
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
pub(super) fn open_csv<R: Read>(mut input: R) -> Result<OpenCsv<impl Read>, ImportError> {
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

pub(super) fn csv_error(e: csv::Error) -> ImportError {
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
