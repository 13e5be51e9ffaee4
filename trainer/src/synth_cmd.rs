//! `annosat synth`: a synthetic dataset with known true distributions (annosat_core::synth), written
//! as a dataset folder every other command reads: `votes.csv`, `annotations.csv` (long format, so
//! `--heldout` can split by annotator), `truth.csv` (the true distributions), `features.safetensors`
//! (the head features `annosat sweep` trains on instead of text embeddings) and `SOURCE.md`.

use crate::util::atomic_write;
use annosat_core::synth::{self, SynthConfig};
use annosat_heads::HeadFeatures;
use anyhow::{anyhow, Result};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The dataset folder to write (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1000)]
    pub items: usize,
    #[arg(long, default_value_t = 3)]
    pub classes: usize,
    /// Symmetric Dirichlet concentration α of the true distributions (small: clear items).
    #[arg(long, default_value_t = 1.0)]
    pub concentration: f64,
    /// Votes per item.
    #[arg(long = "votes-per-item", alias = "votes", default_value_t = 100)]
    pub votes: u32,
    #[arg(long, default_value_t = 300)]
    pub annotators: usize,
    /// Share of annotators voting uniformly at random.
    #[arg(long, default_value_t = 0.0)]
    pub spammers: f64,
    /// Share of annotators with a favourite class.
    #[arg(long, default_value_t = 0.0)]
    pub biased: f64,
    /// Probability a biased annotator votes their favourite class.
    #[arg(long, default_value_t = 0.5)]
    pub bias: f64,
    /// Feature width.
    #[arg(long, default_value_t = 16)]
    pub dim: usize,
    /// Standard deviation of the Gaussian noise added to the features (0: they determine the truth).
    #[arg(long, default_value_t = 0.5)]
    pub feature_noise: f64,
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Items in pairs sharing one true distribution; the features are a random code per pair plus
    /// the noise (annosat_core::synth): the control in which a learner's small-N errors are the
    /// twin's vote noise, item by item.
    #[arg(long)]
    pub twins: bool,
    /// Mean share (0–0.5) of an honest annotator's votes that pass through their own random
    /// confusion matrix: annotators who differ as people do (the crossed intervals' check).
    #[arg(long, default_value_t = 0.0)]
    pub confusion: f64,
    /// Share of the annotators who are experts: honest and free of the confusion the others have.
    #[arg(long, default_value_t = 0.0)]
    pub experts: f64,
}

impl Args {
    pub fn config(&self) -> SynthConfig {
        SynthConfig {
            items: self.items,
            classes: self.classes,
            concentration: self.concentration,
            votes: self.votes,
            annotators: self.annotators,
            spammers: self.spammers,
            biased: self.biased,
            bias: self.bias,
            dim: self.dim,
            feature_noise: self.feature_noise,
            seed: self.seed,
            twins: self.twins,
            confusion: self.confusion,
            experts: self.experts,
        }
    }
}

pub fn run(a: Args) -> Result<()> {
    let cfg = a.config();
    let s = synth::generate(&cfg).map_err(|e| anyhow!("{e}"))?;
    let t = &s.table;
    let k = t.num_classes();
    let mut votes = format!("item_id,{}\n", t.classes().join(","));
    let mut truth = votes.clone();
    for (i, id) in t.item_ids().iter().enumerate() {
        let c: Vec<String> = t.counts(i).iter().map(|x| x.to_string()).collect();
        writeln!(votes, "{id},{}", c.join(","))?;
        let p: Vec<String> = s.truth[i * k..(i + 1) * k]
            .iter()
            .map(|x| x.to_string())
            .collect();
        writeln!(truth, "{id},{}", p.join(","))?;
    }
    let mut ann = String::from("item_id,annotator_id,label\n");
    for r in t.annotations() {
        writeln!(
            ann,
            "{},{},{}",
            t.item_ids()[r.item as usize],
            t.annotator_ids()[r.annotator as usize],
            t.classes()[r.label as usize]
        )?;
    }
    let head = HeadFeatures::new(
        t.item_ids().to_vec(),
        s.dim,
        &s.features,
        "synthetic (annosat synth)".into(),
        cfg.describe(),
    );
    let source = format!(
        "# Synthetic data (annosat synth)\n\n{}\n\nRegenerate: `annosat synth --out <dir> --items {} --classes {} --concentration {} --votes {} --annotators {} --spammers {} --biased {} --bias {} --dim {} --feature-noise {} --seed {}{}`\n\nGenerated data with known truth (`truth.csv`); not human labels. See core/src/synth.rs for the model.\n",
        cfg.describe(), cfg.items, cfg.classes, cfg.concentration, cfg.votes, cfg.annotators, cfg.spammers, cfg.biased, cfg.bias, cfg.dim, cfg.feature_noise, cfg.seed, if cfg.twins { " --twins" } else { "" }
    );
    std::fs::create_dir_all(&a.out)?;
    atomic_write(&a.out.join("votes.csv"), votes.as_bytes())?;
    atomic_write(&a.out.join("truth.csv"), truth.as_bytes())?;
    atomic_write(&a.out.join("annotations.csv"), ann.as_bytes())?;
    atomic_write(
        &a.out.join(annosat_heads::features::FILE),
        &head.to_bytes()?,
    )?;
    atomic_write(&a.out.join("SOURCE.md"), source.as_bytes())?;
    println!("{}", a.out.display());
    Ok(())
}
