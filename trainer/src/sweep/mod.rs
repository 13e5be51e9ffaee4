//! `annosat sweep`: MLP heads on frozen encoder features for every arm × N × model seed × split seed.
//!
//! Work is done in *groups*, one per (dataset, split seed, model seed): every trained arm at every N
//! as one batched model (annosat-heads: [`annosat_heads::group`]). Each finished group is written atomically to the work
//! directory under a hash of the configuration, so a killed sweep resumes by skipping finished groups,
//! and a changed configuration never mixes with old results. When all groups of a dataset exist,
//! [`export`] writes the files the app reads.

pub(crate) mod export;
pub mod multilabel;
pub(crate) mod pca;
pub mod shard;

use crate::embedding;
use crate::util::{atomic_write, cache_root, dataset_name, progress};
pub use annosat_core::models::{HeadConfig, SweepConfig, N_GRID};
use annosat_heads::arms::Arm;
use annosat_heads::{group, Dataset, HeadFeatures};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Dataset folders (votes.csv + items.jsonl); repeat the flag for several.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where the exports for the app go (one folder per dataset), e.g. public/models.
    #[arg(long)]
    pub out: PathBuf,
    /// Finished groups, for resuming. Default: ~/.cache/annosat/sweep.
    #[arg(long)]
    pub work: Option<PathBuf>,
    /// Encoder checkpoint (default: all-MiniLM-L6-v2 from scripts/fetch-model.sh).
    #[arg(long)]
    pub model_dir: Option<PathBuf>,
    /// Embedding cache (default: ~/.cache/annosat/features).
    #[arg(long)]
    pub features_cache: Option<PathBuf>,
    /// Annotator budgets (capped at the smallest vote count).
    #[arg(long = "n", alias = "ns", value_delimiter = ',', default_values_t = N_GRID)]
    pub ns: Vec<u32>,
    /// Arms, comma-separated (default: all; temp_hard needs hard). `--help` lists them.
    #[arg(long, value_delimiter = ',', long_help = arms_help())]
    pub arms: Vec<String>,
    /// Item-level split seeds (80% train, 10% validation, 10% test).
    #[arg(long = "split-seed", alias = "splits", value_delimiter = ',', default_values_t = [42u64, 43, 44])]
    pub splits: Vec<u64>,
    /// k-fold cross-validation instead of --split-seed: fold f tests the f-th fifth (for k = 5) of the
    /// items, so metrics can also be computed over all items (the manifest's `pooled`).
    #[arg(long)]
    pub folds: Option<u64>,
    /// Model seeds per split: 0..S (initialisation, minibatch order, vote subsample).
    #[arg(long = "model-seeds", alias = "seeds", default_value_t = 5)]
    pub seeds: u64,
    /// Score test items against the folder's truth.csv (the true distributions of `annosat synth`
    /// data) instead of their votes.
    #[arg(long, conflicts_with = "heldout")]
    pub truth: bool,
    /// Evaluate against held-out annotators: train targets from the rest of each item's votes,
    /// score against this fraction (the sweep holds out 0.2, the default when no value is given).
    #[arg(long, value_name = "FRACTION", num_args = 0..=1, default_missing_value = "0.2")]
    pub heldout: Option<f64>,
    /// Project features onto this many principal components first (0 = use raw features).
    #[arg(long, default_value_t = 256)]
    pub pca: usize,
    #[arg(long, default_value_t = 64)]
    pub hidden: usize,
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f64,
    #[arg(long, default_value_t = 1e-2)]
    pub weight_decay: f64,
    #[arg(long, default_value_t = 64)]
    pub batch: usize,
    #[arg(long, default_value_t = 60)]
    pub epochs: usize,
    /// Stop a group when no head's validation loss improved for this many epochs.
    #[arg(long, default_value_t = 8)]
    pub patience: usize,
    /// Use only the first N items (quick checks).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Head features other than the default pair embeddings: blocks joined with + (pair, joint,
    /// lexical, align; see `annosat features --help`), built once and cached. NLI pairs only.
    #[arg(long)]
    pub features: Option<String>,
    /// Train on these head features (a `features.safetensors` from an export) instead of embedding
    /// and projecting: the committed exports regenerate bit for bit from them on any CPU.
    #[arg(long)]
    pub head_features: Option<PathBuf>,
    /// Train only shard I of S (0-based, e.g. 2/4): every S-th (dataset, split seed, model seed)
    /// group, counting over the --data folders in order. A shard exports nothing; `annosat merge`
    /// with the same flags (without --shard) exports once every shard has finished.
    #[arg(long)]
    pub shard: Option<shard::Shard>,
}

