//! `annosat finetune-top`: fine-tune the encoder's top layer(s) and a head on N-vote targets, with
//! the lower layers' outputs computed once and cached — what 2 CPU cores allow where fine-tuning the
//! whole encoder (`annosat finetune`) does not.
//!
//! The checkpoint's first L − T layers run once over every premise and hypothesis (the encoder's
//! `FrozenBert` loaded with `num_hidden_layers = L − T`); the top T layers are
//! [`TrainableLayer`]s loaded from the checkpoint's layers L − T … L − 1 as trainable variables
//! (candle-transformers' own layer passes no gradient through its LayerNorms: see that module). Their
//! output is mean-pooled over real tokens and L2-normalised as in `annosat embed`, the pair features
//! are `[u, v, |u−v|, u∗v]`, and a 64-unit MLP head gives K logits. `--layers 0` trains the head on
//! the frozen encoder with the same code: the comparison that says what the top layer adds. At
//! start the command checks that the cached lower layers plus the untrained top reproduce the full
//! encoder's embeddings (printed). Targets, splits and metrics are annosat-heads'.

use crate::encoder::layer::TrainableLayer;
use crate::finetune_head::{Head, TAG_FINETUNE_TOP};
use crate::shared_args::EncoderArgs;
use crate::texts::{self, Layout};
use crate::util::{atomic_write, default_model_dir};
use annosat_encoder::frozen::FrozenBert;
use annosat_heads::arms::{self, Arm, RunTargets};
use annosat_heads::eval;
use annosat_heads::mlp::epoch_order;
use annosat_heads::split::item_split;
use anyhow::{bail, Context, Result};
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use candle_transformers::models::bert::Config;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub enc: EncoderArgs,
    /// Arms (static ones: hard, ls<ε>, soft, dirichlet).
    #[arg(long, value_delimiter = ',', default_values_t = ["hard".to_string(), "ls0.1".to_string(), "soft".to_string()])]
    pub arms: Vec<String>,
    #[arg(long = "n", alias = "ns", value_delimiter = ',', default_values_t = [1u32, 3, 10, 100])]
    pub ns: Vec<u32>,
    /// Top layers to train (0: the frozen encoder, for comparison).
    #[arg(long, default_value_t = 1)]
    pub layers: usize,
    #[command(flatten)]
    pub run: crate::cli_words::RunSeeds,
    /// Most epochs; the epoch with the lowest validation loss is kept.
    #[arg(long, default_value_t = 6)]
    pub epochs: usize,
    #[arg(long, default_value_t = 32)]
    pub batch: usize,
    /// Learning rate of the top layers (the head uses `--head-lr`).
    #[arg(long, default_value_t = 5e-5)]
    pub lr: f64,
    #[arg(long, default_value_t = 1e-3)]
    pub head_lr: f64,
    /// Use only the first N items (smoke runs).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Write the results as JSON here.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The cached lower-layer states of one text: `(tokens, hidden)` row-major, real tokens only.
struct States {
    rows: Vec<f32>,
    len: usize,
}

struct Split {
    lower: FrozenBert,
    tokenizer: tokenizers::Tokenizer,
    config: Config,
    weights: HashMap<String, Tensor>,
    dim: usize,
}

