//! `annosat features`: writes a head-features file of a feature set (`head_sets`), for
//! `annosat sweep --head-features F --pca 0`.

use crate::head_sets::{build, FeatureSpec};
use crate::shared_args::EncoderArgs;
use crate::util::atomic_write;
use anyhow::Result;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub enc: EncoderArgs,
    /// Blocks joined with +: pair, joint, lexical, align (e.g. pair+lexical+align).
    #[arg(long)]
    pub set: String,
    /// The head-features file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Embedding cache for the pair block (default: ~/.cache/annosat/features).
    #[arg(long)]
    pub features_cache: Option<PathBuf>,
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
}

impl Args {
    fn spec(&self) -> FeatureSpec {
        FeatureSpec {
            data: self.enc.data.clone(),
            set: self.set.clone(),
            model_dir: self.enc.model_dir.clone(),
            features_cache: self.features_cache.clone(),
            batch: self.batch,
        }
    }
}

pub fn run(a: Args) -> Result<()> {
    let head = build(&a.spec())?;
    atomic_write(&a.out, &head.to_bytes()?)?;
    tracing::info!(
        "{}: {} features ({})",
        a.out.display(),
        head.width,
        head.layout
    );
    println!("{}", a.out.display());
    Ok(())
}
