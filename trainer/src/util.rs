//! Small shared helpers: reading vote files, atomic writes, default locations, progress bars.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
#[cfg(feature = "models")]
use std::path::PathBuf;

/// Writes `bytes` to `path` via a temporary file in the same directory and a rename, so a killed
/// run never leaves a half-written file that a resumed run would trust.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        path.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot move {} into place", path.display()))?;
    Ok(())
}

#[cfg(feature = "models")]
/// `~/.cache/annosat` (or `$ANNOSAT_CACHE`): features, sweep runs and models live here.
pub fn cache_root() -> PathBuf {
    if let Ok(c) = std::env::var("ANNOSAT_CACHE") {
        return PathBuf::from(c);
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| ".".into());
    PathBuf::from(home).join(".cache/annosat")
}

#[cfg(feature = "models")]
/// `$ANNOSAT_MODEL`, else where scripts/fetch-model.sh puts all-MiniLM-L6-v2.
pub fn default_model_dir() -> PathBuf {
    std::env::var("ANNOSAT_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|_| cache_root().join("models/all-MiniLM-L6-v2"))
}

/// The dataset's name: its folder name.
pub fn dataset_name(dir: &Path) -> String {
    std::fs::canonicalize(dir)
        .unwrap_or_else(|_| dir.to_path_buf())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dataset".into())
}

/// A progress bar on stderr (hidden when stderr is not a terminal, so logs stay clean).
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:30}] {pos}/{len} {per_sec} eta {eta}")
            .expect("static template")
            .progress_chars("=> "),
    );
    pb.set_message(what.to_string());
    pb
}

/// Reads and parses a vote file, with the path in any error message. The file streams through the
/// parser (never held whole: a 200 MB file costs the table, not the table plus the file).
pub fn load_votes(path: &std::path::Path, skip_empty: bool) -> Result<annosat_core::VoteTable> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let len = file.metadata().map(|m| m.len() as usize).unwrap_or(0);
    let opts = annosat_core::ImportOptions {
        skip_zero_vote_items: skip_empty,
        ..Default::default()
    };
    let input = std::io::BufReader::with_capacity(1 << 20, file);
    let (table, report) = annosat_core::parse_votes_from(input, len, &opts, &mut |_| {})
        .with_context(|| format!("{} is not a valid vote file", path.display()))?;
    if !report.skipped_zero_vote.is_empty() {
        eprintln!(
            "note: skipped {} item(s) with zero votes",
            report.skipped_zero_vote.len()
        );
    }
    Ok(table)
}

/// A dataset folder's multilabel vote file, when it has no single-label `votes.csv`: the wide
/// `ratings_multilabel.csv` (one 0/1 row per item × annotator) or the long `labels_long.csv`.
#[cfg(feature = "models")] // used by embed and sweep only
pub fn multilabel_file(data: &Path) -> Option<std::path::PathBuf> {
    if data.join("votes.csv").exists() {
        return None;
    }
    ["ratings_multilabel.csv", "labels_long.csv"]
        .into_iter()
        .map(|f| data.join(f))
        .find(|p| p.exists())
}

/// Reads a multilabel vote file (either layout), with the path in any error message.
#[cfg(feature = "models")] // used by embed and sweep only
pub fn load_multilabel(path: &Path) -> Result<annosat_core::multilabel::MultilabelTable> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (table, _) = annosat_core::import::multilabel::parse_multilabel(&bytes)
        .with_context(|| format!("{} is not a valid multilabel vote file", path.display()))?;
    Ok(table)
}

/// The item ids of a dataset folder, in its vote file's order (single-label or multilabel).
#[cfg(feature = "models")] // used by embed and sweep only
pub fn item_ids(data: &Path) -> Result<Vec<String>> {
    match multilabel_file(data) {
        Some(f) => Ok(load_multilabel(&f)?.item_ids().to_vec()),
        None => Ok(load_votes(&data.join("votes.csv"), false)?
            .item_ids()
            .to_vec()),
    }
}

/// `truth.csv` (`item_id,<class…>` probabilities, as `annosat synth` writes it) in the items' order.
pub fn read_truth(path: &Path, ids: &[String], k: usize) -> Result<Vec<f64>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--truth: cannot read {}", path.display()))?;
    let mut rows = std::collections::HashMap::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let mut f = line.split(',');
        let id = f.next().unwrap_or_default().to_string();
        let p: Vec<f64> = f
            .map(|x| x.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .with_context(|| format!("{} line {}: not a probability", path.display(), i + 1))?;
        if p.len() != k {
            bail!(
                "{} line {}: {} classes, the votes have {k}",
                path.display(),
                i + 1,
                p.len()
            );
        }
        rows.insert(id, p);
    }
    let mut out = Vec::with_capacity(ids.len() * k);
    for id in ids {
        out.extend(
            rows.get(id)
                .with_context(|| format!("{}: no row for item {id}", path.display()))?,
        );
    }
    Ok(out)
}
