//! The simulated cells: the reference direction, one N's column (the grid's rows and the cells
//! along the budget lines) and what the file itself shows — each cell's test, power and interval.
//! A column is the app's workers' unit; [`super::report::PowerReport::new`] joins them.

use super::budgets::budget_lines;
use super::pool::{Input, Pool};
use super::report::{Cell, Column, Observed, PowerConfig, Reference};
use super::simulate::{evaluations, whole, Sims};
use crate::extrapolate::Prior;

/// The [`Reference`] of a comparison.
pub fn reference(
    inp: Input,
    cfg: &PowerConfig,
    priors: Option<&[Prior]>,
) -> Result<Reference, String> {
    let top = cfg.n.iter().max().copied().unwrap_or(1);
    let fewest = (0..inp.table.num_items())
        .map(|i| inp.table.total(i))
        .min()
        .unwrap_or(0);
    let (n, pool) = if fewest >= top {
        (None, Pool::build(inp, None, 1, cfg.seed, None)?)
    } else {
        (
            Some(top),
            Pool::build(inp, Some(top), cfg.draws, cfg.seed, priors)?,
        )
    };
    Ok(Reference {
        n,
        diffs: whole(&pool),
    })
}

/// One N's column: its pool, then `resamples` evaluations per row of the grid and along each
/// budget line; `reference` from [`reference`].
pub fn column(
    inp: Input,
    cfg: &PowerConfig,
    (n, reference): (u32, &Reference),
    priors: Option<&[Prior]>,
    progress: &mut impl FnMut(usize),
) -> Result<Column, String> {
    let pool = Pool::build(inp, Some(n), cfg.draws, cfg.seed, priors)?;
    let expected = whole(&pool);
    let truth = &reference.diffs;
    let mut cells = Vec::new();
    for (r, &items) in cfg.items.iter().enumerate() {
        let sims = evaluations(&pool, items, cfg.resamples, cfg.seed);
        for ((s, &(_, mu)), &(_, file)) in sims.iter().zip(&expected).zip(truth) {
            cells.push(cell(s, (items, n), (mu, sign_of(file)), cfg));
        }
        progress(r + 1);
    }
    let (lo, hi) = (cfg.items[0], cfg.items[cfg.items.len() - 1]);
    let mut along = Vec::new();
    for votes in budget_lines(cfg) {
        let items = (votes as f64 / n as f64).round() as u32;
        if items < lo || items > hi {
            continue;
        }
        let sims = evaluations(&pool, items, cfg.resamples, cfg.seed);
        for ((s, &(_, mu)), &(_, file)) in sims.iter().zip(&expected).zip(truth) {
            along.push((votes, cell(s, (items, n), (mu, sign_of(file)), cfg)));
        }
    }
    Ok(Column {
        n,
        extrapolated: pool.extrapolated,
        cells,
        along,
    })
}

/// One cell from its evaluations: `mu` the pool's expected difference at this N, `truth` the sign
/// of the [`Reference`] difference, the direction a rejection must take to count as power (the other
/// direction counts as `wrong_sign`). The test: |d| beyond the (1 − α) point of |d − mu| over the
/// evaluations — the spread of an evaluation's difference around what it estimates.
fn cell(s: &Sims, (items, n): (u32, u32), (mu, truth): (f64, f64), cfg: &PowerConfig) -> Cell {
    let null = null_of(&s.diff, mu);
    let crit = quantile(&null, 1.0 - cfg.alpha);
    let r = s.diff.len().max(1) as f64;
    let share = |d: &mut dyn Iterator<Item = f64>, sign: f64| {
        d.filter(|&d| d.abs() > crit && (sign == 0.0 || d.signum() == sign))
            .count() as f64
            / r
    };
    let power = share(&mut s.diff.iter().copied(), truth);
    let wrong_sign = if truth == 0.0 {
        0.0
    } else {
        share(&mut s.diff.iter().copied(), -truth)
    };
    let power_effect = cfg
        .effects
        .iter()
        .find(|(m, _)| *m == s.metric)
        .map(|&(m, eps)| {
            let target = if m.higher_is_better() { eps } else { -eps };
            share(
                &mut s.diff.iter().map(|&d| d - mu + target),
                sign_of(target),
            )
        });
    let mut abs: Vec<f64> = s.diff.iter().map(|d| d.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let mut d = s.diff.clone();
    d.sort_by(f64::total_cmp);
    Cell {
        metric: s.metric,
        items,
        n,
        diff: s.diff.iter().sum::<f64>() / r,
        diff_lo: quantile(&d, 0.025),
        diff_hi: quantile(&d, 0.975),
        p_median: p_of(&null, quantile(&abs, 0.5)),
        power,
        wrong_sign,
        power_effect,
    }
}

/// The test's null: each evaluation's |d − center|, sorted (NaN, a correlation of a constant, last).
fn null_of(diff: &[f64], center: f64) -> Vec<f64> {
    let mut v: Vec<f64> = diff.iter().map(|&d| (d - center).abs()).collect();
    v.sort_by(f64::total_cmp);
    v
}

/// The bootstrap p of |d| against the sorted null: (1 + null values at least as large) / (R + 1).
fn p_of(null: &[f64], d: f64) -> f64 {
    if d.is_nan() {
        return f64::NAN;
    }
    let above = null.len() - null.partition_point(|&x| x < d.abs());
    (1 + above) as f64 / (null.len() + 1) as f64
}

fn sign_of(x: f64) -> f64 {
    if x == 0.0 || x.is_nan() {
        0.0
    } else {
        x.signum()
    }
}

/// The q-quantile of sorted values (linear between order statistics).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// What the file says on its own items and all their votes: the difference, its item-bootstrap
/// interval and the paired bootstrap test's p.
pub fn observed(inp: Input, cfg: &PowerConfig) -> Result<Vec<Observed>, String> {
    let pool = Pool::build(inp, None, 1, cfg.seed, None)?;
    let items = pool.items as u32;
    let sims = evaluations(&pool, items, cfg.resamples, cfg.seed);
    Ok(whole(&pool)
        .into_iter()
        .zip(sims)
        .map(|((metric, diff), s)| {
            let null = null_of(&s.diff, diff);
            let mut d = s.diff;
            d.sort_by(f64::total_cmp);
            Observed {
                metric,
                items,
                diff,
                lo: quantile(&d, 0.025),
                hi: quantile(&d, 0.975),
                p: p_of(&null, diff),
            }
        })
        .collect())
}
