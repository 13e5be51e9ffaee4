//! The encoder's files in a worker: from the Cache API when a previous visit stored them, else
//! downloaded with progress and stored there, so each pool worker reads them from the cache.

use crate::reply::{eta, now_ms, Bar};
use annosat_encoder::Bert;
use anyhow::{anyhow, bail, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, Response, WorkerGlobalScope};

/// Share of the job's progress bar the download takes (then embedding, then training).
pub(crate) const DOWNLOAD: f64 = 0.2;

/// The Cache API store for the encoder's files. Bump the suffix when the shipped files change.
const CACHE: &str = "annosat-encoder-v1";
fn js(e: JsValue) -> anyhow::Error {
    anyhow!("{}", e.as_string().unwrap_or_else(|| format!("{e:?}")))
}

async fn open_cache(g: &WorkerGlobalScope) -> Option<Cache> {
    // No Cache API outside secure contexts (plain http on another host): download every time.
    let storage = g.caches().ok()?;
    JsFuture::from(storage.open(CACHE))
        .await
        .ok()
        .map(|c| c.unchecked_into())
}

/// A file's bytes, from the cache or downloaded (then cached); `on_bytes(done, total)` reports
/// download progress. Returns whether it came from the cache.
async fn fetch_cached(
    g: &WorkerGlobalScope,
    cache: Option<&Cache>,
    url: &str,
    on_bytes: &mut dyn FnMut(f64, f64),
) -> Result<(Vec<u8>, bool)> {
    if let Some(c) = cache {
        let hit = JsFuture::from(c.match_with_str(url)).await.map_err(js)?;
        if !hit.is_undefined() {
            let resp: Response = hit.unchecked_into();
            let buf = JsFuture::from(resp.array_buffer().map_err(js)?)
                .await
                .map_err(js)?;
            return Ok((js_sys::Uint8Array::new(&buf).to_vec(), true));
        }
    }
    let resp: Response = JsFuture::from(g.fetch_with_str(url))
        .await
        .map_err(|e| anyhow!("cannot fetch {url}: {}", js(e)))?
        .unchecked_into();
    if !resp.ok() {
        bail!(
            "cannot fetch {url}: HTTP {} (this build has no encoder: run scripts/fetch-model.sh --app before building)",
            resp.status()
        );
    }
    let total: f64 = resp
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0);
    let mut bytes = Vec::with_capacity(total as usize);
    let body = resp
        .body()
        .ok_or_else(|| anyhow!("{url}: empty response"))?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(js)?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .map_err(js)?
            .is_truthy();
        if done {
            break;
        }
        let value: js_sys::Uint8Array = js_sys::Reflect::get(&chunk, &"value".into())
            .map_err(js)?
            .unchecked_into();
        bytes.extend(value.to_vec());
        on_bytes(bytes.len() as f64, total);
    }
    if let Some(c) = cache {
        let stored = Response::new_with_opt_u8_array(Some(&mut bytes.clone())).map_err(js)?;
        // A full disk only costs the next visit a download.
        let _ = JsFuture::from(c.put_with_str(url, &stored)).await;
    }
    Ok((bytes, false))
}

/// The encoder's files, in this order.
const FILES: [&str; 4] = [
    "config.json",
    "tokenizer.json",
    "modules.json",
    "model.safetensors",
];

/// The encoder's four files, from the Cache API when this browser has them, else downloaded and
/// stored there; `on_bytes(done, total)` reports the weights' download. Returns the files and
/// whether all came cached.
async fn encoder_files(
    url: &str,
    on_bytes: &mut dyn FnMut(f64, f64),
) -> Result<(Vec<Vec<u8>>, bool)> {
    let g: WorkerGlobalScope = js_sys::global().unchecked_into();
    let cache = open_cache(&g).await;
    let base = url.trim_end_matches('/');
    let mut files = Vec::new();
    let mut cached = true;
    for name in FILES {
        let url = format!("{base}/{name}");
        let mut report = |d: f64, t: f64| {
            if name == "model.safetensors" && t > 0.0 {
                on_bytes(d, t)
            }
        };
        let (bytes, hit) = fetch_cached(&g, cache.as_ref(), &url, &mut report).await?;
        cached &= hit;
        files.push(bytes);
    }
    Ok((files, cached))
}

/// Puts the encoder's files in the Cache API (once per browser), with download progress, so each
/// pool worker reads them from there. Returns the time it took and whether all came cached.
pub(crate) async fn download_encoder(url: &str, bar: &Bar) -> Result<(f64, bool)> {
    let td = now_ms();
    let mut report = |d: f64, t: f64| {
        let f = d / t;
        bar.stage(
            "download",
            DOWNLOAD * f,
            format!(
                "downloading the encoder: {:.1} of {:.1} MB{}",
                d / 1e6,
                t / 1e6,
                eta(f, now_ms() - td)
            ),
        );
    };
    let (_, cached) = encoder_files(url, &mut report).await?;
    Ok((now_ms() - td, cached))
}

/// The encoder, its files from the Cache API (a pool worker's load).
pub(crate) async fn load_encoder(url: &str) -> Result<Bert> {
    let (mut files, _) = encoder_files(url, &mut |_, _| {}).await?;
    let weights = files.pop().expect("four files");
    let modules = String::from_utf8_lossy(&files[2]).into_owned();
    Bert::from_bytes(&files[0], &files[1], weights, &modules)
}
