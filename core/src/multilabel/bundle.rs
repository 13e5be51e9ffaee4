//! The app's compact file for a bundled multilabel dataset: a [`MultilabelTable`] in postcard's
//! encoding behind a magic header of its own, so the app's worker tells it from a single-label
//! bundle ([`crate::bundle`]) by its first bytes. Produced by `annosat bundle`.

use super::table::MultilabelTable;
use serde::{Deserialize, Serialize};

const MAGIC: &[u8; 8] = b"ANSAT\x00\x02\x00";

/// What one bundled multilabel dataset file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlBundle {
    pub name: String,
    pub table: MultilabelTable,
}

/// Whether `bytes` are a multilabel bundle (by their header).
pub fn is_multilabel(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

pub fn encode(bundle: &MlBundle) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend(postcard::to_allocvec(bundle).expect("a multilabel table always serialises"));
    out
}

pub fn decode(bytes: &[u8]) -> Result<MlBundle, String> {
    let body = bytes.strip_prefix(MAGIC.as_slice()).ok_or(
        "not an annosat multilabel dataset file (bad header); rebuild it with `annosat bundle`",
    )?;
    postcard::from_bytes(body).map_err(|e| {
        format!("corrupt annosat multilabel dataset file: {e}; rebuild it with `annosat bundle`")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_bad_header_and_broken_tables() {
        let t = MultilabelTable::new(
            vec!["a".into(), "b".into()],
            vec!["x".into()],
            vec!["w".into(), "v".into()],
            vec![vec![(0, 0b11), (1, 0)]],
        );
        let b = MlBundle {
            name: "t".into(),
            table: t,
        };
        let bytes = encode(&b);
        assert!(is_multilabel(&bytes));
        assert_eq!(decode(&bytes).unwrap(), b);
        assert!(decode(b"nope").unwrap_err().contains("bad header"));
        // A rating with a bit past the two labels: refused on reading, not a panic later.
        let mut broken = b.clone();
        let mut raw: super::super::table::RawMultilabelTable = broken.table.clone().into();
        let json = serde_json::to_string(&raw)
            .unwrap()
            .replace("[3,0]", "[4,0]");
        raw = serde_json::from_str(&json).unwrap();
        assert!(MultilabelTable::try_from(raw)
            .unwrap_err()
            .contains("bit past"));
        broken.name = "u".into();
        let mut bytes = encode(&broken);
        bytes.truncate(bytes.len() - 3);
        assert!(decode(&bytes).unwrap_err().contains("corrupt"));
    }
}
