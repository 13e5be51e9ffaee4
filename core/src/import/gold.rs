//! `gold.csv`, the one label per item an expert (or the dataset's authors) gave: `item_id,gold`.
//! Several bundled sets carry one beside their crowd votes (the snow2008 sets, crowdti, gal, the
//! sentiment sets). As a vote source it is one annotator, `gold`; turned into long-format CSV text
//! so the one long-format importer reads it.

/// Whether a CSV's first line is a gold file's header.
pub fn is_gold_header(bytes: &[u8]) -> bool {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(first);
    let line = line.trim_start_matches('\u{feff}').trim();
    line.eq_ignore_ascii_case("item_id,gold")
}

/// The gold labels as long-format CSV (`item_id,annotator_id,label`, annotator `gold`); rows with
/// an empty label are left out. Errors name the line.
pub fn gold_to_long_csv(bytes: &[u8]) -> Result<String, String> {
    let mut r = csv::ReaderBuilder::new().flexible(false).from_reader(bytes);
    let mut out = String::from("item_id,annotator_id,label\n");
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut rows = 0;
    for (i, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| format!("gold file, line {}: {e}", i + 2))?;
        let (id, label) = (
            rec.get(0).unwrap_or("").trim(),
            rec.get(1).unwrap_or("").trim(),
        );
        if id.is_empty() {
            return Err(format!("gold file, line {}: no item id", i + 2));
        }
        if label.is_empty() {
            continue;
        }
        out.push_str(&format!("{},gold,{}\n", quote(id), quote(label)));
        rows += 1;
    }
    if rows == 0 {
        return Err("the gold file has no labels".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{parse_votes, ImportOptions};

    #[test]
    fn a_gold_file_is_one_annotator_with_one_vote_per_item() {
        let g = b"\xef\xbb\xbfitem_id,gold\n25,not_entailed\n35,entailed\n36,\n";
        assert!(is_gold_header(g));
        assert!(!is_gold_header(b"item_id,a,b\n1,2,3\n"));
        let (t, _) = parse_votes(
            gold_to_long_csv(g).unwrap().as_bytes(),
            &ImportOptions::default(),
        )
        .unwrap();
        assert_eq!(t.item_ids(), ["25", "35"]);
        assert_eq!(t.classes(), ["entailed", "not_entailed"]);
        assert_eq!((t.counts(0), t.counts(1)), (&[0, 1][..], &[1, 0][..]));
        assert_eq!(t.annotator_ids(), ["gold"]);
        assert!(gold_to_long_csv(b"item_id,gold\n1,\n")
            .unwrap_err()
            .contains("no labels"));
    }
}
