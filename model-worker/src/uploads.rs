//! The user's own data for the model side: the votes file's table and each item's texts — from text
//! columns in the votes file, or from a second file (`items.jsonl`, or CSV `item_id,text` /
//! `item_id,premise,hypothesis`). Pure functions (no web APIs), tested natively.

use annosat_core::import::multilabel::parse_multilabel;
use annosat_core::import::{parse_texts_csv, TextColumn};
use annosat_core::multilabel::MultilabelTable;
use annosat_core::{parse_votes, ImportOptions, VoteTable};
use annosat_encoder::texts::{self, field, layout_of, row_texts, ItemTexts};
use anyhow::{anyhow, bail, Result};
use std::collections::HashMap;

/// Items ready to embed: the table (items without text left out) and their texts, with notes
/// for the user about what was left out.
pub struct Prepared {
    pub table: VoteTable,
    pub texts: ItemTexts,
    pub notes: Vec<String>,
}

fn quote(s: &str) -> String {
    let short: String = s.chars().take(40).collect();
    if short.len() < s.len() {
        format!("'{short}…'")
    } else {
        format!("'{short}'")
    }
}

/// Per item id, its inputs in layout order, from text columns.
fn from_columns(
    ids: &[String],
    cols: &[TextColumn],
) -> (texts::Layout, HashMap<String, Vec<String>>) {
    let names: Vec<String> = cols.iter().map(|c| c.name.to_ascii_lowercase()).collect();
    let fields: Vec<&str> = names.iter().map(String::as_str).collect();
    let (layout, single) = layout_of(&fields).expect("at least one text column");
    let by_id = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let get = |k: &str| {
                names
                    .iter()
                    .position(|n| n == k)
                    .map(|c| cols[c].values[i].clone())
                    .unwrap_or_default()
            };
            (id.clone(), row_texts(layout, &single, get))
        })
        .collect();
    (layout, by_id)
}

/// Texts from a second file: JSON lines when it starts with `{`, else CSV.
fn from_file(bytes: &[u8], name: &str) -> Result<(texts::Layout, HashMap<String, Vec<String>>)> {
    let body = std::str::from_utf8(bytes).map_err(|_| {
        anyhow!("{name} is not UTF-8 text; save it as UTF-8 (items.jsonl or a CSV item_id,text)")
    })?;
    if body.trim_start().starts_with('{') {
        let objs = texts::jsonl_objects(body, name)?;
        let (layout, single) = texts::jsonl_layout(&objs, name)?;
        let by_id = objs
            .iter()
            .map(|(id, o)| (id.clone(), row_texts(layout, &single, |k| field(o, k))))
            .collect();
        return Ok((layout, by_id));
    }
    let (ids, cols) = parse_texts_csv(bytes).map_err(|e| anyhow!("{name}: {e}"))?;
    Ok(from_columns(&ids, &cols))
}

/// Parses the votes (and the texts file, when given) and pairs every item with its texts. Items
/// without any text are left out (with a note); none at all is an error that says what to add.
pub fn prepare(
    votes: &[u8],
    votes_name: &str,
    texts_file: Option<(&[u8], &str)>,
) -> Result<Prepared> {
    let opts = ImportOptions {
        skip_zero_vote_items: true,
        ..Default::default()
    };
    let (table, report) = parse_votes(votes, &opts).map_err(|e| anyhow!("{votes_name}: {e}"))?;
    let (keep, texts, notes) = pair(table.item_ids(), &report.texts, votes_name, texts_file)?;
    let table = if keep.len() < table.num_items() {
        table.reordered(&keep)
    } else {
        table
    };
    Ok(Prepared {
        table,
        texts,
        notes,
    })
}

/// Multilabel votes (either layout) ready to embed, as [`Prepared`].
pub struct MlPrepared {
    pub table: MultilabelTable,
    pub texts: ItemTexts,
    pub notes: Vec<String>,
}

/// [`prepare`] for multilabel votes.
pub fn prepare_multilabel(
    votes: &[u8],
    votes_name: &str,
    texts_file: Option<(&[u8], &str)>,
) -> Result<MlPrepared> {
    let (table, report) = parse_multilabel(votes).map_err(|e| anyhow!("{votes_name}: {e}"))?;
    let (keep, texts, notes) = pair(table.item_ids(), &report.texts, votes_name, texts_file)?;
    let table = if keep.len() < table.n_items() {
        table.reordered(&keep)
    } else {
        table
    };
    Ok(MlPrepared {
        table,
        texts,
        notes,
    })
}

