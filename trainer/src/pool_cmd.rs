//! `annosat pool`: several dataset folders with the same classes as one (votes.csv + items.jsonl,
//! item ids prefixed `<dataset>/`), for statistical power: ChaosNLI's SNLI and MNLI sets pooled
//! give 3,113 items, and `annosat sweep --folds 5` on them tests every item once.

use crate::util::{atomic_write, dataset_name, load_votes};
use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Dataset folders (votes.csv + items.jsonl), all with the same classes in the same order.
    #[arg(long, required = true, num_args = 2..)]
    pub data: Vec<PathBuf>,
    /// The pooled folder to write.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let mut votes = String::new();
    let mut items = String::new();
    let mut classes: Option<Vec<String>> = None;
    let mut sources = Vec::new();
    for dir in &a.data {
        let name = dataset_name(dir);
        let t = load_votes(&dir.join("votes.csv"), false)?;
        match &classes {
            None => {
                votes = format!("item_id,{}\n", t.classes().join(","));
                classes = Some(t.classes().to_vec());
            }
            Some(c) if c.as_slice() != t.classes() => bail!(
                "{} has classes {:?}, the first folder {:?}: only sets with the same classes pool",
                dir.display(),
                t.classes(),
                c
            ),
            Some(_) => {}
        }
        for (i, id) in t.item_ids().iter().enumerate() {
            let c: Vec<String> = t.counts(i).iter().map(|x| x.to_string()).collect();
            writeln!(votes, "{name}/{id},{}", c.join(","))?;
        }
        let path = dir.join("items.jsonl");
        let body = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (line_no, line) in body.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let mut o: serde_json::Map<String, serde_json::Value> = serde_json::from_str(line)
                .with_context(|| format!("{} line {}", path.display(), line_no + 1))?;
            let id = o
                .get("item_id")
                .map(|v| {
                    v.as_str()
                        .map(String::from)
                        .unwrap_or_else(|| v.to_string())
                })
                .with_context(|| format!("{} line {}: no item_id", path.display(), line_no + 1))?;
            o.insert("item_id".into(), format!("{name}/{id}").into());
            writeln!(items, "{}", serde_json::Value::Object(o))?;
        }
        sources.push(format!(
            "- `{name}`: {} items from {}",
            t.num_items(),
            dir.display()
        ));
    }
    std::fs::create_dir_all(&a.out)?;
    atomic_write(&a.out.join("votes.csv"), votes.as_bytes())?;
    atomic_write(&a.out.join("items.jsonl"), items.as_bytes())?;
    let source = format!(
        "# Pooled dataset (annosat pool)\n\n{}\n\nItem ids are prefixed with their dataset's name. Each set's own SOURCE.md gives its origin and license.\n",
        sources.join("\n")
    );
    atomic_write(&a.out.join("SOURCE.md"), source.as_bytes())?;
    println!("{}", a.out.display());
    Ok(())
}