impl Split {
    fn load(dir: &Path, layers: usize) -> Result<Split> {
        let config: Config =
            serde_json::from_str(&std::fs::read_to_string(dir.join("config.json"))?)
                .context("config.json is not a BERT config")?;
        let total = config.num_hidden_layers;
        if layers > total {
            bail!("--layers {layers}: the encoder has {total}");
        }
        let mut lower_cfg = config.clone();
        lower_cfg.num_hidden_layers = total - layers;
        let weights = dir.join("model.safetensors");
        // SAFETY: the checkpoint is not modified while mapped (it lives in the model cache).
        let vb =
            unsafe { VarBuilder::from_mmaped_safetensors(&[&weights], DType::F32, &Device::Cpu)? };
        let lower = FrozenBert::load(vb, &lower_cfg)?;
        let tokenizer =
            annosat_encoder::bert::tokenizer(&std::fs::read(dir.join("tokenizer.json"))?)?;
        let dim = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(
            dir.join("config.json"),
        )?)?["hidden_size"]
            .as_u64()
            .context("hidden_size")? as usize;
        Ok(Split {
            lower,
            tokenizer,
            config,
            weights: candle_core::safetensors::load(&weights, &Device::Cpu)?,
            dim,
        })
    }

    /// Lower-layer states of `texts` (one forward per batch).
    fn states(&self, texts: &[&str]) -> Result<Vec<States>> {
        let (enc, ids, mask_t) =
            annosat_encoder::bert::batch_inputs(&self.tokenizer, &Device::Cpu, texts)?;
        let h = self
            .lower
            .forward(&ids, &ids.zeros_like()?, &mask_t)?
            .to_vec3::<f32>()?;
        Ok(enc
            .iter()
            .zip(h)
            .map(|(e, rows)| {
                let real = e.get_attention_mask().iter().filter(|&&m| m == 1).count();
                States {
                    rows: rows[..real].iter().flatten().copied().collect(),
                    len: real,
                }
            })
            .collect())
    }

    /// The top `layers` as trainable variables, initialised from the checkpoint.
    fn top(&self, layers: usize) -> Result<Option<(Top, VarMap)>> {
        if layers == 0 {
            return Ok(None);
        }
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
        let first = self.config.num_hidden_layers - layers;
        let top = (first..self.config.num_hidden_layers)
            .map(|i| TrainableLayer::load(vb.pp(format!("encoder.layer.{i}")), &self.config))
            .collect::<Result<Vec<_>>>()?;
        for (name, var) in varmap.data().lock().expect("varmap lock").iter() {
            let t = self
                .weights
                .get(name)
                .or_else(|| self.weights.get(&format!("bert.{name}")))
                .with_context(|| format!("the checkpoint has no {name}"))?;
            var.set(t)?;
        }
        Ok(Some((Top(top), varmap)))
    }
}

/// The trainable top layers, applied in order.
struct Top(Vec<TrainableLayer>);

impl Top {
    fn forward(&self, h: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let mut h = h.clone();
        for l in &self.0 {
            h = l.forward(&h, mask)?;
        }
        Ok(h)
    }
}

/// Pooled, L2-normalised embeddings of cached texts through the top layers: `(texts, dim)`.
fn pooled(top: Option<&Top>, cache: &[States], which: &[usize], dim: usize) -> Result<Tensor> {
    let len = which.iter().map(|&t| cache[t].len).max().unwrap_or(1);
    let b = which.len();
    let mut h = vec![0f32; b * len * dim];
    let mut mask = vec![0f32; b * len];
    for (r, &t) in which.iter().enumerate() {
        let s = &cache[t];
        h[r * len * dim..r * len * dim + s.len * dim].copy_from_slice(&s.rows);
        mask[r * len..r * len + s.len].fill(1.0);
    }
    let mut h = Tensor::from_vec(h, (b, len, dim), &Device::Cpu)?;
    let m = Tensor::from_vec(mask, (b, len), &Device::Cpu)?;
    if let Some(top) = top {
        h = top.forward(&h, &annosat_encoder::frozen::additive_mask(&m)?)?;
    }
    annosat_encoder::bert::masked_mean_pool(&h, &m, true)
}

#[derive(serde::Serialize)]
struct RunOut {
    arm: String,
    n: u32,
    best_epoch: usize,
    seconds: f64,
    val_loss: Vec<f64>,
    metrics: eval::Metrics,
}

