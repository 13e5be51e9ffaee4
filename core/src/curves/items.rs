//! Per-item view of one draw: for each item, p_N from repeat `r` (the very draw the curves used)
//! beside p_ref, so a user can see which items move most at a given N.

use super::{split_for, CurveConfig, CurveError};
use crate::logtable::xlnx;
use crate::metrics::{js_distance, normalize};
use crate::sample::{curve_draw, CurveDraws};
use crate::votes::VoteTable;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemDraw {
    pub item: String,
    pub counts_n: Vec<u32>,
    pub reference: Vec<u32>,
    /// Entropies in nats.
    pub h_n: f64,
    pub h_ref: f64,
    pub jsd: f64,
}

fn entropy_of(c: &[u32]) -> f64 {
    let t: u32 = c.iter().sum();
    // `+ 0.0` turns the −0 of a unanimous item into 0.
    -c.iter().map(|&x| xlnx(x as f64 / t as f64)).sum::<f64>() + 0.0
}

/// Items with at least `n` votes to draw from, with their repeat-`r` draw of `n` votes.
pub fn item_draws(
    table: &VoteTable,
    cfg: &CurveConfig,
    n: u32,
    r: u32,
) -> Result<Vec<ItemDraw>, CurveError> {
    if n == 0 {
        return Err(CurveError::ZeroN);
    }
    let split = split_for(table, cfg)?;
    let (pool, reference) = match &split {
        None => (table, table),
        Some(s) => (&s.a, &s.b),
    };
    let mut out = Vec::new();
    for i in 0..pool.num_items() {
        if reference.total(i) == 0 {
            continue;
        }
        let Some(c) = curve_draw(pool.counts(i), n, CurveDraws::new(cfg.seed, i, r)) else {
            continue;
        };
        let f = reference.counts(i).to_vec();
        let (p, q) = (
            normalize(&c).unwrap_or_default(),
            normalize(&f).unwrap_or_default(),
        );
        out.push(ItemDraw {
            item: pool.item_ids()[i].clone(),
            h_n: entropy_of(&c),
            h_ref: entropy_of(&f),
            jsd: js_distance(&p, &q),
            counts_n: c,
            reference: f,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves::{compute, Metric};

    #[test]
    fn draws_reproduce_the_curves_repeat() {
        let t = VoteTable::new(
            vec!["a".into(), "b".into(), "c".into()],
            vec!["x".into(), "y".into(), "z".into()],
            vec![5, 3, 2, 1, 8, 1, 4, 4, 2],
        );
        let cfg = CurveConfig {
            grid: vec![4],
            repeats: 2,
            seed: 5,
            ..Default::default()
        };
        let c = compute(&t, &cfg).unwrap();
        let d = item_draws(&t, &cfg, 4, 1).unwrap();
        let mean_jsd = d.iter().map(|x| x.jsd).sum::<f64>() / d.len() as f64;
        assert!((mean_jsd - c.value(Metric::Jsd, 0, 1).unwrap()).abs() < 1e-10);
        assert!(d.iter().all(|x| x.counts_n.iter().sum::<u32>() == 4));
    }
}
