//! Item texts for the trainer: reads a dataset's `items.jsonl`. The layouts and the parsing are
//! annosat-encoder's (shared with the app's model worker).

pub use annosat_encoder::texts::{ItemTexts, Layout};
use anyhow::{Context, Result};
use std::path::Path;

/// Reads `items.jsonl` and picks the layout from the fields the items have.
pub fn read(path: &Path, item_ids: &[String]) -> Result<ItemTexts> {
    let body =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    annosat_encoder::texts::parse_jsonl(&body, item_ids, &path.display().to_string())
}
