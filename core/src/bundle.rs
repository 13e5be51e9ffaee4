//! The compact dataset file the app fetches: a vote table (and, for the picker, its summary) in
//! postcard's binary encoding behind a magic header. Produced by `annosat bundle`; read by the app's
//! worker. About as small as the counts themselves and decoded without parsing text.

use crate::summary::Summary;
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

const MAGIC: &[u8; 8] = b"ANSAT\x00\x01\x00";

/// What one bundled dataset file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    pub name: String,
    pub table: VoteTable,
}

/// One entry of `index.json`: what the dataset picker shows before anything is fetched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexEntry {
    pub name: String,
    pub title: String,
    pub source: String,
    pub license: String,
    pub summary: Summary,
    /// File with the votes (relative to the index), and with item texts when the dataset has them.
    pub file: String,
    pub texts: Option<String>,
}

pub fn encode(bundle: &Bundle) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend(postcard::to_allocvec(bundle).expect("a vote table always serialises"));
    out
}

pub fn decode(bytes: &[u8]) -> Result<Bundle, String> {
    let body = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or("not an annosat dataset file (bad header); rebuild it with `annosat bundle`")?;
    postcard::from_bytes(body)
        .map_err(|e| format!("corrupt annosat dataset file: {e}; rebuild it with `annosat bundle`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_bad_header() {
        let t = VoteTable::new(vec!["a".into(), "b".into()], vec!["x".into()], vec![3, 4]);
        let b = Bundle {
            name: "t".into(),
            table: t,
        };
        assert_eq!(decode(&encode(&b)).unwrap(), b);
        assert!(decode(b"nope").unwrap_err().contains("bad header"));
        let mut bytes = encode(&b);
        bytes.truncate(bytes.len() - 2);
        assert!(decode(&bytes).unwrap_err().contains("corrupt"));
    }
}
