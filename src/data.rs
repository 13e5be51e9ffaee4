//! Fetching what the build step put under data/ and models/: the datasets' index, a dataset's
//! compact file and its texts, and the model exports' index (read by the Models and Plan rooms).

use crate::state::St;
use annosat_app::protocol::Format;
use annosat_core::bundle::IndexEntry;
use annosat_core::models::{ExportEntry, ExportsIndex};
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

/// The model exports' index (models/index.json), fetched once for every room that reads it.
#[derive(Clone, Copy)]
pub struct Exports {
    pub list: RwSignal<Option<Result<Vec<ExportEntry>, String>>>,
}

impl Exports {
    pub fn new() -> Self {
        Exports {
            list: RwSignal::new(None),
        }
    }

    /// Fetches the index unless it is here or on its way.
    pub fn ensure(self) {
        if self.list.get_untracked().is_some() {
            return;
        }
        leptos::task::spawn_local(async move {
            let r = fetch_bytes("models/index.json").await.and_then(|b| {
                serde_json::from_slice::<ExportsIndex>(&b)
                    .map(|i| i.exports)
                    .map_err(|e| format!("models/index.json: {e}"))
            });
            self.list.set(Some(r));
        });
    }
}

impl Default for Exports {
    fn default() -> Self {
        Self::new()
    }
}

/// The export for a dataset: the held-out one when asked for and present, else the all-votes one.
pub fn pick_export(exports: &[ExportEntry], dataset: &str, heldout: bool) -> Option<ExportEntry> {
    let of = |r: &str| {
        exports
            .iter()
            .find(|e| e.dataset == dataset && e.reference == r)
            .cloned()
    };
    if heldout {
        of("heldout").or_else(|| of("all"))
    } else {
        of("all")
    }
}
