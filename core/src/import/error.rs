//! Import errors: every bad input becomes a value that names where it is and how to fix it.

use std::fmt;

/// What went wrong, without the position. Each variant's message ends with a fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportErrorKind {
    Empty,
    InvalidUtf8,
    Malformed(String),
    NoHeader {
        first_cell: String,
    },
    NoItems,
    NoTextColumn {
        header: String,
    },
    EmptyClassName,
    DuplicateClassName(String),
    FewerThanTwoClasses {
        found: usize,
    },
    TooManyClasses {
        found: usize,
    },
    WrongColumnCount {
        expected: usize,
        found: usize,
    },
    EmptyItemId,
    /// A long file's vote without an annotator id: every per-annotator number would mix such
    /// votes into one "person", so it is refused.
    EmptyAnnotatorId,
    DuplicateItem {
        id: String,
        first_line: u64,
    },
    NotInteger {
        value: String,
    },
    Negative {
        value: String,
    },
    Fractional {
        value: String,
    },
    CountTooLarge {
        value: String,
    },
    ZeroVotes {
        id: String,
    },
    MixedFormats {
        detail: String,
    },
    /// Multilabel votes (an annotator may tick several labels of one item): read as single-label
    /// votes, one annotator's ticks would count as several annotators' votes.
    Multilabel {
        /// What showed it: an annotator with two labels on one item, or a 0/1 row per annotator.
        evidence: String,
    },
    EmptyLabel,
    /// A multilabel cell that is not 0 or 1.
    NotBinary {
        value: String,
    },
    /// One annotator's rating of one item given twice (wide: two rows; long: one label twice).
    DuplicateRating {
        item: String,
        annotator: String,
        first_line: u64,
    },
    /// A long multilabel file where an annotator both "ticked nothing" (an empty label) and
    /// ticked labels on one item.
    InconsistentRating {
        item: String,
        annotator: String,
        first_line: u64,
    },
    /// A header that is neither multilabel layout.
    NotMultilabel {
        header: String,
    },
    /// More labels than a multilabel table holds.
    TooManyLabels {
        found: usize,
    },
    /// Not a CSV text file at all, recognised by its first bytes: what it is and what to do.
    NotCsv {
        what: &'static str,
        fix: &'static str,
    },
    /// Every item row has zero votes (so none is left to compute on).
    AllZeroVotes {
        rows: usize,
    },
    /// More items than the caller accepts ([`super::ImportOptions::max_items`]; the app's limit).
    TooManyItems {
        limit: usize,
    },
    /// The input could not be read (a file that vanished, a browser read error).
    Read(String),
}

/// A value from the user's file as it appears in a message: at most 80 characters, with the full
/// length said when cut (a 10 MB cell must not become a 10 MB message).
pub fn quoted(s: &str) -> String {
    const MAX: usize = 80;
    let n = s.chars().count();
    if n <= MAX {
        format!("'{s}'")
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("'{head}…' ({n} characters)")
    }
}

