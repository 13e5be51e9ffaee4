//! `annosat embed`: embeds every item's text fields and prints the cache file (`embedding`).

use crate::embedding::{embed, EmbedSpec};
use crate::shared_args::EncoderArgs;
use anyhow::Result;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub enc: EncoderArgs,
    /// Where embeddings are cached. Default: ~/.cache/annosat/features.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Texts per forward pass.
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
    /// Embed only the first N items (quick checks; the cache file name records it).
    #[arg(long)]
    pub limit: Option<usize>,
}

impl Args {
    fn spec(&self) -> EmbedSpec {
        EmbedSpec {
            data: self.enc.data.clone(),
            model_dir: self.enc.model_dir.clone(),
            cache: self.cache.clone(),
            batch: self.batch,
            limit: self.limit,
        }
    }
}

pub fn run(a: Args) -> Result<()> {
    let out = embed(&a.spec())?;
    println!("{}", out.display());
    Ok(())
}
