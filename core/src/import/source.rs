//! A second vote source as the user gives it — one vote file (wide or long), a `gold.csv`, or a
//! judge panel (one or more `<judge>.jsonl` files) — read into a vote table. One reader for the
//! CLI (`annosat worth --source`) and the app's Sources room, so both accept and refuse the same
//! files with the same words.

use crate::import::{gold, judges, parse_votes, ImportOptions};
use crate::votes::VoteTable;

/// A source and what reading it found (said beside the result).
#[derive(Debug, Clone)]
pub struct SourceRead {
    pub table: VoteTable,
    /// "judge panel: 3 judges, 2,997 labels, 3 parse failures left out", …
    pub notes: Vec<String>,
}

/// Whether a file name is a judge file (the judge-votes release format).
pub fn is_judge_file(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".jsonl")
}

/// Reads `files` (name, bytes): all `.jsonl` (a panel, each file one judge named by its file
/// name), or exactly one vote or gold file. Errors say what was wrong and what to give instead.
pub fn read_source(files: &[(String, Vec<u8>)]) -> Result<SourceRead, String> {
    let judge_files = files.iter().filter(|(n, _)| is_judge_file(n)).count();
    match (files.len(), judge_files) {
        (0, _) => Err("no source file was given".into()),
        (n, j) if j == n => read_panel(files),
        (_, j) if j > 0 => Err(
            "a source is either judge files (.jsonl, one per judge) or one vote file, not both"
                .into(),
        ),
        (1, _) => read_one(&files[0].0, &files[0].1),
        (n, _) => Err(format!(
            "{n} vote files were given; a source is one vote file (or a panel of .jsonl judge files)"
        )),
    }
}

fn read_one(name: &str, bytes: &[u8]) -> Result<SourceRead, String> {
    let opts = ImportOptions {
        skip_zero_vote_items: true,
        ..Default::default()
    };
    if gold::is_gold_header(bytes) {
        let csv = gold::gold_to_long_csv(bytes).map_err(|e| format!("{name}: {e}"))?;
        let (table, _) = parse_votes(csv.as_bytes(), &opts).map_err(|e| format!("{name}: {e}"))?;
        let notes = vec![format!(
            "{name}: a gold file, one label per item for {} items, read as one annotator",
            table.num_items()
        )];
        return Ok(SourceRead { table, notes });
    }
    let (table, report) = parse_votes(bytes, &opts).map_err(|e| format!("{name}: {e}"))?;
    no_repeated_votes(&table)?;
    let mut notes = Vec::new();
    if !report.skipped_zero_vote.is_empty() {
        notes.push(format!(
            "{name}: {} item(s) with zero votes were skipped",
            report.skipped_zero_vote.len()
        ));
    }
    Ok(SourceRead { table, notes })
}

fn read_panel(files: &[(String, Vec<u8>)]) -> Result<SourceRead, String> {
    let mut judges: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|(n, b)| {
            let stem = n.rsplit(['/', '\\']).next().unwrap_or(n);
            let stem = &stem[..stem.len() - ".jsonl".len()];
            (stem.to_string(), b.clone())
        })
        .collect();
    judges.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(w) = judges.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!(
            "two judge files are named {:?}: each judge is one file, named for the judge",
            w[0].0
        ));
    }
    let (csv, report) = judges::panel_to_long_csv(&judges)?;
    let (table, _) = parse_votes(
        csv.as_bytes(),
        &ImportOptions {
            skip_zero_vote_items: true,
            ..Default::default()
        },
    )
    .map_err(|e| match e.kind {
        // Two answers of one judge to one uid look like multilabel votes to the importer.
        crate::import::ImportErrorKind::Multilabel { evidence } => format!(
            "a judge answers an item more than once ({}); give each judge one answer per uid",
            evidence.replace("annotator", "judge")
        ),
        _ => format!("the judges' votes: {e}"),
    })?;
    no_repeated_votes(&table)?;
    let notes = vec![format!(
        "judge panel: {} judges, {} labels, {} parse failures left out",
        report.judges.len(),
        report.judges.iter().map(|j| j.1).sum::<usize>(),
        report.parse_failures()
    )];
    Ok(SourceRead { table, notes })
}

