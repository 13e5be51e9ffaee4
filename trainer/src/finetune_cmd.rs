//! `annosat finetune`: the whole encoder plus an MLP head, trained end to end on N-vote targets.
//!
//! The sweep's heads see frozen features; here the encoder's weights move too (siamese: premise and
//! hypothesis go through the same encoder, features as in [`crate::texts`]). Every transformer
//! layer trains (`encoder::layer`: candle-transformers' own layers pass no gradient through their
//! LayerNorms, so before this fix only the head learned); the embedding tables stay as loaded. One arm, several N,
//! one (split, model seed); a fresh copy of the checkpoint per N. Prints throughput (samples/s)
//! and the test metrics, and writes them as JSON with `--out`.
//!
//! Runs on CPU (slow: meant for small subsets and CI) or, built with `--features cuda`, on an
//! NVIDIA GPU (`--device cuda`). The head is initialised from the project's seeded streams (candle's
//! CPU generator cannot be seeded), so CPU runs are repeatable.

use crate::encoder::{BertEncoder, Encoder};
use crate::finetune_head::{Head, TAG_FINETUNE};
use crate::shared_args::EncoderArgs;
use crate::texts::{self, Layout};
use crate::util::{atomic_write, default_model_dir};
use annosat_heads::arms::{self, Arm, RunTargets};
use annosat_heads::eval;
use annosat_heads::split::item_split;
use annosat_heads::{Dataset, GroupResult, HeadFeatures, RunResult};
use anyhow::{bail, Context, Result};
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub enc: EncoderArgs,
    /// Training arm (hard, ls0.1, soft, dirichlet, sls, multipass, …).
    #[arg(long, default_value = "soft")]
    pub arm: String,
    /// Several arms, comma-separated (instead of --arm), each fine-tuned on its own.
    #[arg(long, value_delimiter = ',')]
    pub arms: Vec<String>,
    /// Annotator budgets to train at.
    #[arg(long = "n", alias = "ns", value_delimiter = ',', default_values_t = [1u32, 10, 100])]
    pub ns: Vec<u32>,
    #[command(flatten)]
    pub run: crate::cli_words::RunSeeds,
    /// Model seeds 0..S (instead of --model-seed).
    #[arg(long = "model-seeds", alias = "seeds")]
    pub seeds: Option<u64>,
    #[arg(long, default_value_t = 2)]
    pub epochs: usize,
    #[arg(long, default_value_t = 32)]
    pub batch: usize,
    /// Learning rate of the encoder (the head uses 50× this).
    #[arg(long, default_value_t = 3e-5)]
    pub lr: f64,
    /// Use only the first N items (CPU smoke runs).
    #[arg(long)]
    pub limit: Option<usize>,
    /// cpu, or cuda (needs a binary built with --features cuda).
    #[arg(long, default_value = "cpu")]
    pub device: String,
    /// Write the results as JSON here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the runs as a model export the app lists: `<EXPORT>/<dataset>_finetune/`
    /// (manifest with verdicts, predictions.bin, training.json) and `<EXPORT>/index.json`.
    #[arg(long)]
    pub export: Option<PathBuf>,
    /// Train only shard I of S of the N list (0-based; every S-th N, e.g. one GPU each): writes
    /// OUT.shard-I-of-S.json, which `annosat merge-finetune --out OUT` combines into OUT.
    #[arg(long)]
    pub shard: Option<crate::sweep::shard::Shard>,
}

#[derive(serde::Serialize)]
struct NResult {
    arm: String,
    seed: u64,
    n: u32,
    samples_per_s: f64,
    /// Largest change of any encoder weight in training: > 0 shows the encoder itself learned
    /// (candle-transformers' own BERT layers would leave it at 0; see encoder/layer.rs).
    encoder_max_change: f32,
    train_loss: Vec<f64>,
    metrics: eval::Metrics,
}

fn device(name: &str) -> Result<Device> {
    match name {
        "cpu" => Ok(Device::Cpu),
        "cuda" if cfg!(feature = "cuda") => Ok(Device::new_cuda(0)?),
        "cuda" => bail!("this binary was built without CUDA: cargo build --profile native -p annosat-trainer --features cuda"),
        other => bail!("unknown device {other:?} (cpu or cuda)"),
    }
}

