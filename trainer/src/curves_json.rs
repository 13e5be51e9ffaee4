//! The curves as JSON, as `curves` and `extrapolate` print them.

use annosat_core::answer::{MetricAnswer, HEADLINE_REFERENCE_VOTES};
use annosat_core::curves::{CurveConfig, Curves, ItemBands, Metric, Reference};
use serde_json::json;

/// The curves as JSON: per metric and N the mean, the repeats' interval and, with a bootstrap,
/// the items' (`items_lo`, `items_hi`); per metric the saturation point with both intervals and
/// whether it is bounded by the votes, and the ε-point (`within`). `bands` default to the curves'
/// own item bootstrap (the extrapolation passes its own).
pub(crate) fn to_json(
    c: &Curves,
    cfg: &CurveConfig,
    target: f64,
    eps: &[f64; 4],
) -> serde_json::Value {
    to_json_with(c, c.item_bands().as_ref(), cfg, target, eps)
}

pub(crate) fn to_json_with(
    c: &Curves,
    bands: Option<&ItemBands>,
    cfg: &CurveConfig,
    target: f64,
    eps: &[f64; 4],
) -> serde_json::Value {
    let mut metrics = serde_json::Map::new();
    let mut saturation = serde_json::Map::new();
    let mut within = serde_json::Map::new();
    for m in Metric::ALL {
        let fr = c.improvement_fraction(m);
        let pts: Vec<_> = c
            .points(m)
            .into_iter()
            .zip(fr)
            .enumerate()
            .map(|(g, (p, f))| {
                let (ilo, ihi) = bands.map_or((None, None), |b| b.band(m, g));
                json!({"n": p.n, "mean": p.mean, "lo": p.lo, "hi": p.hi, "sd": p.sd, "fraction": f,
                       "items_lo": ilo, "items_hi": ihi})
            })
            .collect();
        metrics.insert(m.name().into(), pts.into());
        let mut ans = MetricAnswer::of(c, bands, m, target, eps[m as usize]);
        if matches!(cfg.reference, Reference::HeldOut { .. }) {
            ans = ans.against_heldout();
        }
        let mut sat = serde_json::to_value(c.saturation(m, target)).unwrap_or_default();
        sat["items"] = serde_json::to_value(ans.point.items).unwrap_or_default();
        sat["bounded_by_votes"] = json!(ans.bounded_by_votes);
        saturation.insert(m.name().into(), sat);
        let (lo, hi) = ans.within.items.map_or((None, None), |iv| (iv.lo, iv.hi));
        within.insert(
            m.name().into(),
            json!({"eps": ans.eps, "n": ans.within.n, "lo": lo, "hi": hi}),
        );
    }
    json!({
        "grid": c.grid, "repeats": c.repeats, "seed": cfg.seed, "alpha": c.alpha,
        "reference": cfg.reference, "items": c.items, "heldout_excluded": c.heldout_excluded,
        "bootstrap": bands.map(|b| json!({"resamples": b.resamples, "blocks": b.blocks, "units": b.units})),
        "headline_reference_votes": HEADLINE_REFERENCE_VOTES,
        "metrics": metrics, "saturation": saturation, "within": within,
    })
}
