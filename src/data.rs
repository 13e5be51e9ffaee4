//! Fetching what the build step put under data/: the index, a dataset's compact file, its texts.

use crate::state::St;
use annosat_app::protocol::Format;
use annosat_core::bundle::IndexEntry;
use leptos::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

pub async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let resp = gloo::net::http::Request::get(url)
        .send()
        .await
        .map_err(|e| format!("cannot fetch {url}: {e}"))?;
    if !resp.ok() {
        return Err(format!("cannot fetch {url}: HTTP {}", resp.status()));
    }
    resp.binary()
        .await
        .map_err(|e| format!("cannot read {url}: {e}"))
}

pub async fn fetch_index() -> Result<Vec<IndexEntry>, String> {
    let bytes = fetch_bytes("data/index.json").await?;
    serde_json::from_slice(&bytes).map_err(|e| format!("data/index.json: {e}"))
}

/// Fetches a bundled dataset and hands it to the worker; texts follow when the dataset has them.
pub fn open_bundled(st: St, name: String) {
    let Some(entry) = st.entry(&name) else {
        st.status.set(crate::state::Status::Failed(format!(
            "unknown dataset '{name}'"
        )));
        return;
    };
    st.texts.set(None);
    st.items.set(None);
    leptos::task::spawn_local(async move {
        match fetch_bytes(&format!("data/{}", entry.file)).await {
            Ok(bytes) => st.load(
                Format::Bundle,
                js_sys::Uint8Array::from(bytes.as_slice()).into(),
                false,
            ),
            Err(e) => st.status.set(crate::state::Status::Failed(e)),
        }
        if let Some(t) = entry.texts {
            if let Ok(bytes) = fetch_bytes(&format!("data/{t}")).await {
                if let Ok(map) = serde_json::from_slice::<HashMap<String, String>>(&bytes) {
                    if st.dataset.get_untracked() == name {
                        st.texts.set(Some(Arc::new(map)));
                    }
                }
            }
        }
    });
}

/// Generates the synthetic dataset from the current settings (in the page: 100,000 votes take a
/// few milliseconds) and hands it to the workers as a bundle, like a fetched dataset.
pub fn open_synthetic(st: St) {
    use annosat_core::bundle::{self, Bundle};
    st.texts.set(None);
    st.items.set(None);
    let cfg = st.synth.get_untracked();
    match annosat_core::synth::generate(&cfg) {
        Ok(s) => {
            let bytes = bundle::encode(&Bundle {
                name: crate::state::SYNTHETIC.into(),
                table: s.table,
            });
            st.load(
                Format::Bundle,
                js_sys::Uint8Array::from(bytes.as_slice()).into(),
                false,
            );
        }
        Err(e) => st
            .status
            .set(crate::state::Status::Failed(format!("synthetic data: {e}"))),
    }
}