/// `--arms`' long help: every arm and what its targets are (annosat_core::models::arm_description).
fn arms_help() -> String {
    let mut h = String::from(
        "Arms, comma-separated (default: all). Each turns an item's N subsampled votes into a training target:",
    );
    for arm in Arm::all() {
        let name = arm.name();
        h.push_str(&format!(
            "\n  {name:<10} {}",
            annosat_core::models::arm_description(&name)
        ));
    }
    h
}

/// The arms and head settings the flags ask for.
fn arms_and_head(a: &Args) -> Result<(Vec<Arm>, HeadConfig)> {
    let arms: Vec<Arm> = if a.arms.is_empty() {
        Arm::all()
    } else {
        a.arms
            .iter()
            .map(|s| {
                Arm::parse(s).with_context(|| {
                    let names: Vec<String> = Arm::all().iter().map(|a| a.name()).collect();
                    format!("unknown arm {s:?}; arms are {}", names.join(", "))
                })
            })
            .collect::<Result<_>>()?
    };
    if arms.contains(&Arm::TempHard) && !arms.contains(&Arm::Hard) {
        bail!("temp_hard is the hard arm with a fitted temperature: add hard to --arms");
    }
    Ok((arms, head_config(a)))
}

/// The head settings the flags ask for.
fn head_config(a: &Args) -> HeadConfig {
    HeadConfig {
        hidden: a.hidden,
        lr: a.lr,
        weight_decay: a.weight_decay,
        batch: a.batch,
        epochs: a.epochs,
        patience: a.patience,
    }
}

/// One dataset's sweep, planned: its data, configuration, work folder (under the configuration's
/// hash, `config.json` written) and every (split seed, model seed) group.
pub(crate) struct Planned {
    pub prep: Dataset,
    pub cfg: SweepConfig,
    pub dir: PathBuf,
    pub groups: Vec<(u64, u64)>,
    started: std::time::Instant,
}

pub(crate) fn plan_dataset(
    a: &Args,
    data: &Path,
    arms: &[Arm],
    head: &HeadConfig,
    work: &Path,
) -> Result<Planned> {
    let started = std::time::Instant::now();
    let mut prep = prepare(a, data)?;
    prep.folds = a.folds;
    let max_n = (0..prep.pool.num_items())
        .map(|i| prep.pool.total(i))
        .min()
        .unwrap_or(0);
    let ns: Vec<u32> =
        a.ns.iter()
            .copied()
            .filter(|&n| n >= 1 && n <= max_n)
            .collect();
    if ns.is_empty() {
        bail!(
            "{}: no N in {:?} fits the smallest vote count {max_n}",
            prep.name,
            a.ns
        );
    }
    let cfg = SweepConfig {
        dataset: prep.name.clone(),
        encoder: prep.head.encoder.clone(),
        layout: prep.head.layout.clone(),
        ns,
        arms: arms.iter().map(|a| a.name()).collect(),
        splits: match a.folds {
            Some(k) => (0..k).collect(),
            None => a.splits.clone(),
        },
        seeds: a.seeds,
        heldout: heldout(a)?,
        head: head.clone(),
        // Features narrower than --pca (a synthetic set's) or built by --features (projected
        // block by block) are used as they are.
        pca: if prep.head.width < a.pca || a.features.as_deref().is_some_and(|f| f != "pair") {
            0
        } else {
            a.pca
        },
        limit: a.limit,
        features: prep.head.hash(),
        metrics: annosat_core::models::METRICS_VERSION,
        folds: a.folds,
        feature_set: a.features.clone().filter(|f| f != "pair"),
        truth: a.truth,
    };
    let dir = work.join(&prep.name).join(cfg.hash());
    atomic_write(
        &dir.join("config.json"),
        serde_json::to_string_pretty(&cfg)?.as_bytes(),
    )?;
    let groups: Vec<(u64, u64)> = cfg
        .splits
        .iter()
        .flat_map(|&s| (0..cfg.seeds).map(move |r| (s, r)))
        .collect();
    Ok(Planned {
        prep,
        cfg,
        dir,
        groups,
        started,
    })
}