/// The items of `ids` that have a text (their indices), their texts and notes on what was left
/// out, from the texts file when given, else from the votes file's text columns `cols`.
fn pair(
    ids: &[String],
    cols: &[TextColumn],
    votes_name: &str,
    texts_file: Option<(&[u8], &str)>,
) -> Result<(Vec<usize>, ItemTexts, Vec<String>)> {
    let (layout, by_id, source) = match texts_file {
        Some((bytes, name)) => {
            let (l, m) = from_file(bytes, name)?;
            (l, m, name.to_string())
        }
        None if !cols.is_empty() => {
            let (l, m) = from_columns(ids, cols);
            (l, m, format!("the text columns of {votes_name}"))
        }
        None => bail!(
            "{votes_name} has no text column (text, or premise and hypothesis) and no texts file was added: \
             add a column, or a texts file (items.jsonl, or a CSV item_id,text), to train models on your items"
        ),
    };
    let mut keep = Vec::new();
    let (mut missing, mut empty) = (0usize, 0usize);
    let mut texts = vec![Vec::new(); layout.fields().len()];
    for (i, id) in ids.iter().enumerate() {
        match by_id.get(id) {
            None => missing += 1,
            Some(row) if row.iter().all(|t| t.trim().is_empty()) => empty += 1,
            Some(row) => {
                keep.push(i);
                for (c, t) in texts.iter_mut().zip(row) {
                    c.push(t.clone());
                }
            }
        }
    }
    if keep.is_empty() {
        let first_vote = ids.first().map(|s| quote(s)).unwrap_or_default();
        let first_text = by_id.keys().min().map(|s| quote(s)).unwrap_or_default();
        if missing == ids.len() {
            bail!(
                "none of the {} ids in {source} matches an item of {votes_name} (its first item is {first_vote}; the texts have e.g. {first_text}): \
                 the texts need the votes' item ids",
                by_id.len()
            );
        }
        bail!("every item's text in {source} is empty: there is nothing to embed");
    }
    let mut notes = Vec::new();
    if missing > 0 {
        notes.push(format!(
            "{missing} of {} items have no entry in {source} and were left out of the model side",
            ids.len()
        ));
    }
    if empty > 0 {
        notes.push(format!(
            "{empty} items have only empty texts and were left out of the model side"
        ));
    }
    Ok((keep, ItemTexts { layout, texts }, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_from_columns_or_a_second_file() {
        let votes = b"item_id,premise,hypothesis,a,b\nx,P1,H1,2,1\ny,P2,,0,3\nz,,,1,1\n";
        let p = prepare(votes, "v.csv", None).unwrap();
        assert_eq!(p.texts.layout, texts::Layout::Pair);
        assert_eq!(p.table.item_ids(), ["x", "y"]);
        assert_eq!(p.texts.texts[1], ["H1", ""]);
        assert!(
            p.notes[0].contains("1 items have only empty texts"),
            "{:?}",
            p.notes
        );

        let votes = b"item_id,a,b\nx,2,1\ny,0,3\n";
        let e = prepare(votes, "v.csv", None).err().unwrap().to_string();
        assert!(e.contains("no text column"), "{e}");
        let jsonl = b"{\"item_id\": \"y\", \"text\": \"hello\"}\n{\"item_id\": \"w\", \"text\": \"other\"}\n";
        let p = prepare(votes, "v.csv", Some((jsonl, "items.jsonl"))).unwrap();
        assert_eq!(p.table.item_ids(), ["y"]);
        assert_eq!(p.texts.texts[0], ["hello"]);
        assert!(
            p.notes[0].contains("1 of 2 items have no entry"),
            "{:?}",
            p.notes
        );
        let csv = b"item_id,text\nq,nope\n";
        let e = prepare(votes, "v.csv", Some((csv, "t.csv")))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("none of the 1 ids in t.csv matches"), "{e}");
        let e = prepare(votes, "v.csv", Some((b"item_id,label\nx,1\n", "t.csv")))
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("needs the item id first and a text column"),
            "{e}"
        );
        let e = prepare(votes, "v.csv", Some((&[0xff, 0xfe, 0x41], "t.csv")))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("not UTF-8"), "{e}");
    }

    #[test]
    fn multilabel_votes_pair_with_their_texts() {
        let votes = b"item_id,annotator_id,a,b\nx,w1,1,1\nx,w2,0,1\ny,w1,0,0\ny,w2,1,0\nz,w1,1,0\nz,w2,1,0\n";
        let jsonl =
            b"{\"item_id\": \"z\", \"text\": \"zed\"}\n{\"item_id\": \"x\", \"text\": \"ex\"}\n";
        let p = prepare_multilabel(votes, "r.csv", Some((jsonl, "items.jsonl"))).unwrap();
        assert_eq!(p.table.item_ids(), ["x", "z"]);
        assert_eq!(p.table.shares(0), [0.5, 1.0]);
        assert_eq!(p.table.shares(1), [1.0, 0.0]);
        assert_eq!(p.texts.texts[0], ["ex", "zed"]);
        assert!(
            p.notes[0].contains("1 of 3 items have no entry"),
            "{:?}",
            p.notes
        );
        let e = prepare_multilabel(votes, "r.csv", None)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no text column"), "{e}");
        let e = prepare_multilabel(
            b"item_id,a,b\nx,1,2\n",
            "v.csv",
            Some((jsonl, "items.jsonl")),
        )
        .err()
        .unwrap()
        .to_string();
        assert!(e.starts_with("v.csv: "), "{e}");
    }
}