/// A source's annotator labels an item at most once: a repeated (item, annotator) pair is a
/// duplicated row or two people under one id, and would count as two independent votes.
fn no_repeated_votes(t: &VoteTable) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for a in t.annotations() {
        if !seen.insert((a.item, a.annotator)) {
            return Err(format!(
                "annotator {:?} labels item {:?} more than once; give each annotator one vote per item (a repeated row, or two people under one id?)",
                t.annotator_ids()[a.annotator as usize],
                t.item_ids()[a.item as usize]
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the user drops, reading it answers (a table or a message), never panics.
        #[test]
        fn arbitrary_files_never_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..400),
            text in "[a-z0-9_,{}\":\n ]{0,300}",
            judge in any::<bool>(),
        ) {
            let name = if judge { "j.jsonl" } else { "s.csv" };
            let _ = read_source(&[(name.to_string(), bytes)]);
            let _ = read_source(&[(name.to_string(), text.into_bytes())]);
        }
    }

    fn f(name: &str, text: &str) -> (String, Vec<u8>) {
        (name.to_string(), text.as_bytes().to_vec())
    }

    #[test]
    fn each_kind_of_source_reads_and_says_what_it_is() {
        let wide = read_source(&[f("s.csv", "item_id,a,b\n1,2,1\n2,0,3\n")]).unwrap();
        assert_eq!(wide.table.counts(1), &[0, 3]);
        let gold = read_source(&[f("gold.csv", "item_id,gold\n1,a\n2,b\n")]).unwrap();
        assert_eq!(gold.table.annotator_ids(), ["gold"]);
        assert!(gold.notes[0].contains("one annotator"), "{:?}", gold.notes);
        let panel = read_source(&[
            f("x/j2.jsonl", "{\"uid\":\"1\",\"label\":\"a\",\"parse_fail\":false}\n"),
            f(
                "j1.jsonl",
                "{\"uid\":\"1\",\"label\":\"b\"}\n{\"uid\":\"2\",\"label\":null,\"parse_fail\":true}\n",
            ),
        ])
        .unwrap();
        assert_eq!(panel.table.annotator_ids(), ["j1", "j2"]);
        assert!(
            panel.notes[0].contains("2 judges, 2 labels, 1 parse failures"),
            "{:?}",
            panel.notes
        );
    }

    #[test]
    fn malformed_sources_are_refused_with_what_to_do() {
        let e = read_source(&[]).unwrap_err();
        assert!(e.contains("no source"), "{e}");
        let e = read_source(&[f("a.csv", "item_id,a\n"), f("b.jsonl", "")]).unwrap_err();
        assert!(e.contains("not both"), "{e}");
        let e = read_source(&[f("a.csv", "x"), f("b.csv", "y")]).unwrap_err();
        assert!(e.contains("2 vote files"), "{e}");
        let twice = "item_id,annotator_id,label\n1,w1,a\n1,w1,b\n2,w1,a\n";
        let e = read_source(&[f("long.csv", twice)]).unwrap_err();
        // Two different labels: multilabel votes, named as such by the importer.
        assert!(e.contains("multilabel") && e.contains("w1"), "{e}");
        let repeated = "item_id,annotator_id,label\n1,w1,a\n1,w1,a\n2,w1,b\n";
        let e = read_source(&[f("long.csv", repeated)]).unwrap_err();
        assert!(e.contains("\"w1\" labels item \"1\" more than once"), "{e}");
        let e = read_source(&[
            f("a/j.jsonl", "{\"uid\":\"1\",\"label\":\"a\"}\n"),
            f("b/j.jsonl", "{\"uid\":\"1\",\"label\":\"b\"}\n"),
        ])
        .unwrap_err();
        assert!(e.contains("two judge files are named \"j\""), "{e}");
        let e = read_source(&[f(
            "j.jsonl",
            "{\"uid\":\"1\",\"label\":\"a\"}\n{\"uid\":\"1\",\"label\":\"b\"}\n",
        )])
        .unwrap_err();
        assert!(e.contains("more than once"), "{e}");
        let e = read_source(&[f("v.csv", "not,a\nvote file")]).unwrap_err();
        assert!(e.starts_with("v.csv: "), "{e}");
    }
}