/// Features for a batch of items, through the (trainable) encoder.
fn features(
    enc: &BertEncoder,
    layout: Layout,
    t: &texts::ItemTexts,
    rows: &[usize],
) -> Result<Tensor> {
    let field = |f: usize| -> Result<Tensor> {
        let v: Vec<&str> = rows.iter().map(|&i| t.texts[f][i].as_str()).collect();
        enc.embed(&v)
    };
    Ok(match layout {
        Layout::Pair => {
            let (u, v) = (field(0)?, field(1)?);
            Tensor::cat(&[&u, &v, &(&u - &v)?.abs()?, &(&u * &v)?], 1)?
        }
        Layout::Abductive => {
            let (c, h1, h2) = (field(0)?, field(1)?, field(2)?);
            Tensor::cat(&[&c, &(&h1 - &h2)?, &(&c * &h1)?, &(&c * &h2)?], 1)?
        }
        Layout::Single => field(0)?,
    })
}

/// Fine-tunes each arm × N × model seed (stages: the arms, the data, one fine-tune each, the
/// outputs), each from the checkpoint's own weights.
pub fn run(a: Args) -> Result<()> {
    let (names, arm_list) = arms_of(&a)?;
    let seeds: Vec<u64> = match a.seeds {
        Some(s) => (0..s).collect(),
        None => vec![a.run.model_seed],
    };
    let mut table = crate::util::load_votes(&a.enc.data.join("votes.csv"), false)?;
    if let Some(l) = a.limit {
        table = table.reordered(&(0..l.min(table.num_items())).collect::<Vec<_>>());
    }
    let t = texts::read(&a.enc.data.join("items.jsonl"), table.item_ids())?;
    let shared = Shared {
        a: &a,
        dev: device(&a.device)?,
        model_dir: a.enc.model_dir.clone().unwrap_or_else(default_model_dir),
        k: table.num_classes(),
        parts: item_split(table.num_items(), a.run.split_seed),
        table: &table,
        t: &t,
    };
    let max_n = (0..table.num_items())
        .map(|i| table.total(i))
        .min()
        .unwrap_or(0);
    let all_ns: Vec<u32> =
        a.ns.iter()
            .copied()
            .filter(|&n| n >= 1 && n <= max_n)
            .collect();
    if a.shard.is_some() && a.out.is_none() {
        bail!("--shard needs --out: each shard writes OUT.shard-I-of-S.json for `annosat merge-finetune --out OUT`");
    }
    // Shard I trains every S-th N of the list (each N is an independent fine-tune).
    let mine: Vec<u32> = all_ns
        .iter()
        .enumerate()
        .filter(|(j, _)| a.shard.is_none_or(|s| s.owns(*j)))
        .map(|(_, &n)| n)
        .collect();
    let mut results = Vec::new();
    let mut groups: Vec<GroupResult> = Vec::new();
    for &seed in &seeds {
        let orders = arms::vote_orders(&table, a.run.split_seed, seed);
        let mut group = GroupResult {
            split: a.run.split_seed,
            seed,
            test_items: shared.parts[2].clone(),
            runs: Vec::new(),
        };
        for &arm in &arm_list {
            for &n in &mine {
                let (run, result) = fine_tune(&shared, arm, n, seed, &orders)?;
                group.runs.push(run);
                results.push(result);
            }
        }
        groups.push(group);
    }
    if let Some(dir) = &a.export {
        export(&a, dir, &table, &t, &groups)?;
    }
    if let Some(out) = &a.out {
        write_results(&a, out, &names, &all_ns, &results)?;
    }
    Ok(())
}

/// The arms asked for (`--arms`, else `--arm`), refusing those a fine-tune cannot train.
fn arms_of(a: &Args) -> Result<(Vec<String>, Vec<Arm>)> {
    let names = if a.arms.is_empty() {
        vec![a.arm.clone()]
    } else {
        a.arms.clone()
    };
    let mut arm_list = Vec::new();
    for name in &names {
        let arm = Arm::parse(name).with_context(|| format!("unknown arm {name:?}"))?;
        if arm == Arm::TempHard {
            bail!("temp_hard is post-hoc; fine-tune hard and fit the temperature from its validation logits");
        }
        if arm.baseline() || arm == Arm::ShuffledSls {
            bail!(
                "{} is a sweep control or baseline; `annosat sweep` computes it",
                arm.name()
            );
        }
        arm_list.push(arm);
    }
    Ok((names, arm_list))
}

/// What every fine-tune of one invocation shares.
struct Shared<'a> {
    a: &'a Args,
    dev: Device,
    model_dir: PathBuf,
    k: usize,
    /// Train, validation and test items of the split seed.
    parts: [Vec<usize>; 3],
    table: &'a annosat_core::VoteTable,
    t: &'a texts::ItemTexts,
}