/// Trains the groups of `p` among `mine` that are not in its work folder yet.
fn train_groups(p: &Planned, arms: &[Arm], mine: &[(u64, u64)]) -> Result<()> {
    let (prep, cfg, dir) = (&p.prep, &p.cfg, &p.dir);
    let head = &cfg.head;
    let todo: Vec<_> = mine
        .iter()
        .filter(|g| !group_file(dir, **g).exists())
        .collect();
    tracing::info!(
        "{}: {} groups ({} done), {} heads each; work dir {}",
        prep.name,
        mine.len(),
        mine.len() - todo.len(),
        arms.iter().filter(|a| a.trained()).count() * cfg.ns.len(),
        dir.display()
    );
    let pb = progress((todo.len() * head.epochs) as u64, &prep.name);
    for &&(split, seed) in &todo {
        let t0 = std::time::Instant::now();
        let result =
            group::train_group(prep, &cfg.ns, &cfg.head, arms, split, seed, |_| pb.inc(1))?;
        pb.set_position(pb.position().next_multiple_of(head.epochs as u64));
        atomic_write(
            &group_file(dir, (split, seed)),
            &serde_json::to_vec(&result)?,
        )?;
        tracing::info!(
            "{} split {split} seed {seed}: {:.2} s",
            prep.name,
            t0.elapsed().as_secs_f64()
        );
    }
    pb.finish_and_clear();
    Ok(())
}

/// Reads every group of `p` from its work folder and writes the exports.
pub(crate) fn export_planned(a: &Args, p: &Planned) -> Result<()> {
    let (prep, cfg, dir, groups) = (&p.prep, &p.cfg, &p.dir, &p.groups);
    let results: Vec<group::GroupResult> = groups
        .iter()
        .map(|g| {
            let f = group_file(dir, *g);
            let bytes = std::fs::read(&f).with_context(|| format!("reading {}", f.display()))?;
            serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", f.display()))
        })
        .collect::<Result<_>>()?;
    let out = export::write(&a.out, prep, cfg, &results)?;
    tracing::info!(
        "{}: exported to {} ({:.0} s in all)",
        prep.name,
        out.display(),
        p.started.elapsed().as_secs_f64()
    );
    println!("{}", out.display());
    Ok(())
}

pub fn run(a: Args) -> Result<()> {
    // Multilabel folders (no votes.csv, a multilabel vote file) have arms and exports of their own.
    let ml: Vec<_> = a
        .data
        .iter()
        .map(|d| crate::util::multilabel_file(d))
        .collect();
    if ml.iter().any(Option::is_some) {
        if a.data.len() > 1 {
            bail!("a multilabel dataset is swept on its own: give one --data folder");
        }
        let file = ml[0].as_ref().expect("checked above");
        return multilabel::run(&a, &a.data[0], file, &head_config(&a));
    }
    let (arms, head) = arms_and_head(&a)?;
    let work = a.work.clone().unwrap_or_else(|| cache_root().join("sweep"));
    // Groups are counted over the datasets in order: shard I owns every S-th of them.
    let mut offset = 0;
    for data in &a.data {
        let p = plan_dataset(&a, data, &arms, &head, &work)?;
        let mine: Vec<(u64, u64)> = p
            .groups
            .iter()
            .enumerate()
            .filter(|(j, _)| a.shard.is_none_or(|s| s.owns(offset + j)))
            .map(|(_, g)| *g)
            .collect();
        offset += p.groups.len();
        train_groups(&p, &arms, &mine)?;
        match a.shard {
            Some(s) if s.count > 1 => shard::finished(&p, s, &mine)?,
            _ => export_planned(&a, &p)?,
        }
    }
    Ok(())
}

fn group_file(dir: &Path, (split, seed): (u64, u64)) -> PathBuf {
    dir.join(format!("split{split}-seed{seed}.json"))
}

