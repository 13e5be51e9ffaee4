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

impl SubsampleArgs {
    /// The N asked for with `--n` that the computed `grid` left out (above the most votes an item
    /// has), for the command's note.
    pub fn skipped(&self, grid: &[u32]) -> Vec<u32> {
        self.n
            .iter()
            .copied()
            .filter(|n| !grid.contains(n))
            .collect()
    }
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

/// `--scale nominal|ordinal|interval --order A,B,…`: whether the classes are a scale, and their
/// order on it (`ratings`). Without `--scale`, classes that are all numbers are read as an
/// interval scale, said in one line.
#[derive(clap::Args, Debug, Clone)]
pub struct ScaleArgs {
    /// How the classes relate: nominal (no order), ordinal (ordered: ranks 1..K in --order, else
    /// the file's class order) or interval (the class names are numbers). Default: interval when
    /// every class is a number.
    #[arg(long, value_parser = parse_scale_kind)]
    pub scale: Option<annosat_core::ratings::ScaleKind>,
    /// The classes from the lowest to the highest, comma-separated, for an ordinal scale.
    #[arg(long, value_delimiter = ',')]
    pub order: Vec<String>,
}

fn parse_scale_kind(s: &str) -> Result<annosat_core::ratings::ScaleKind, String> {
    annosat_core::ratings::ScaleKind::parse(s)
        .ok_or_else(|| format!("{s:?}: give nominal, ordinal or interval"))
}

impl ScaleArgs {
    /// The scale of `classes` these flags give, and the line to print when it was read from the
    /// class names; `None` for nominal classes.
    pub fn scale(
        &self,
        classes: &[String],
    ) -> anyhow::Result<Option<(annosat_core::ratings::Scale, Option<String>)>> {
        use annosat_core::ratings::{Scale, ScaleKind};
        let order = (!self.order.is_empty()).then_some(self.order.as_slice());
        match self.scale {
            Some(ScaleKind::Nominal) => Ok(None),
            Some(kind) => Ok(Some((
                Scale::declared(kind, classes, order).map_err(anyhow::Error::msg)?,
                None,
            ))),
            None if order.is_some() => Ok(Some((
                Scale::declared(ScaleKind::Ordinal, classes, order).map_err(anyhow::Error::msg)?,
                None,
            ))),
            None => Ok(Scale::detect(classes).map(|s| {
                let note = s.detected_note();
                (s, Some(note))
            })),
        }
    }
}
