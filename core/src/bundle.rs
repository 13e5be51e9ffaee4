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
    /// Second vote sources shipped with the dataset (the Sources room's choices).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<SourceEntry>,
    /// How the classes relate where the class names would mislead ([`declared_scale`]): the app
    /// reads them so unless the user says otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<crate::ratings::ScaleKind>,
}

/// Bundled datasets whose class names are numbers but not a scale, as their SOURCE.md says:
/// CrowdTI's dogs (0..3 are four breeds) and faces (0..3 code neutral, happy, sad, angry), and
/// Snow et al.'s temporal ordering (1, 2 are "before" and "after").
const NUMBERED_CODES: [&str; 3] = ["crowdti_dogs", "crowdti_faces", "snow2008_temp"];

/// The scale `annosat bundle` declares for a dataset: nominal for [`NUMBERED_CODES`], else none
/// (the class names decide, as for any file).
pub fn declared_scale(name: &str) -> Option<crate::ratings::ScaleKind> {
    NUMBERED_CODES
        .contains(&name)
        .then_some(crate::ratings::ScaleKind::Nominal)
}

/// A second vote source on a bundled dataset's items: a vote or gold file as the dataset carries
/// it (`annosat worth --source` reads the same file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceEntry {
    /// Short name, kept in the URL (`source=`).
    pub key: String,
    /// What it is, in words.
    pub title: String,
    /// The file, relative to the index.
    pub file: String,
}

/// The second sources a dataset folder may carry: (file in the folder, key, title).
pub const SOURCE_FILES: [(&str, &str, &str); 2] = [
    (
        "votes_old5.csv",
        "original5",
        "the original dataset's 5 annotators per item",
    ),
    (
        "gold.csv",
        "gold",
        "the gold label (one expert label per item)",
    ),
];

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

    /// A file laid out like a bundle but whose table breaks its invariants is refused when
    /// decoded (it used to decode, and the curve code would panic on it later). postcard keeps no
    /// custom message, so the reasons are tested in votes.rs.
    #[test]
    fn tables_that_break_invariants_are_refused() {
        #[derive(Serialize)]
        struct RawTable {
            classes: Vec<String>,
            item_ids: Vec<String>,
            counts: Vec<u32>,
            annotator_ids: Vec<String>,
            annotations: Vec<crate::votes::Annotation>,
        }
        #[derive(Serialize)]
        struct RawBundle {
            name: String,
            table: RawTable,
        }
        let file = |table: RawTable| {
            let mut out = MAGIC.to_vec();
            let b = RawBundle {
                name: "t".into(),
                table,
            };
            out.extend(postcard::to_allocvec(&b).unwrap());
            decode(&out)
        };
        let ab = || vec!["a".to_string(), "b".to_string()];
        let ok = file(RawTable {
            classes: ab(),
            item_ids: vec!["x".into()],
            counts: vec![1, 2],
            annotator_ids: vec![],
            annotations: vec![],
        });
        assert!(ok.is_ok());
        let short = file(RawTable {
            classes: ab(),
            item_ids: vec!["x".into(), "y".into()],
            counts: vec![1, 2, 3],
            annotator_ids: vec![],
            annotations: vec![],
        });
        assert!(short.unwrap_err().contains("corrupt"));
        let huge = file(RawTable {
            classes: ab(),
            item_ids: vec!["x".into()],
            counts: vec![u32::MAX, u32::MAX],
            annotator_ids: vec![],
            annotations: vec![],
        });
        assert!(huge.unwrap_err().contains("corrupt"));
        let outside = file(RawTable {
            classes: ab(),
            item_ids: vec!["x".into()],
            counts: vec![1, 0],
            annotator_ids: vec!["w".into()],
            annotations: vec![crate::votes::Annotation {
                item: 0,
                annotator: 3,
                label: 0,
            }],
        });
        assert!(outside.unwrap_err().contains("corrupt"));
        let disagree = file(RawTable {
            classes: ab(),
            item_ids: vec!["x".into()],
            counts: vec![0, 1],
            annotator_ids: vec!["w".into()],
            annotations: vec![crate::votes::Annotation {
                item: 0,
                annotator: 0,
                label: 0,
            }],
        });
        assert!(disagree.unwrap_err().contains("corrupt"));
    }
}