/// One fine-tune: the encoder loaded afresh, trained with a head on `arm`'s N-vote targets for
/// `--epochs`, then scored on the test items (against all votes) and the validation items
/// (against their own N votes).
fn fine_tune(
    s: &Shared,
    arm: Arm,
    n: u32,
    seed: u64,
    orders: &[Vec<u16>],
) -> Result<(RunResult, NResult)> {
    let (a, dev, k, parts, t) = (s.a, &s.dev, s.k, &s.parts, s.t);
    let (enc, varmap) = BertEncoder::load(&s.model_dir, dev, crate::encoder::Train::Trainable)?;
    let varmap = varmap.expect("trainable encoder has variables");
    let before: Vec<(String, Tensor)> = varmap
        .data()
        .lock()
        .expect("varmap lock")
        .iter()
        .map(|(n, v)| (n.clone(), v.as_tensor().copy().expect("copy")))
        .collect();
    let width = t.layout.width(enc.dim());
    let head = Head::new(width, 64, k, seed, TAG_FINETUNE, dev)?;
    let mut opt_enc = AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: a.lr,
            weight_decay: 0.01,
            ..Default::default()
        },
    )?;
    let mut opt_head = AdamW::new(
        head.vars(),
        ParamsAdamW {
            lr: a.lr * 50.0,
            weight_decay: 0.01,
            ..Default::default()
        },
    )?;
    let mut train_loss = Vec::new();
    let started = std::time::Instant::now();
    let mut seen = 0usize;
    for epoch in 0..a.epochs {
        // The sweep's minibatch order, mapped onto the training items.
        let order: Vec<usize> =
            annosat_heads::mlp::epoch_order(parts[0].len(), a.run.split_seed, seed, epoch)
                .into_iter()
                .map(|k| parts[0][k as usize])
                .collect();
        let run = RunTargets {
            arm,
            n,
            split_seed: a.run.split_seed,
            model_seed: seed,
        };
        let (mut sum, mut cnt) = (0.0, 0usize);
        for rows in order.chunks(a.batch) {
            let mut tgt = vec![0f32; rows.len() * k];
            for (j, &i) in rows.iter().enumerate() {
                let row = &mut tgt[j * k..(j + 1) * k];
                if arm.per_epoch() {
                    run.epoch_row(i, &orders[i], epoch, row);
                } else {
                    run.static_row(i, &orders[i], k, row);
                }
            }
            let x = features(&enc, t.layout, t, rows)?;
            let logp = candle_nn::ops::log_softmax(&head.forward(&x)?, D::Minus1)?;
            let target = Tensor::from_vec(tgt, (rows.len(), k), dev)?;
            let loss = (target.mul(&logp)?.sum_all()?.neg()? / rows.len() as f64)?;
            let grads = loss.backward()?;
            opt_enc.step(&grads)?;
            opt_head.step(&grads)?;
            sum += loss.to_dtype(DType::F64)?.to_scalar::<f64>()? * rows.len() as f64;
            cnt += rows.len();
            seen += rows.len();
        }
        train_loss.push(sum / cnt.max(1) as f64);
        tracing::info!(
            "N={n} epoch {epoch}: train loss {:.4}",
            sum / cnt.max(1) as f64
        );
    }
    let secs = started.elapsed().as_secs_f64();
    let encoder_max_change = {
        let now = varmap.data().lock().expect("varmap lock");
        let mut m = 0f32;
        for (name, t) in &before {
            if let Some(v) = now.get(name) {
                m = m.max((v.as_tensor() - t)?.abs()?.max_all()?.to_scalar::<f32>()?);
            }
        }
        m
    };
    tracing::info!("N={n}: the encoder's weights moved by at most {encoder_max_change:.2e}");
    // Predicted distributions of some items (test, validation) through the trained model.
    let predict = |items: &[usize]| -> Result<Vec<f64>> {
        let mut logits = Vec::new();
        for rows in items.chunks(a.batch) {
            let z = head.forward(&features(&enc, t.layout, t, rows)?.detach())?;
            logits.extend(z.flatten_all()?.to_vec1::<f32>()?);
        }
        Ok(eval::softmax(&logits, k, 1.0))
    };
    let probs = predict(&parts[2])?;
    let human: Vec<f64> = parts[2]
        .iter()
        .flat_map(|&i| s.table.distribution(i))
        .collect();
    let metrics = eval::metrics(&probs, &human, k);
    let sps = seen as f64 / secs;
    println!(
        "N={n:>3}  {sps:8.1} samples/s  KL {:.4}  entropy corr {}  accuracy {:.3}",
        metrics.kl,
        metrics
            .entropy_corr
            .map(|r| format!("{r:.3}"))
            .unwrap_or_else(|| "–".into()),
        metrics.accuracy
    );
    // Validation items against their own N votes (what choices between arms use).
    let vprobs = predict(&parts[1])?;
    let vref: Vec<f64> = parts[1]
        .iter()
        .flat_map(|&i| {
            let mut c = vec![0u32; k];
            for &v in orders[i].iter().take(n as usize) {
                c[v as usize] += 1;
            }
            annosat_core::metrics::normalize(&c).unwrap_or_else(|| vec![1.0 / k as f64; k])
        })
        .collect();
    let run = RunResult {
        arm: arm.name(),
        n,
        best_epoch: a.epochs.saturating_sub(1),
        votes_used: n,
        temperature: None,
        neighbours: None,
        metrics,
        validation: eval::metrics(&vprobs, &vref, k),
        train_loss: train_loss.iter().map(|&x| x as f32).collect(),
        val_loss: Vec::new(),
        probs: probs
            .iter()
            .map(|&p| (p * 65535.0).round() as u16)
            .collect(),
    };
    let result = NResult {
        arm: arm.name(),
        seed,
        n,
        samples_per_s: sps,
        encoder_max_change,
        train_loss,
        metrics,
    };
    Ok((run, result))
}

