//! Loading a dataset and computing its curves (in the page for now; a worker comes with the
//! explorer issue).

use annosat_core::curves::{compute, CurveConfig, Curves};
use annosat_core::{parse_votes, ImportOptions};
use std::sync::Arc;

/// The settings the app uses; the CLI's defaults are the same (`--repeats 50 --seed 42`).
pub const SEED: u64 = 42;
pub const REPEATS: u32 = 50;

/// A dataset with its curves, shared cheaply between components.
#[derive(Clone)]
pub struct Loaded {
    pub name: String,
    pub items: usize,
    pub classes: Vec<String>,
    pub curves: Arc<Curves>,
    /// Wall-clock milliseconds the curve computation took in this browser.
    pub compute_ms: f64,
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Fetches `data/<name>/votes.csv`, parses it and computes every N from 1 to the largest vote count.
pub async fn load(name: &str) -> Result<Loaded, String> {
    let url = format!("data/{name}/votes.csv");
    let resp = gloo::net::http::Request::get(&url)
        .send()
        .await
        .map_err(|e| format!("cannot fetch {url}: {e}"))?;
    if !resp.ok() {
        return Err(format!("cannot fetch {url}: HTTP {}", resp.status()));
    }
    let bytes = resp
        .binary()
        .await
        .map_err(|e| format!("cannot read {url}: {e}"))?;
    let (table, _) =
        parse_votes(&bytes, &ImportOptions::default()).map_err(|e| format!("{url}: {e}"))?;
    let cfg = CurveConfig {
        repeats: REPEATS,
        seed: SEED,
        ..Default::default()
    };
    let t0 = now_ms();
    let curves = compute(&table, &cfg).map_err(|e| e.to_string())?;
    let compute_ms = now_ms() - t0;
    Ok(Loaded {
        name: name.to_string(),
        items: table.num_items(),
        classes: table.classes().to_vec(),
        curves: Arc::new(curves),
        compute_ms,
    })
}

/// `?n=` from the page URL, if present and a number.
pub fn n_from_url() -> Option<u32> {
    let search = web_sys::window()?.location().search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("n=")?.parse().ok())
}
