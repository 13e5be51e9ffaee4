//! Sweeps beyond one machine: `annosat sweep --shard I/S` trains every S-th group (a Slurm array
//! task, a Kubernetes indexed pod), and `annosat merge` gathers the shards' groups and writes the
//! exports a single-process sweep writes, byte for byte.
//!
//! Why groups: a (dataset, split seed, model seed) group is the sweep's unit of work and of
//! resumption already — written atomically under the configuration's hash, skipped when present —
//! so a shard is a filter on the groups, a killed shard task resumes where it stopped, and the
//! merge is the single-process export over the same group files. Groups are numbered over the
//! `--data` folders in order and dealt round-robin (group g → shard g mod S), so shards get equal
//! numbers of groups; the merge must therefore be given the same flags.
//!
//! A shard that finished writes `shards/shard-I-of-S.json` (its groups) beside the group files, so
//! the merge can name the shards whose groups are missing.

use super::{arms_and_head, export_planned, group_file, plan_dataset, Args, Planned};
use crate::util::{atomic_write, cache_root};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// Shard `index` of `count` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: a shard is I/S, e.g. 0/4 (0-based)"))?;
        let (index, count): (u64, u64) = (
            i.trim()
                .parse()
                .map_err(|_| format!("{i:?} is not a shard index"))?,
            n.trim()
                .parse()
                .map_err(|_| format!("{n:?} is not a shard count"))?,
        );
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: the index must be below the count (0-based: 0/{count} … {}/{count})", count.max(1) - 1));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether group `g` (numbered over every dataset's groups in order) is this shard's.
    pub fn owns(&self, g: usize) -> bool {
        g as u64 % self.count == self.index
    }
}

/// Records that shard `s` finished its groups of `p`.
pub(crate) fn finished(p: &Planned, s: Shard, mine: &[(u64, u64)]) -> Result<()> {
    let body = serde_json::json!({"shard": s.index, "of": s.count, "groups": mine});
    atomic_write(
        &p.dir
            .join("shards")
            .join(format!("shard-{}-of-{}.json", s.index, s.count)),
        serde_json::to_string_pretty(&body)?.as_bytes(),
    )?;
    tracing::info!(
        "{}: shard {}/{} done ({} groups); `annosat merge` with the same flags (without --shard) exports once every shard has finished",
        p.prep.name,
        s.index,
        s.count,
        mine.len()
    );
    Ok(())
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The sweep's flags, as every shard ran with them (without --shard).
    #[command(flatten)]
    pub sweep: Args,
    /// Work folders of shards that ran without a shared filesystem (each one's --work): their
    /// finished groups are copied into --work first. Not needed when every shard wrote to --work.
    #[arg(long = "from", num_args = 1..)]
    pub from: Vec<PathBuf>,
}

/// The shard count the finished shards recorded (their marker files), if any.
fn shard_count(dirs: &[PathBuf]) -> Option<u64> {
    dirs.iter()
        .filter_map(|d| std::fs::read_dir(d.join("shards")).ok())
        .flatten()
        .flatten()
        .find_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json")?
                .rsplit_once("-of-")?
                .1
                .parse()
                .ok()
        })
}

/// Copies `from`'s finished groups of `p` (same configuration) into `p`'s work folder; refuses a
/// folder that holds this dataset's groups for another configuration only.
fn gather(p: &Planned, from: &Path) -> Result<PathBuf> {
    let ds = from.join(&p.prep.name);
    let hash = p.dir.file_name().expect("a hash folder");
    let same = ds.join(hash);
    if !same.exists() {
        let others: Vec<String> = std::fs::read_dir(&ds)
            .map(|r| {
                r.flatten()
                    .filter(|e| e.path().join("config.json").exists())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        if others.is_empty() {
            bail!(
                "{}: no shard output for {} in it",
                from.display(),
                p.prep.name
            );
        }
        bail!(
            "{}: its {} groups are for another configuration (hash {}), this merge's is {}: every shard and the merge must run with the same flags (compare {} with {})",
            from.display(),
            p.prep.name,
            others.join(", "),
            hash.to_string_lossy(),
            ds.join(&others[0]).join("config.json").display(),
            p.dir.join("config.json").display()
        );
    }
    for &g in &p.groups {
        let (src, dst) = (group_file(&same, g), group_file(&p.dir, g));
        if src.exists() && !dst.exists() {
            let bytes =
                std::fs::read(&src).with_context(|| format!("reading {}", src.display()))?;
            atomic_write(&dst, &bytes)?;
        }
    }
    Ok(same)
}

/// A note on shards in the shared work folder that ran with other flags (their groups are under
/// another configuration's hash and are never merged), or nothing.
fn other_configurations(p: &Planned) -> String {
    let Some(ds) = p.dir.parent() else {
        return String::new();
    };
    let others: Vec<String> = std::fs::read_dir(ds)
        .map(|r| {
            r.flatten()
                .filter(|e| e.path() != p.dir && e.path().join("shards").is_dir())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    if others.is_empty() {
        String::new()
    } else {
        format!(
            ". Shards of another configuration are in {} (hash {}): they are not merged; every shard must run with the merge's flags",
            ds.display(),
            others.join(", ")
        )
    }
}

pub fn merge(m: MergeArgs) -> Result<()> {
    let a = m.sweep;
    if a.shard.is_some() {
        bail!("merge takes the sweep's flags without --shard");
    }
    let (arms, head) = arms_and_head(&a)?;
    let work = a.work.clone().unwrap_or_else(|| cache_root().join("sweep"));
    let mut offset = 0;
    for data in &a.data {
        let p = plan_dataset(&a, data, &arms, &head, &work)?;
        let mut seen = vec![p.dir.clone()];
        for from in &m.from {
            seen.push(gather(&p, from)?);
        }
        let missing: Vec<(usize, (u64, u64))> = p
            .groups
            .iter()
            .enumerate()
            .filter(|(_, g)| !group_file(&p.dir, **g).exists())
            .map(|(j, g)| (offset + j, *g))
            .collect();
        if !missing.is_empty() {
            let count = shard_count(&seen);
            let mut shards: Vec<u64> = missing
                .iter()
                .filter_map(|(g, _)| count.map(|c| *g as u64 % c))
                .collect();
            shards.sort_unstable();
            shards.dedup();
            let which = match count {
                Some(c) => format!(
                    "shard(s) {} of {c} have not finished (or their --work was not given with --from)",
                    shards
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => "no shard has recorded finishing".into(),
            };
            let groups: Vec<String> = missing
                .iter()
                .map(|(_, (s, r))| format!("split {s} seed {r}"))
                .collect();
            bail!(
                "{}: {} of {} groups are missing: {which}; missing groups: {}{}",
                p.prep.name,
                missing.len(),
                p.groups.len(),
                groups.join(", "),
                other_configurations(&p)
            );
        }
        offset += p.groups.len();
        export_planned(&a, &p)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_deal_groups_round_robin() {
        let s: Shard = "1/4".parse().unwrap();
        assert_eq!(s, Shard { index: 1, count: 4 });
        assert!(s.owns(1) && s.owns(5) && !s.owns(4));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
        assert!("2".parse::<Shard>().is_err());
        // Every group has exactly one shard.
        let all: Vec<Shard> = (0..3).map(|i| Shard { index: i, count: 3 }).collect();
        for g in 0..20 {
            assert_eq!(all.iter().filter(|s| s.owns(g)).count(), 1);
        }
    }
}