/// `--out`: the results as JSON (with `--shard`, that shard's file for `merge-finetune`).
fn write_results(
    a: &Args,
    out: &std::path::Path,
    names: &[String],
    all_ns: &[u32],
    results: &[NResult],
) -> Result<()> {
    let mut body = serde_json::json!({"dataset": crate::util::dataset_name(&a.enc.data), "arm": names.join(","), "device": a.device,
        "split": a.run.split_seed, "seed": a.run.model_seed, "epochs": a.epochs, "batch": a.batch, "lr": a.lr, "limit": a.limit, "results": results});
    match a.shard {
        Some(s) => {
            body["shard"] = serde_json::json!({"index": s.index, "of": s.count, "ns": all_ns});
            let path = crate::finetune_merge::shard_path(out, s);
            atomic_write(&path, &serde_json::to_vec_pretty(&body)?)?;
            eprintln!(
                "shard {}/{} written to {}",
                s.index,
                s.count,
                path.display()
            );
        }
        None => atomic_write(out, &serde_json::to_vec_pretty(&body)?)?,
    }
    Ok(())
}

/// The fine-tuned runs as a model export (`--export`): the sweep's manifest code, so the runs carry
/// verdicts and the Models room lists them beside the frozen-feature sweeps.
fn export(
    a: &Args,
    dir: &std::path::Path,
    table: &annosat_core::VoteTable,
    t: &texts::ItemTexts,
    groups: &[GroupResult],
) -> Result<()> {
    let name = format!("{}_finetune", crate::util::dataset_name(&a.enc.data));
    let ids = table.item_ids().to_vec();
    let prep = Dataset {
        name: name.clone(),
        classes: table.classes().to_vec(),
        item_ids: ids.clone(),
        head: HeadFeatures::new(
            ids,
            0,
            &[],
            "all-MiniLM-L6-v2, fine-tuned end to end".into(),
            format!(
                "{} layout through the whole encoder (every layer trained), {} epochs, lr {}, batch {}, on {}",
                t.layout.name(),
                a.epochs,
                a.lr,
                a.batch,
                a.device
            ),
        ),
        pool: table.clone(),
        reference: (0..table.num_items())
            .flat_map(|i| table.distribution(i))
            .collect(),
        folds: None,
    };
    let command = format!(
        "annosat finetune --data <data>/{} --arms {} --ns {} --split {} --seeds {} --epochs {} --batch {} --lr {} --device {}{} --export <models>",
        crate::util::dataset_name(&a.enc.data),
        groups.first().map(|g| g.runs.iter().map(|r| r.arm.clone()).collect::<std::collections::BTreeSet<_>>().into_iter().collect::<Vec<_>>().join(",")).unwrap_or_default(),
        a.ns.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(","),
        a.run.split_seed,
        groups.len(),
        a.epochs,
        a.batch,
        a.lr,
        a.device,
        a.limit.map(|l| format!(" --limit {l}")).unwrap_or_default(),
    );
    let (manifest, pred) =
        annosat_heads::manifest::build(&prep, groups, "all votes", None, command)?;
    let out = dir.join(&name);
    let training: Vec<annosat_core::models::TrainingEntry> = groups
        .iter()
        .flat_map(|g| {
            g.runs.iter().map(|r| annosat_core::models::TrainingEntry {
                arm: r.arm.clone(),
                n: r.n,
                split: g.split,
                seed: g.seed,
                train_loss: r.train_loss.iter().map(|&x| x as f64).collect(),
                val_loss: Vec::new(),
            })
        })
        .collect();
    atomic_write(&out.join("predictions.bin"), &pred)?;
    atomic_write(&out.join("training.json"), &serde_json::to_vec(&training)?)?;
    atomic_write(&out.join("manifest.json"), &serde_json::to_vec(&manifest)?)?;
    crate::sweep::export::write_index(dir)?;
    eprintln!("export written to {}", out.display());
    Ok(())
}
