//! Item intervals for extrapolated curves that hold the prior's uncertainty too.
//!
//! The extrapolated curves' repeat intervals treat the fitted prior as known. Its parameters come
//! from the items, so a study with other items would have fitted another prior and drawn other
//! posterior tables. Each item resample b (multinomial over the items, seeded by (seed, b))
//! therefore gets its **own prior, refitted** on the resample (EM started from the full data's fit,
//! with the number of Dirichlets it chose, so BIC's search is not repeated), its own posterior table and
//! [`REPEATS_PER_RESAMPLE`] repeats of its curves; the resamples' mean curves are read as the
//! curves' item bootstrap is ([`crate::curves::ItemBands`]). So the extrapolated 90% point's
//! interval reflects which items were drawn, the prior fitted to them, the posterior draws and the
//! repeats. `extrapolate --check` measures how often it contains the answer of data that really
//! have the votes.

use super::{draw_part, prior, ExtrapolateConfig, ExtrapolateError, Prior};
use crate::curves::{ItemBands, Metric};
use crate::sample;
use crate::votes::VoteTable;

const PURPOSE_RESAMPLE_ITEMS: u64 = 0xE_6;
/// Repeats of each resample's curves: one group of the engine's four lanes.
pub const REPEATS_PER_RESAMPLE: u32 = 4;
/// Posterior draws of resample b are numbered from here, apart from the main draws' streams.
const DRAW_OFFSET: u32 = 1 << 20;

/// Resample b of the items (with replacement, as many as there are).
pub fn resample(table: &VoteTable, seed: u64, b: u32) -> VoteTable {
    let n = table.num_items();
    let mut rng = sample::stream(seed, PURPOSE_RESAMPLE_ITEMS, b as u64, 0);
    let mut counts = Vec::with_capacity(n * table.num_classes());
    let mut ids = Vec::with_capacity(n);
    for j in 0..n {
        let i = sample::below(&mut rng, n as u32) as usize;
        counts.extend_from_slice(table.counts(i));
        ids.push(format!("{}#{j}", table.item_ids()[i]));
    }
    VoteTable::new(table.classes().to_vec(), ids, counts)
}

/// `cfg.curves.bootstrap` resamples' mean curves; `progress(done)` counts their repeats.
pub fn item_bands(
    table: &VoteTable,
    cfg: &ExtrapolateConfig,
    fit: &Prior,
    progress: &mut impl FnMut(usize),
) -> Result<ItemBands, ExtrapolateError> {
    let seed = cfg.curves.seed;
    let cfg = &ExtrapolateConfig {
        curves: crate::curves::CurveConfig {
            repeats: REPEATS_PER_RESAMPLE,
            ..cfg.curves.clone()
        },
        ..cfg.clone()
    };
    let mut curves = Vec::with_capacity(cfg.curves.bootstrap as usize);
    let mut grid = Vec::new();
    for b in 0..cfg.curves.bootstrap {
        let rs = resample(table, seed, b);
        let fit_b = prior::refit(&rs, fit, seed)?;
        let done = (b * REPEATS_PER_RESAMPLE) as usize;
        let c = draw_part(
            &rs,
            &fit_b,
            cfg,
            DRAW_OFFSET + b,
            0..REPEATS_PER_RESAMPLE,
            &mut |d| progress(done + d),
        )?;
        curves.push(std::array::from_fn(|m| {
            c.points(Metric::ALL[m]).iter().map(|p| p.mean).collect()
        }));
        if grid.is_empty() {
            grid = c.grid.clone();
        }
    }
    Ok(ItemBands::from_resample_curves(grid, &curves))
}
