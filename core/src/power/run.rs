//! The whole comparison in one call, for the CLI and the app's worker alike: the priors (only
//! where the grid goes past some item's votes), what the file shows, the reference direction, and
//! every N's column, with progress in cells.

use super::cells::{column, observed, reference};
use super::pool::{self, Input};
use super::report::{PowerConfig, PowerReport};

/// Cells the comparison simulates (the grid's; the cells along the budget lines come on top).
pub fn cells(cfg: &PowerConfig) -> usize {
    cfg.items.len() * cfg.n.len()
}

/// The report for `inp`; `progress(done, total)` counts the grid's cells.
pub fn compare(
    inp: Input,
    cfg: &PowerConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<PowerReport, String> {
    cfg.check()?;
    let priors = match cfg.n.iter().any(|&n| pool::needs_posterior(inp.table, n)) {
        true => Some(pool::priors(inp.table, cfg.seed)?),
        false => None,
    };
    let observed = observed(inp, cfg)?;
    let reference = reference(inp, cfg, priors.as_deref())?;
    let total = cells(cfg);
    let mut columns = Vec::with_capacity(cfg.n.len());
    for (k, &n) in cfg.n.iter().enumerate() {
        let base = k * cfg.items.len();
        columns.push(column(
            inp,
            cfg,
            (n, &reference),
            priors.as_deref(),
            &mut |done| progress(base + done, total),
        )?);
    }
    Ok(PowerReport::new(inp, cfg, (observed, reference), columns))
}
