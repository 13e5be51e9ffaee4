//! `annosat`: the command-line face of annosat. Every formula is the core's, so the CLI and the
//! app print the same numbers.
//!
//! - Target side, for any vote file: `curves` (saturation curves, answers with item intervals),
//!   `extrapolate` (beyond the votes there are, `--check` how far to trust it), `agree` and
//!   `aggregate` (Krippendorff's α, Dawid–Skene vs N), `adaptive` (votes collected in rounds),
//!   `worth` (another vote source measured in human annotators), `annotators` (each annotator of a
//!   long file in typical annotators), `distance` (per-item metrics of two
//!   files, for the numpy cross-check).
//! - Data and exports: `bundle` (the app's datasets), `pool` (sets with the same classes as one),
//!   `repro` (the reproduction table and the docs' generated findings), `verdicts` (an export's
//!   verdicts recomputed from its files).
//! - Models, behind the default feature `models` (the only part that needs candle): `embed`,
//!   `features`, `sweep` (+ `merge` for shards), `plan` (the budget planner), `finetune`
//!   (+ `merge-finetune`), `finetune-top`, `synth` (data with a known answer and its features).
//!
//! One vocabulary for the flags (`cli_words`): `--n` N lists, `--votes` a vote file,
//! `--split-seed`/`--model-seed`, `--bootstrap B`, `--format csv|json`.

mod adaptive_cmd;
mod aggregate_cmd;
mod agree_cmd;
mod annotators_cmd;
mod bundle_cmd;
mod cli_words;
mod compare_cmd;
mod curve_args;
mod curves_cmd;
mod curves_headline;
mod curves_json;
mod curves_multilabel;
mod distance_cmd;
#[cfg(feature = "models")]
mod embed_cmd;
#[cfg(feature = "models")]
mod embedding;
#[cfg(feature = "models")]
mod encoder;
mod extrapolate_cmd;
#[cfg(feature = "models")]
mod features_cmd;
#[cfg(feature = "models")]
mod finetune_cmd;
#[cfg(feature = "models")]
mod finetune_head;
#[cfg(feature = "models")]
mod finetune_merge;
#[cfg(feature = "models")]
mod finetune_top_cmd;
mod format;
#[cfg(feature = "models")]
mod head_sets;
#[cfg(feature = "models")]
mod plan_cmd;
mod pool_cmd;
mod ratings_cmd;
mod repro_cmd;
mod shared_args;
#[cfg(feature = "models")]
mod sweep;
#[cfg(feature = "models")]
mod synth_cmd;
#[cfg(feature = "models")]
mod texts;
mod util;
mod verdicts_cmd;
mod worth_cmd;

use clap::{Parser, Subcommand};