/// Caches the lower layers' states once, checks the split against the full encoder, then trains
/// the top layers and a head for each arm × N.
pub fn run(a: Args) -> Result<()> {
    let mut table = crate::util::load_votes(&a.enc.data.join("votes.csv"), false)?;
    if let Some(l) = a.limit {
        table = table.reordered(&(0..l.min(table.num_items())).collect::<Vec<_>>());
    }
    let t = texts::read(&a.enc.data.join("items.jsonl"), table.item_ids())?;
    if t.layout != Layout::Pair {
        bail!("finetune-top needs premise/hypothesis pairs");
    }
    let n_items = table.num_items();
    let model_dir = a.enc.model_dir.clone().unwrap_or_else(default_model_dir);
    let split = Split::load(&model_dir, a.layers)?;
    let (cached, cache_s) = Cached::new(&split, &t, a.layers)?;
    let diff = check_split(&split, &cached, &model_dir, a.layers)?;
    let parts = item_split(n_items, a.run.split_seed);
    let orders = arms::vote_orders(&table, a.run.split_seed, a.run.model_seed);
    let mut out = Vec::new();
    for arm_name in &a.arms {
        let arm = Arm::parse(arm_name).with_context(|| format!("unknown arm {arm_name:?}"))?;
        if arm.per_epoch() || !arm.trained() {
            bail!("{arm_name}: finetune-top trains static arms (hard, ls<ε>, soft, dirichlet)");
        }
        for &n in &a.ns {
            if (0..n_items).any(|i| table.total(i) < n) {
                bail!("N = {n} exceeds some item's votes");
            }
            let run = RunTargets {
                arm,
                n,
                split_seed: a.run.split_seed,
                model_seed: a.run.model_seed,
            };
            let r = train_top(&a, &split, &cached, &table, &parts, &orders, &run)?;
            println!(
                "{arm_name:>6} N={n:>3}  best epoch {}  KL {:.4}  entropy corr {}  {:.0} s",
                r.best_epoch,
                r.metrics.kl,
                r.metrics
                    .entropy_corr
                    .map(|r| format!("{r:.3}"))
                    .unwrap_or_else(|| "–".into()),
                r.seconds
            );
            out.push(RunOut {
                arm: arm_name.clone(),
                ..r
            });
        }
    }
    if let Some(path) = &a.out {
        let body = serde_json::json!({
            "dataset": crate::util::dataset_name(&a.enc.data), "layers": a.layers, "split": a.run.split_seed, "seed": a.run.model_seed,
            "epochs": a.epochs, "batch": a.batch, "lr": a.lr, "head_lr": a.head_lr, "limit": a.limit,
            "cache_seconds": cache_s, "split_check_max_diff": diff, "runs": out,
        });
        atomic_write(path, &serde_json::to_vec_pretty(&body)?)?;
    }
    Ok(())
}

/// Every distinct premise and hypothesis once through the lower layers, and which cached states
/// each item's two texts are.
struct Cached {
    cache: Vec<States>,
    /// The first distinct texts, for the check against the full encoder.
    first_texts: Vec<String>,
    prem: Vec<usize>,
    hyp: Vec<usize>,
    dim: usize,
}

impl Cached {
    fn new(split: &Split, t: &texts::ItemTexts, layers: usize) -> Result<(Cached, f64)> {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut unique: Vec<&str> = Vec::new();
        for f in 0..2 {
            for s in &t.texts[f] {
                index.entry(s.as_str()).or_insert_with(|| {
                    unique.push(s.as_str());
                    unique.len() - 1
                });
            }
        }
        let t0 = std::time::Instant::now();
        let mut cache = Vec::with_capacity(unique.len());
        for batch in unique.chunks(64) {
            cache.extend(split.states(batch)?);
        }
        let cache_s = t0.elapsed().as_secs_f64();
        tracing::info!(
            "lower {} layers over {} texts in {cache_s:.1} s",
            split.config.num_hidden_layers - layers,
            unique.len()
        );
        let prem = t.texts[0].iter().map(|s| index[s.as_str()]).collect();
        let hyp = t.texts[1].iter().map(|s| index[s.as_str()]).collect();
        let cached = Cached {
            cache,
            first_texts: unique.iter().take(8).map(|s| s.to_string()).collect(),
            prem,
            hyp,
            dim: split.dim,
        };
        Ok((cached, cache_s))
    }

    /// The head's pair features (u, v, |u − v|, u ⊙ v) of `rows`, through `top` when given.
    fn features(&self, top: Option<&Top>, rows: &[usize]) -> Result<Tensor> {
        let of = |which: &[usize]| {
            let texts: Vec<usize> = rows.iter().map(|&i| which[i]).collect();
            pooled(top, &self.cache, &texts, self.dim)
        };
        let (u, v) = (of(&self.prem)?, of(&self.hyp)?);
        Ok(Tensor::cat(&[&u, &v, &(&u - &v)?.abs()?, &(&u * &v)?], 1)?)
    }
}

