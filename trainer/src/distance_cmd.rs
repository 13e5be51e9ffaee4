//! `annosat distance`: per-item metrics between two vote files over the same items and classes,
//! e.g. ChaosNLI's original 5 labels against its 100 new ones.

use annosat_core::metrics::{entropy, js_distance, kl, normalize};
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The reference distribution (e.g. 100 votes per item); KL is KL(reference ‖ other).
    #[arg(long)]
    reference: PathBuf,
    /// The distribution compared with it (e.g. the original 5 votes).
    #[arg(long)]
    other: PathBuf,
}

/// Prints `item_id,entropy_reference,entropy_other,kl,jsd` for items present in both files.
pub fn run(a: Args) -> Result<()> {
    let r = crate::util::load_votes(&a.reference, false)?;
    let o = crate::util::load_votes(&a.other, false)?;
    if r.classes() != o.classes() {
        bail!(
            "the files have different classes: {:?} vs {:?}",
            r.classes(),
            o.classes()
        );
    }
    let index: HashMap<&str, usize> = o
        .item_ids()
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let mut out = String::from("item_id,entropy_reference,entropy_other,kl,jsd\n");
    let mut missing = 0;
    for (i, id) in r.item_ids().iter().enumerate() {
        let Some(&j) = index.get(id.as_str()) else {
            missing += 1;
            continue;
        };
        let p = normalize(r.counts(i)).context("reference item without votes")?;
        let q = normalize(o.counts(j)).context("other item without votes")?;
        let quoted = if id.contains([',', '"']) {
            format!("\"{}\"", id.replace('"', "\"\""))
        } else {
            id.clone()
        };
        out += &format!(
            "{quoted},{},{},{},{}\n",
            entropy(&p),
            entropy(&q),
            kl(&p, &q),
            js_distance(&p, &q)
        );
    }
    if missing > 0 {
        eprintln!("note: {missing} reference item(s) are not in the other file");
    }
    print!("{out}");
    Ok(())
}
