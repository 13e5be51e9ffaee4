//! The argument groups several commands share (clap `flatten`), so a flag has one definition and
//! one help text wherever it appears. A leaf: commands import it, never each other.

use std::path::PathBuf;

/// `--votes F --n LIST --repeats R --seed S`: the subsampled curves of `curves`, `agree` and
/// `extrapolate`.
#[derive(clap::Args, Debug, Clone)]
pub struct SubsampleArgs {
    /// Vote file: wide `item_id,<class…>` counts or long `item_id,annotator_id,label` (auto-detected).
    #[arg(long)]
    pub votes: PathBuf,
    /// Annotator budgets N, comma-separated (e.g. 1,3,10,100). Default: every N from 1 to the
    /// most votes an item has (`extrapolate`: to M', or 100 with `inf`); N above that is skipped
    /// with a note.
    #[arg(long, value_delimiter = ',')]
    pub n: Vec<u32>,
    /// Random subsamples per N; the interval is the 2.5–97.5th percentile over repeats.
    #[arg(long, default_value_t = 50)]
    pub repeats: u32,
    /// Seed for every random draw; the same seed gives the same numbers here and in the app.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
}

/// `--data DIR --model-dir DIR`: a dataset folder with its texts, and the encoder that reads them
/// (`embed`, `features`, `finetune`, `finetune-top`).
#[derive(clap::Args, Debug, Clone)]
pub struct EncoderArgs {
    /// Dataset folder with votes.csv and items.jsonl (e.g. ../shared/data/chaosnli_snli).
    #[arg(long)]
    pub data: PathBuf,
    /// Encoder checkpoint folder (config.json, model.safetensors, tokenizer.json).
    /// Default: $ANNOSAT_MODEL or ~/.cache/annosat/models/all-MiniLM-L6-v2 (scripts/fetch-model.sh).
    #[arg(long)]
    pub model_dir: Option<PathBuf>,
}
