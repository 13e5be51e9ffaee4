//! `annosat bundle`: turn dataset folders into what the app fetches: one compact `<name>.bin` per
//! dataset (votes), `<name>.texts.json` where the dataset has item texts, and `index.json` with the
//! statistics, source and license the dataset picker shows.

use annosat_core::bundle::{encode, Bundle, IndexEntry};
use annosat_core::summary::Summary;
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The dataset the app opens first; listed first in the index.
pub const DEFAULT_DATASET: &str = "chaosnli_snli";

#[derive(clap::Args)]
pub struct Args {
    /// Folder of datasets, one sub-folder each with votes.csv (and optionally SOURCE.md,
    /// items.jsonl); repeat it for several folders (a dataset in two is taken from the first).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Output folder (the app serves it as data/).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    let mut dirs: Vec<PathBuf> = Vec::new();
    for data in &a.data {
        let mut here: Vec<PathBuf> = std::fs::read_dir(data)
            .with_context(|| format!("cannot read {}", data.display()))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("votes.csv").exists() || p.join(MULTILABEL_VOTES).exists())
            .filter(|p| !dirs.iter().any(|d| d.file_name() == p.file_name()))
            .collect();
        dirs.append(&mut here);
    }
    dirs.sort_by(|x, y| x.file_name().cmp(&y.file_name()));
    let mut index = Vec::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if !dir.join("votes.csv").exists() {
            index.push(bundle_multilabel(&dir, &name, &a.out)?);
            continue;
        }
        let mut table = crate::util::load_votes(&dir.join("votes.csv"), true)?;
        // Per-annotator rows make the held-out split one of whole annotators (see core::sample).
        let ann = dir.join("annotations.csv");
        if ann.exists() {
            let long = crate::util::load_votes(&ann, false)?;
            table = table
                .attach_annotations(&long)
                .map_err(|e| anyhow::anyhow!("{}: {e}", ann.display()))?;
        }
        let summary = Summary::of(&table);
        let bin = encode(&Bundle {
            name: name.clone(),
            table,
        });
        let mut sources = Vec::new();
        for (file, key, title) in annosat_core::bundle::SOURCE_FILES {
            let from = dir.join(file);
            if from.exists() {
                let to = format!("{name}.source.{key}.csv");
                let bytes = std::fs::read(&from)
                    .with_context(|| format!("cannot read {}", from.display()))?;
                write_atomic(&a.out.join(&to), &bytes)?;
                sources.push(annosat_core::bundle::SourceEntry {
                    key: key.into(),
                    title: title.into(),
                    file: to,
                });
            }
        }
        let written = (summary, bin, sources);
        index.push(index_entry(&dir, &name, &a.out, written, "classes")?);
    }
    index.sort_by(|x, y| {
        (
            x.name != DEFAULT_DATASET,
            std::cmp::Reverse(x.summary.votes_max),
            &x.name,
        )
            .cmp(&(
                y.name != DEFAULT_DATASET,
                std::cmp::Reverse(y.summary.votes_max),
                &y.name,
            ))
    });
    write_atomic(
        &a.out.join("index.json"),
        serde_json::to_string_pretty(&index)?.as_bytes(),
    )?;
    Ok(())
}

/// A multilabel dataset folder's votes (it has no votes.csv: a single-label tool would misread it).
const MULTILABEL_VOTES: &str = "ratings_multilabel.csv";

/// The folder's `items.jsonl` texts as `<name>.texts.json` beside the bundle, when it has them;
/// returns the file's name for the index.
fn bundle_texts(dir: &Path, name: &str, out: &Path) -> Result<Option<String>> {
    let items = dir.join("items.jsonl");
    if !items.exists() {
        return Ok(None);
    }
    let file = format!("{name}.texts.json");
    write_atomic(
        &out.join(&file),
        serde_json::to_string(&read_texts(&items)?)?.as_bytes(),
    )?;
    Ok(Some(file))
}

/// Bundles a multilabel dataset: its `<name>.bin` (a multilabel bundle, told apart by its header),
/// its texts, and its index entry.
fn bundle_multilabel(dir: &Path, name: &str, out: &Path) -> Result<IndexEntry> {
    use annosat_core::multilabel::bundle::{encode, MlBundle};
    let path = dir.join(MULTILABEL_VOTES);
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let (table, _) = annosat_core::import::multilabel::parse_multilabel(&bytes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let summary = Summary::of_multilabel(&table);
    let bin = encode(&MlBundle {
        name: name.into(),
        table,
    });
    let written = (summary, bin, Vec::new());
    index_entry(dir, name, out, written, "labels (multilabel)")
}

/// Writes a dataset's `<name>.bin` and texts and returns its index entry (its SOURCE.md's title,
/// source and license, its summary and source files); `classes` names what the summary's classes
/// are in the line it prints.
fn index_entry(
    dir: &Path,
    name: &str,
    out: &Path,
    (summary, bin, sources): (Summary, Vec<u8>, Vec<annosat_core::bundle::SourceEntry>),
    classes: &str,
) -> Result<IndexEntry> {
    let (title, source, license) = read_source(&dir.join("SOURCE.md"), name);
    let file = format!("{name}.bin");
    write_atomic(&out.join(&file), &bin)?;
    let texts = bundle_texts(dir, name, out)?;
    let (items, k) = (summary.items, summary.classes.len());
    eprintln!("bundled {name}: {items} items, {k} {classes}");
    Ok(IndexEntry {
        name: name.into(),
        title,
        source,
        license,
        summary,
        file,
        texts,
        sources,
        scale: annosat_core::bundle::declared_scale(name),
    })
}

/// Writes through a temporary file and a rename, so readers never see half a file.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Title (first heading), source repository line and license line from a dataset's SOURCE.md.
fn read_source(path: &Path, name: &str) -> (String, String, String) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let title = text
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap_or(name)
        .trim()
        .to_string();
    let source = text
        .lines()
        .find_map(|l| l.strip_prefix("- Repository:"))
        .map(|s| {
            s.split(" (")
                .next()
                .unwrap_or(s)
                .replace('`', "")
                .trim()
                .to_string()
        })
        .unwrap_or_else(|| "not stated".into());
    let license = text
        .split("## License")
        .nth(1)
        .and_then(|s| {
            s.lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with('('))
        })
        .map(|s| s.chars().take(240).collect())
        .unwrap_or_else(|| "not stated".into());
    (title, source, license)
}

/// `item_id → text`: the item's string fields (premise, hypothesis, text, …), labels left out.
fn read_texts(path: &Path) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for line in std::fs::read_to_string(path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("bad line in {}", path.display()))?;
        let Some(obj) = v.as_object() else { continue };
        let Some(id) = obj.get("item_id").map(|x| {
            x.as_str()
                .map(String::from)
                .unwrap_or_else(|| x.to_string())
        }) else {
            continue;
        };
        let parts: Vec<String> = obj
            .iter()
            .filter(|(k, _)| {
                !matches!(k.as_str(), "item_id" | "source")
                    && !k.contains("label")
                    && !k.contains("gold")
            })
            .filter_map(|(k, x)| {
                x.as_str()
                    .map(|s| format!("{k}: {}", s.chars().take(300).collect::<String>()))
            })
            .collect();
        if !parts.is_empty() {
            out.insert(id, parts.join(" | "));
        }
    }
    Ok(out)
}