/// The cached lower layers plus the untrained top must reproduce the whole encoder's embeddings
/// (checked on the first texts): the largest difference, or an error above 1e-3.
fn check_split(
    split: &Split,
    c: &Cached,
    model_dir: &std::path::Path,
    layers: usize,
) -> Result<f32> {
    let texts: Vec<&str> = c.first_texts.iter().map(String::as_str).collect();
    let first: Vec<usize> = (0..texts.len()).collect();
    let full = crate::encoder::load(model_dir, &Device::Cpu)?.embed(&texts)?;
    let top0 = split.top(layers)?.map(|(t, _)| t);
    let ours = pooled(top0.as_ref(), &c.cache, &first, c.dim)?;
    let diff = (full - ours)?.abs()?.max_all()?.to_scalar::<f32>()?;
    println!("cached lower layers + top {layers}: largest difference from the full encoder's embeddings {diff:.2e}");
    if diff > 1e-3 {
        bail!("the split encoder does not reproduce the full one ({diff})");
    }
    Ok(diff)
}

/// One arm × N: fresh top layers and head trained on the static N-vote targets, the epoch with
/// the lowest validation loss kept and scored on the test items against all votes.
fn train_top(
    a: &Args,
    split: &Split,
    c: &Cached,
    table: &annosat_core::VoteTable,
    parts: &[Vec<usize>; 3],
    orders: &[Vec<u16>],
    run: &RunTargets,
) -> Result<RunOut> {
    let k = table.num_classes();
    let targets = |rows: &[usize]| -> Result<Tensor> {
        let mut v = vec![0f32; rows.len() * k];
        for (j, &i) in rows.iter().enumerate() {
            run.static_row(i, &orders[i], k, &mut v[j * k..(j + 1) * k]);
        }
        Ok(Tensor::from_vec(v, (rows.len(), k), &Device::Cpu)?)
    };
    let started = std::time::Instant::now();
    let top = split.top(a.layers)?;
    let head = Head::new(
        4 * c.dim,
        64,
        k,
        a.run.model_seed,
        TAG_FINETUNE_TOP,
        &Device::Cpu,
    )?;
    let mut opt_head = AdamW::new(
        head.vars(),
        ParamsAdamW {
            lr: a.head_lr,
            weight_decay: 0.01,
            ..Default::default()
        },
    )?;
    let mut opt_top = match &top {
        Some((_, vm)) => Some(AdamW::new(
            vm.all_vars(),
            ParamsAdamW {
                lr: a.lr,
                weight_decay: 0.01,
                ..Default::default()
            },
        )?),
        None => None,
    };
    let ce = |logits: &Tensor, y: &Tensor| -> Result<Tensor> {
        let lp = candle_nn::ops::log_softmax(logits, D::Minus1)?;
        Ok((y.mul(&lp)?.sum_all()?.neg()? / logits.dim(0)? as f64)?)
    };
    let (mut best, mut best_epoch, mut best_test) = (f64::INFINITY, 0, Vec::new());
    let mut val_loss = Vec::new();
    let val_y = targets(&parts[1])?;
    for epoch in 0..a.epochs {
        let order = epoch_order(parts[0].len(), a.run.split_seed, a.run.model_seed, epoch);
        for chunk in order.chunks(a.batch.max(1)) {
            let rows: Vec<usize> = chunk.iter().map(|&j| parts[0][j as usize]).collect();
            let x = c.features(top.as_ref().map(|t| &t.0), &rows)?;
            let loss = ce(&head.forward(&x)?, &targets(&rows)?)?;
            let grads = loss.backward()?;
            opt_head.step(&grads)?;
            if let Some(o) = opt_top.as_mut() {
                o.step(&grads)?;
            }
        }
        let eval_rows = |rows: &[usize]| -> Result<Tensor> {
            let mut z = Vec::new();
            for ch in rows.chunks(128) {
                z.push(head.forward(&c.features(top.as_ref().map(|t| &t.0), ch)?.detach())?);
            }
            Ok(Tensor::cat(&z, 0)?)
        };
        let vl = ce(&eval_rows(&parts[1])?, &val_y)?
            .to_dtype(DType::F64)?
            .to_scalar::<f64>()?;
        val_loss.push(vl);
        if vl < best {
            (best, best_epoch) = (vl, epoch);
            best_test = eval_rows(&parts[2])?.flatten_all()?.to_vec1::<f32>()?;
        }
    }
    let human: Vec<f64> = parts[2]
        .iter()
        .flat_map(|&i| table.distribution(i))
        .collect();
    let probs = eval::softmax(&best_test, k, 1.0);
    Ok(RunOut {
        arm: String::new(),
        n: run.n,
        best_epoch,
        seconds: started.elapsed().as_secs_f64(),
        val_loss,
        metrics: eval::metrics(&probs, &human, k),
    })
}