/// The head sweep allocates and frees tens of megabytes per optimiser step (candle makes new tensors);
/// glibc returns such blocks to the OS each time and page-faults them back, which cost more than the
/// arithmetic. mimalloc keeps them.
#[cfg(feature = "models")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "annosat",
    version,
    about = "How many annotators per item does your metric need?"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Target-side saturation curves: how close p_N (N subsampled votes) gets to the full distribution.
    Curves(curves_cmd::Args),
    /// Rating curves for classes on a scale (1–5 stars, Likert): mean-rating error and RMSE,
    /// reliability of the N-rater mean (ICC), rank correlation of the items' means, Wasserstein.
    Ratings(ratings_cmd::Args),
    /// Agreement vs N: Krippendorff's α (nominal, ordinal, interval) of all votes and of N-vote
    /// subsamples, and how often majority vote and Dawid–Skene keep their full-data label at N.
    Agree(agree_cmd::Args),
    /// Each item's aggregate label and class probabilities: majority vote or Dawid–Skene.
    Aggregate(aggregate_cmd::Args),
    /// Collect votes in rounds on the items' real votes: adaptive policies against uniform
    /// allocation at the same total budget.
    Adaptive(adaptive_cmd::Args),
    /// The curves `curves` would print if every item had M votes, from fewer (a Dirichlet prior
    /// fitted to the items); --check says how far that can be trusted.
    Extrapolate(extrapolate_cmd::Args),
    /// Per-item entropy, KL and JS distance between two vote files with the same items and classes.
    Distance(distance_cmd::Args),
    /// Can a human evaluation tell two models apart: power and significance of B − A per metric
    /// over items × votes per item, the best split per budget and the budget for 80% power.
    Compare(compare_cmd::Args),
    /// Whether each arm's metrics change with N in a model export: the N₁ → N_max change with an
    /// interval over test items and splits, "saturates" (with its 90% point), "no detectable
    /// change" or "worsens" — recomputed from the export's files and the votes.
    Verdicts(verdicts_cmd::Args),
    /// What another vote source (an LLM panel, experts, a second crowd) on the same items is
    /// worth in human annotators, per metric, with intervals over items and reference splits.
    Worth(worth_cmd::Args),
    /// Which of a long file's annotators pull their weight: each in typical annotators against
    /// the others on the items they labelled, with a Dawid–Skene summary; flags who is below one.
    Annotators(annotators_cmd::Args),
    /// Turn dataset folders into the compact files and index.json the web app fetches.
    Bundle(bundle_cmd::Args),
    /// Mean-pooled sentence embeddings of each item's texts, cached as safetensors (resumable).
    #[cfg(feature = "models")]
    Embed(embed_cmd::Args),
    /// Train MLP heads on cached features for every arm × N × seed × split; export for the app.
    #[cfg(feature = "models")]
    Sweep(sweep::Args),
    /// The budget planner: for each total of votes, heads trained on more items × fewer votes or
    /// fewer × more, scored on the test items; the best N per budget and metric.
    #[cfg(feature = "models")]
    Plan(plan_cmd::Args),
    /// Gather the groups of a sharded sweep (`sweep --shard I/S`) and write the exports a
    /// single-process sweep writes, byte for byte; run with the sweep's flags.
    #[cfg(feature = "models")]
    Merge(sweep::shard::MergeArgs),
    /// Combine the shards of a fine-tune (`finetune --shard I/S --out OUT`) into OUT.
    #[cfg(feature = "models")]
    MergeFinetune(finetune_merge::Args),
    /// Fine-tune the whole encoder plus a head on N-vote targets (CPU, or CUDA with --features cuda).
    #[cfg(feature = "models")]
    Finetune(finetune_cmd::Args),
    /// The reproduction table: published numbers beside ours, from the sweep exports.
    Repro(repro_cmd::Args),
    /// Several dataset folders with the same classes as one (ids prefixed by dataset).
    Pool(pool_cmd::Args),
    /// Head features from other blocks of the same encoder (joint pair, lexical, token alignment).
    #[cfg(feature = "models")]
    Features(features_cmd::Args),
    /// Fine-tune the encoder's top layer(s) and a head, the lower layers' outputs cached (CPU-sized).
    #[cfg(feature = "models")]
    FinetuneTop(finetune_top_cmd::Args),
    /// A synthetic dataset with known true distributions, votes and features (the model-side control).
    #[cfg(feature = "models")]
    Synth(synth_cmd::Args),
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    for note in cli_words::deprecation_notes(&args) {
        eprintln!("{note}");
    }
    let cli = Cli::parse_from(&args);
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "annosat=info".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let result = match cli.command {
        Command::Curves(a) => curves_cmd::run(a),
        Command::Ratings(a) => ratings_cmd::run(a),
        Command::Extrapolate(a) => extrapolate_cmd::run(a),
        Command::Agree(a) => agree_cmd::run(a),
        Command::Aggregate(a) => aggregate_cmd::run(a),
        Command::Adaptive(a) => adaptive_cmd::run(a),
        Command::Distance(a) => distance_cmd::run(a),
        Command::Verdicts(a) => verdicts_cmd::run(a),
        Command::Compare(a) => compare_cmd::run(a),
        Command::Worth(a) => worth_cmd::run(a),
        Command::Annotators(a) => annotators_cmd::run(a),
        Command::Bundle(a) => bundle_cmd::run(a),
        #[cfg(feature = "models")]
        Command::Embed(a) => embed_cmd::run(a),
        #[cfg(feature = "models")]
        Command::Sweep(a) => sweep::run(a),
        #[cfg(feature = "models")]
        Command::Plan(a) => plan_cmd::run(a),
        #[cfg(feature = "models")]
        Command::Merge(a) => sweep::shard::merge(a),
        #[cfg(feature = "models")]
        Command::MergeFinetune(a) => finetune_merge::run(a),
        Command::Repro(a) => repro_cmd::run(a),
        Command::Pool(a) => pool_cmd::run(a),
        #[cfg(feature = "models")]
        Command::Synth(a) => synth_cmd::run(a),
        #[cfg(feature = "models")]
        Command::Features(a) => features_cmd::run(a),
        #[cfg(feature = "models")]
        Command::FinetuneTop(a) => finetune_top_cmd::run(a),
        #[cfg(feature = "models")]
        Command::Finetune(a) => finetune_cmd::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