/// Loads votes and head features (from `--head-features`, or by embedding — cached — and projecting)
/// and builds pool and reference.
pub fn prepare(a: &Args, data: &Path) -> Result<Dataset> {
    let mut table = crate::util::load_votes(&data.join("votes.csv"), false)?;
    if let Some(l) = a.limit {
        let order: Vec<usize> = (0..l.min(table.num_items())).collect();
        table = table.reordered(&order);
    }
    let own = data.join(annosat_heads::features::FILE);
    let head = match &a.head_features {
        // A folder that brings its own head features and no texts (`annosat synth`): train on them.
        None if own.exists() && !data.join("items.jsonl").exists() => load_features(&own)?,
        None if a.features.as_deref().is_some_and(|f| f != "pair") => {
            crate::head_sets::build_cached(&crate::head_sets::FeatureSpec {
                data: data.to_path_buf(),
                set: a.features.clone().unwrap_or_default(),
                model_dir: a.model_dir.clone(),
                features_cache: a.features_cache.clone(),
                batch: 64,
            })?
        }
        Some(file) => {
            let f = load_features(file)?;
            if a.pca > 0 && f.width != a.pca {
                bail!(
                    "{} holds {}-wide features but --pca is {}; pass --pca {} (the configuration is recorded as given)",
                    file.display(),
                    f.width,
                    a.pca,
                    f.width
                );
            }
            f
        }
        None => compute_head_features(a, data)?,
    };
    if table.item_ids() != head.item_ids.as_slice() {
        bail!(
            "{}: the features' items do not match votes.csv's ({} vs {} items); {}",
            data.display(),
            head.item_ids.len(),
            table.num_items(),
            match &a.head_features {
                Some(f) => format!("{} belongs to another dataset or --limit", f.display()),
                None => "delete the embedding cache file".to_string(),
            }
        );
    }
    let mut prep = Dataset::new(dataset_name(data), &table, head, heldout(a)?)
        .with_context(|| format!("{}", data.display()))?;
    if a.truth {
        prep.reference =
            crate::util::read_truth(&data.join("truth.csv"), &prep.item_ids, prep.classes.len())?;
    }
    Ok(prep)
}

/// Embeds the items (cached), builds the pair features, projects them on their top `--pca`
/// components and rounds them to f16.
fn compute_head_features(a: &Args, data: &Path) -> Result<HeadFeatures> {
    let embed_args = embedding::EmbedSpec {
        data: data.to_path_buf(),
        model_dir: a.model_dir.clone(),
        cache: a.features_cache.clone(),
        batch: 64,
        limit: a.limit,
    };
    let emb = embedding::load(&embedding::embed(&embed_args)?)?;
    let (mut features, mut width) = (emb.features(), emb.layout.width(emb.dim));
    let mut layout = emb.layout.name().to_string();
    if a.pca > 0 && a.pca < width {
        let (w, kept) = pca::project(&features, emb.item_ids.len(), width, a.pca, false);
        layout = format!(
            "{layout}, projected on the top {} principal components ({:.1}% of variance)",
            a.pca,
            kept * 100.0
        );
        tracing::info!("{}: {layout}", data.display());
        (features, width) = (w, a.pca);
    }
    Ok(HeadFeatures::new(
        emb.item_ids,
        width,
        &features,
        emb.encoder,
        format!("{layout}, stored as f16"),
    ))
}

/// Reads a `features.safetensors` written by a sweep.
pub fn load_features(path: &Path) -> Result<HeadFeatures> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    HeadFeatures::from_bytes(&bytes)
        .with_context(|| format!("{} is not a head-features file", path.display()))
}

/// `--heldout`: whether the reference is held out. The sweep's split holds out
/// [`annosat_heads::group::HELDOUT_FRACTION`] of each item's votes; another fraction is refused
/// rather than silently replaced.
fn heldout(a: &Args) -> Result<bool> {
    match a.heldout {
        None => Ok(false),
        Some(f) if (f - annosat_heads::group::HELDOUT_FRACTION).abs() < 1e-12 => Ok(true),
        Some(f) => bail!(
            "--heldout {f}: the sweep holds out {} of each item's votes (give --heldout alone or \
             --heldout {}); other fractions are not supported by its exports",
            annosat_heads::group::HELDOUT_FRACTION,
            annosat_heads::group::HELDOUT_FRACTION
        ),
    }
}
