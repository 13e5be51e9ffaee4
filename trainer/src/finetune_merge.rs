//! `annosat merge-finetune`: combines the shards of a fine-tune (`annosat finetune --shard I/S
//! --out OUT`, each writing OUT.shard-I-of-S.json) into OUT, the file one process writes: the
//! same fields and the results in the N list's order. Refuses shards run with other settings and
//! names the missing ones.

use crate::sweep::shard::Shard;
use crate::util::atomic_write;
use anyhow::{bail, Context, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The --out the shards were given; their files are OUT.shard-I-of-S.json beside it.
    #[arg(long)]
    out: PathBuf,
}

/// Where shard `s` of a fine-tune writing `out` puts its results.
pub fn shard_path(out: &Path, s: Shard) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".shard-{}-of-{}.json", s.index, s.count));
    out.with_file_name(name)
}

pub fn run(a: Args) -> Result<()> {
    let dir = match a.out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let prefix = format!(
        "{}.shard-",
        a.out.file_name().unwrap_or_default().to_string_lossy()
    );
    let mut shards: Vec<(Shard, PathBuf, Value)> = Vec::new();
    for e in std::fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let p = e?.path();
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Some(rest) = name
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(".json"))
        else {
            continue;
        };
        let Ok(s) = rest.replace("-of-", "/").parse::<Shard>() else {
            continue;
        };
        let body: Value = serde_json::from_slice(&std::fs::read(&p)?)
            .with_context(|| format!("{} is not a fine-tune's results", p.display()))?;
        shards.push((s, p, body));
    }
    if shards.is_empty() {
        bail!("no {prefix}I-of-S.json files beside {}: run `annosat finetune … --shard I/S --out {}` first", a.out.display(), a.out.display());
    }
    let count = shards[0].0.count;
    if let Some((_, p, _)) = shards.iter().find(|(s, _, _)| s.count != count) {
        bail!("{} belongs to a split into another number of shards than {} (of {count}); remove the old files", p.display(), shards[0].1.display());
    }
    // Every field but the results (and the shard's own) must agree: the same fine-tune.
    let settings = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("results");
            if let Some(sh) = o.get_mut("shard").and_then(Value::as_object_mut) {
                sh.remove("index");
            }
        }
        v
    };
    let first = settings(&shards[0].2);
    for (_, p, b) in &shards[1..] {
        if settings(b) != first {
            bail!("{} was run with other settings than {} ({} vs {}): every shard must run with the same flags", p.display(), shards[0].1.display(), settings(b), first);
        }
    }
    let mut have: Vec<u64> = shards.iter().map(|(s, _, _)| s.index).collect();
    have.sort_unstable();
    have.dedup();
    let missing: Vec<String> = (0..count)
        .filter(|i| !have.contains(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        bail!(
            "shard(s) {} of the fine-tune have not written their results ({})",
            missing.join(", "),
            shard_path(&a.out, Shard { index: 0, count }).display()
        );
    }
    // The results in the N list's order, each N once.
    let ns: Vec<u64> = first["shard"]["ns"]
        .as_array()
        .map(|v| v.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let all: Vec<&Value> = shards
        .iter()
        .flat_map(|(_, _, b)| b["results"].as_array().into_iter().flatten())
        .collect();
    let mut results = Vec::new();
    for n in &ns {
        let found: Vec<&&Value> = all.iter().filter(|r| r["n"].as_u64() == Some(*n)).collect();
        match found.as_slice() {
            [r] => results.push((**r).clone()),
            [] => bail!("no shard has the results at N = {n}"),
            _ => bail!("N = {n} appears in more than one shard's results"),
        }
    }
    let mut body = shards[0].2.clone();
    if let Some(o) = body.as_object_mut() {
        o.remove("shard");
        o.insert("results".into(), Value::Array(results));
    }
    atomic_write(&a.out, &serde_json::to_vec_pretty(&body)?)?;
    eprintln!("{} shards merged into {}", count, a.out.display());
    Ok(())
}