/// `2000000` as `2,000,000`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for ImportErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ImportErrorKind::*;
        match self {
            Empty => write!(f, "the file is empty; give a header row (item_id,<class_1>,…,<class_K> or item_id,annotator_id,label) and one row per item or vote"),
            InvalidUtf8 => write!(f, "the text is not valid UTF-8; save the file as UTF-8 (a BOM is fine)"),
            Malformed(m) => write!(f, "the CSV is malformed ({m}); check quotes and delimiters"),
            NoHeader { first_cell } => write!(f, "the first row looks like data (first class cell {} is a number and the first column is not named item_id), not a header; add a header row: item_id,<class names…>", quoted(first_cell)),
            NoItems => write!(f, "the file has a header but no item rows; add one row per item (wide) or per vote (long)"),
            NoTextColumn { header } => write!(f, "a texts file needs the item id first and a text column (text, or premise and hypothesis); its header is {}", quoted(header)),
            EmptyClassName => write!(f, "a class column has an empty name; give every count column a class name in the header"),
            DuplicateClassName(n) => write!(f, "class {} appears twice in the header; give each class column a distinct name", quoted(n)),
            FewerThanTwoClasses { found } => write!(f, "found {found} class column(s) but at least 2 are needed; a wide file is item_id,<class_1>,<class_2>,… and a long file is item_id,annotator_id,label"),
            TooManyClasses { found } => write!(f, "found {found} classes but at most {} are supported; merge rare classes", crate::votes::MAX_CLASSES),
            WrongColumnCount { expected, found } => write!(f, "this row has {found} columns but the header has {expected}; give every row one cell per header column"),
            EmptyItemId => write!(f, "the item id is empty; give every row an item id in the first column"),
            EmptyAnnotatorId => write!(f, "the annotator id is empty; give every vote the id of who gave it (any name or number), or, if you do not know who voted, use a wide file of counts (item_id,<class_1>,…)"),
            DuplicateItem { id, first_line } => write!(f, "item {} already appeared on line {first_line}; a wide file has one row per item, so merge the rows (add their counts)", quoted(id)),
            NotInteger { value } => write!(f, "count {} is not a whole number; write a non-negative integer (0 for no votes)", quoted(value)),
            Negative { value } => write!(f, "count {} is negative; vote counts must be 0 or more", quoted(value)),
            Fractional { value } => write!(f, "count {} has a fractional part; write whole vote counts, not proportions", quoted(value)),
            CountTooLarge { value } => write!(f, "count {} is too large; counts must stay below 1,000,000,000 per item", quoted(value)),
            ZeroVotes { id } => write!(f, "item {} has zero votes; remove the row or skip such items (CLI: --skip-empty-items)", quoted(id)),
            Multilabel { evidence } => write!(f, "these are multilabel votes ({evidence}): each annotator may tick several labels; this step reads single-label votes (one label per annotator and item) and would count one annotator's ticks as several votes. The multilabel curves read them as they are (annosat curves --votes FILE); here, give one label per annotator and item (for example each annotator's main label)"),
            MixedFormats { detail } => write!(f, "the file mixes the wide and long formats ({detail}); use either item_id,<class_1>,…,<class_K> with counts or exactly item_id,annotator_id,label"),
            EmptyLabel => write!(f, "the label is empty; give every vote row a class label"),
            NotBinary { value } => write!(f, "multilabel cell {} is not 0 or 1; write 1 where the annotator ticked the label and 0 where not", quoted(value)),
            DuplicateRating { item, annotator, first_line } => write!(f, "annotator {} rated item {} already on line {first_line}; give each annotator one rating per item (remove the repeated row)", quoted(annotator), quoted(item)),
            InconsistentRating { item, annotator, first_line } => write!(f, "annotator {} has an empty label (ticked nothing) and ticked labels on item {} (line {first_line}); an empty label row stands for a rating with no label ticked, so drop it where the annotator ticked something", quoted(annotator), quoted(item)),
            NotMultilabel { header } => write!(f, "the header {} is not a multilabel layout; use item_id,annotator_id,<label_1>,…,<label_L> with 0/1 cells, or item_id,annotator_id,label with one row per ticked label", quoted(header)),
            TooManyLabels { found } => write!(f, "found {found} labels but a multilabel table holds at most {}; merge rare labels", crate::multilabel::MAX_LABELS),
            NotCsv { what, fix } => write!(f, "this is {what}, not a CSV text file; {fix}"),
            TooManyItems { limit } => write!(f, "the file has more than {limit} items, the most the browser app takes; the annosat CLI reads any number (annosat curves --votes FILE)", limit = thousands(*limit)),
            Read(m) => write!(f, "the file could not be read ({m}); check that it is still there and try again"),
            AllZeroVotes { rows } => write!(f, "all {rows} item rows have zero votes, so there is nothing to compute; fill in the vote counts (each row: item_id, then one count per class)"),
        }
    }
}

/// An import error with its position (1-based line and column, where known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pub line: Option<u64>,
    pub column: Option<usize>,
    pub kind: ImportErrorKind,
}

impl ImportError {
    pub(crate) fn at(line: u64, column: usize, kind: ImportErrorKind) -> Self {
        ImportError {
            line: Some(line),
            column: Some(column),
            kind,
        }
    }
    pub(crate) fn line(line: u64, kind: ImportErrorKind) -> Self {
        ImportError {
            line: Some(line),
            column: None,
            kind,
        }
    }
    /// A row at `line` with `found` cells where the header has `expected`: refused.
    pub(crate) fn check_width(line: u64, expected: usize, found: usize) -> Result<(), Self> {
        if found == expected {
            return Ok(());
        }
        let kind = ImportErrorKind::WrongColumnCount { expected, found };
        Err(ImportError::line(line, kind))
    }
    pub(crate) fn whole(kind: ImportErrorKind) -> Self {
        ImportError {
            line: None,
            column: None,
            kind,
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: {}", self.kind),
            (Some(l), None) => write!(f, "line {l}: {}", self.kind),
            _ => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for ImportError {}
