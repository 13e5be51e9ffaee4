//! `annosat aggregate`: each item's aggregate label and class probabilities from all its votes, by
//! majority vote or Dawid–Skene (annosat_core::agreement::dawid_skene), as CSV.

use annosat_core::agreement::{argmax_mask, dawid_skene, majority_vote, DsConfig};
use anyhow::{bail, Result};
use clap::ValueEnum;
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Method {
    /// Vote fractions; the label is the most voted class.
    Majority,
    /// Annotators' confusion matrices by EM (needs annotator ids: long-form votes).
    DawidSkene,
}

#[derive(clap::Args)]
pub struct Args {
    /// Vote file: wide counts or long `item_id,annotator_id,label` (auto-detected).
    #[arg(long)]
    votes: PathBuf,
    #[arg(long, value_enum, default_value = "dawid-skene")]
    method: Method,
    /// Dawid–Skene's EM: at most this many rounds …
    #[arg(long, default_value_t = 100)]
    max_iter: u32,
    /// … stopping when the evidence lower bound per vote rose by less than this.
    #[arg(long, default_value_t = 1e-5)]
    tol: f64,
}

/// Prints `item_id,label,p_<class>…`; tied labels are joined with `|`.
pub fn run(a: Args) -> Result<()> {
    let table = crate::util::load_votes(&a.votes, true)?;
    let k = table.num_classes();
    let probs = match a.method {
        Method::Majority => majority_vote(table.all_counts(), k),
        Method::DawidSkene => {
            if table.annotations().is_empty() {
                bail!(
                    "{} has no annotator ids (wide counts): Dawid–Skene needs the long form item_id,annotator_id,label; --method majority works on counts",
                    a.votes.display()
                );
            }
            if a.max_iter == 0 {
                bail!("--max-iter must be at least 1");
            }
            let cfg = DsConfig {
                max_iter: a.max_iter,
                tol: a.tol,
            };
            let fit = dawid_skene(
                table.annotations(),
                table.num_items(),
                table.annotator_ids().len(),
                k,
                &cfg,
            );
            eprintln!(
                "Dawid–Skene: {} EM rounds, {} (evidence lower bound per vote {:.6}); class prior {}",
                fit.iterations,
                if fit.converged { "converged" } else { "stopped at --max-iter before converging" },
                fit.elbo,
                table
                    .classes()
                    .iter()
                    .zip(&fit.prior)
                    .map(|(c, p)| format!("{c} {p:.4}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            fit.posteriors
        }
    };
    // The csv crate quotes ids and class names that hold commas or quotes.
    let mut w = csv::Writer::from_writer(std::io::stdout().lock());
    let header = ["item_id".to_string(), "label".to_string()]
        .into_iter()
        .chain(table.classes().iter().map(|c| format!("p_{c}")));
    w.write_record(header)?;
    for (i, id) in table.item_ids().iter().enumerate() {
        let p = &probs[i * k..(i + 1) * k];
        let set = argmax_mask(p);
        let label: Vec<&str> = (0..k)
            .filter(|c| set >> c & 1 == 1)
            .map(|c| table.classes()[c].as_str())
            .collect();
        let row = [id.clone(), label.join("|")]
            .into_iter()
            .chain(p.iter().map(|x| x.to_string()));
        w.write_record(row)?;
    }
    w.flush()?;
    Ok(())
}
