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
//!
//! Large files are resampled **m out of n**: a resample draws at most [`MAX_RESAMPLE_ITEMS`]
//! items, and each resample's mean curve is pulled towards the resamples' mean by √(m/n), so
//! its spread is that of n items (the mean curve is a mean over items, whose spread goes as
//! 1/√items). Its cost then stops growing with the items: 10,000 items cost what 2,500 do.

use super::{draw_part, prior, ExtrapolateConfig, ExtrapolateError, Prior};
use crate::curves::{ItemBands, Metric};
use crate::sample;
use crate::votes::VoteTable;

const PURPOSE_RESAMPLE_ITEMS: u64 = 0xE_6;
/// Repeats of each resample's curves: one group of the engine's four lanes.
pub const REPEATS_PER_RESAMPLE: u32 = 4;
/// Posterior draws of resample b are numbered from here, apart from the main draws' streams.
const DRAW_OFFSET: u32 = 1 << 20;

/// Most items one resample draws (m of the m-out-of-n bootstrap above).
pub const MAX_RESAMPLE_ITEMS: usize = 2_500;

/// Resample b of the items (with replacement, as many as there are, at most
/// [`MAX_RESAMPLE_ITEMS`]).
pub fn resample(table: &VoteTable, seed: u64, b: u32) -> VoteTable {
    let n = table.num_items();
    let m = n.min(MAX_RESAMPLE_ITEMS);
    let mut rng = sample::stream(seed, PURPOSE_RESAMPLE_ITEMS, b as u64, 0);
    let mut counts = Vec::with_capacity(m * table.num_classes());
    let mut ids = Vec::with_capacity(m);
    for j in 0..m {
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
    let full = full_grid(cfg);
    let cfg = &ExtrapolateConfig {
        curves: crate::curves::CurveConfig {
            repeats: REPEATS_PER_RESAMPLE,
            grid: thin(&full),
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
        if grid.is_empty() {
            grid = full
                .iter()
                .copied()
                .filter(|n| c.grid.first().is_some_and(|f| f <= n))
                .filter(|n| c.grid.last().is_some_and(|l| n <= l))
                .collect();
        }
        curves.push(std::array::from_fn(|m| {
            let means: Vec<Option<f64>> = c.points(Metric::ALL[m]).iter().map(|p| p.mean).collect();
            onto(&c.grid, &means, &grid)
        }));
    }
    let n = table.num_items();
    if n > MAX_RESAMPLE_ITEMS {
        rescale(&mut curves, (MAX_RESAMPLE_ITEMS as f64 / n as f64).sqrt());
    }
    Ok(ItemBands::from_resample_curves(grid, &curves))
}

/// Each resample's curve moved to `scale` of its distance from the resamples' mean, N by N.
fn rescale(curves: &mut [[Vec<Option<f64>>; 4]], scale: f64) {
    let Some(first) = curves.first() else {
        return;
    };
    let lens: [usize; 4] = std::array::from_fn(|m| first[m].len());
    for (m, &len) in lens.iter().enumerate() {
        for g in 0..len {
            let v: Vec<f64> = curves.iter().filter_map(|c| c[m][g]).collect();
            if v.is_empty() {
                continue;
            }
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            for c in curves.iter_mut() {
                if let Some(x) = c[m][g].as_mut() {
                    *x = mean + (*x - mean) * scale;
                }
            }
        }
    }
}

/// The N the extrapolated curves are drawn at: the configured grid, or every N to the
/// reference's votes (to [`super::TRUTH_GRID_MAX`] against the true distributions).
fn full_grid(cfg: &ExtrapolateConfig) -> Vec<u32> {
    let mut g = if cfg.curves.grid.is_empty() {
        let end = match cfg.reference_votes {
            super::ReferenceVotes::Votes(m) => m,
            super::ReferenceVotes::Truth => super::TRUTH_GRID_MAX,
        };
        (1..=end).collect()
    } else {
        cfg.curves.grid.clone()
    };
    g.sort_unstable();
    g.dedup();
    g
}

/// The resamples' grid: every N to 20, every 2nd to 40, every 5th beyond, and both ends. A
/// resample's mean curve is smooth in N, so it is drawn at fewer N and read in between
/// ([`onto`]); its crossings, which are read by linear interpolation anyway, move by less than
/// the resamples' spread, and the draws cost a third less (`scripts/bench-answer.sh`).
fn thin(full: &[u32]) -> Vec<u32> {
    let keep = |i: usize, n: u32| {
        i == 0 || i + 1 == full.len() || n <= 20 || (n <= 40 && n % 2 == 0) || n % 5 == 0
    };
    full.iter()
        .enumerate()
        .filter(|&(i, &n)| keep(i, n))
        .map(|(_, &n)| n)
        .collect()
}

/// `values` at `grid` linearly interpolated onto `to` (every `to` within the grid's ends); a
/// missing neighbour gives a missing value.
fn onto(grid: &[u32], values: &[Option<f64>], to: &[u32]) -> Vec<Option<f64>> {
    to.iter()
        .map(|&n| {
            let j = grid.partition_point(|&g| g < n);
            match (grid.get(j), values.get(j).copied().flatten()) {
                (Some(&g), v) if g == n => v,
                (Some(&g1), Some(v1)) if j > 0 => {
                    let (g0, v0) = (grid[j - 1], values[j - 1]?);
                    let t = (n - g0) as f64 / (g1 - g0) as f64;
                    Some(v0 + t * (v1 - v0))
                }
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod grid_tests {
    use super::*;

    #[test]
    fn large_files_are_resampled_m_out_of_n_with_the_spread_of_n() {
        let mut c = vec![
            [vec![Some(1.0), None], vec![], vec![], vec![]],
            [vec![Some(3.0), Some(5.0)], vec![], vec![], vec![]],
        ];
        rescale(&mut c, 0.5);
        assert_eq!(c[0][0], vec![Some(1.5), None]);
        assert_eq!(c[1][0], vec![Some(2.5), Some(5.0)]);
        let t = crate::extrapolate::test_table([1, 2].repeat(3 * MAX_RESAMPLE_ITEMS), 2);
        assert_eq!(resample(&t, 1, 0).num_items(), MAX_RESAMPLE_ITEMS);
    }

    #[test]
    fn resamples_are_drawn_on_a_thinner_grid_and_read_in_between() {
        let full: Vec<u32> = (1..=100).collect();
        let t = thin(&full);
        assert_eq!(&t[..21], &(1..=20).chain([22]).collect::<Vec<_>>()[..]);
        assert_eq!((t[0], *t.last().unwrap(), t.len()), (1, 100, 44));
        let odd: Vec<u32> = (1..=93).collect();
        assert_eq!(*thin(&odd).last().unwrap(), 93);
        let v = [Some(1.0), Some(3.0), None, Some(4.0)];
        assert_eq!(
            onto(&[1, 3, 5, 7], &v, &[1, 2, 3, 4, 6, 7]),
            vec![Some(1.0), Some(2.0), Some(3.0), None, None, Some(4.0)]
        );
    }
}
