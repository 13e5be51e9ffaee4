//! How a pool worker comes to be: a nested dedicated worker started from this worker's own glue
//! and wasm (`self.annosatScript`), and the words for one that fails to start.

use anyhow::{anyhow, Result};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Worker;

pub(super) fn js(e: JsValue) -> anyhow::Error {
    anyhow!("{}", e.as_string().unwrap_or_else(|| format!("{e:?}")))
}

/// The glue and wasm this worker was started from (`self.annosatScript`, set by the page's
/// worker script), for starting more of itself.
fn own_script() -> Result<(String, String)> {
    let v = js_sys::Reflect::get(&js_sys::global(), &"annosatScript".into()).map_err(js)?;
    let a: js_sys::Array = v.dyn_into().map_err(|_| {
        anyhow!("this worker does not know its own script (a page older than the pool?)")
    })?;
    Ok((
        a.get(0).as_string().unwrap_or_default(),
        a.get(1).as_string().unwrap_or_default(),
    ))
}

/// A new worker running this worker's own script.
pub(super) fn spawn_self() -> Result<Worker> {
    let (glue, wasm) = own_script()?;
    let script = format!(
        "self.annosatScript=['{glue}','{wasm}'];importScripts('{glue}');wasm_bindgen('{wasm}').catch(e => setTimeout(() => {{ throw e; }}));"
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(js)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    Worker::new(&url).map_err(js)
}

/// What an `error` event of a pool worker says (or why it may have failed, when it says nothing).
pub(super) fn error_text(ev: &web_sys::Event) -> String {
    let get = |k: &str| js_sys::Reflect::get(ev, &k.into()).ok();
    get("message")
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "its script or wasm failed to load, or it ran out of memory".into())
}
