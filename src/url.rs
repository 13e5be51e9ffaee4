//! The URL as the source of truth for a shareable view:
//! `?dataset=…&n=…&x=…&heldout=0|1&seed=…&metric=…&logx=0|1&room=target|models|repro|plan`
//! and, in the Plan room, `&votes=M|inf&prior=auto|1…4&level=nominal|ordinal|interval&n0=…`
//! (its choices: the extrapolation's, α's level, the adaptive simulation's start) and
//! `&cmp=A,B&cmp_n=N&cmp_metric=…` (the comparison's two arms, the N they were trained at and
//! the heat map's metric); in the Sources
//! room `&source=<key>` (a source the dataset ships; an upload is not kept); anywhere
//! `&model_workers=K`, the model workers one job uses (default: one per core), and
//! `&bootstrap=B`, the curves' item-bootstrap resamples (default 200; 0: no item intervals), and
//! `&scale=nominal|ordinal|interval`, how the classes are read where the user chose (default: a
//! scale when the class names are numbers, else unordered).

use crate::state::{St, UPLOADED};
use annosat_core::curves::bootstrap::DEFAULT_RESAMPLES;
use annosat_core::curves::Metric;
use annosat_model_worker::protocol::MAX_WORKERS;

/// Most item-bootstrap resamples a link may ask for.
const MAX_RESAMPLES: u32 = 2000;
use leptos::prelude::*;

fn params() -> Vec<(String, String)> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| {
            (
                k.to_string(),
                js_sys::decode_uri_component(v)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default(),
            )
        })
        .collect()
}

/// Reads the URL into the state; returns the dataset it names (None: "uploaded", which is not kept).
pub fn read(st: &St) -> Option<String> {
    let mut dataset = None;
    for (k, v) in params() {
        match k.as_str() {
            "dataset" => dataset = Some(v),
            "n" => v.parse().into_iter().for_each(|n: u32| st.set_n(n)),
            "x" => v.parse().into_iter().for_each(|x: u32| st.set_x(x)),
            "heldout" => st.heldout.set(v == "1"),
            "seed" => v.parse().into_iter().for_each(|s| st.seed.set(s)),
            "metric" => Metric::from_name(&v)
                .into_iter()
                .for_each(|m| st.metric.set(m)),
            "logx" => st.logx.set(v == "1"),
            "votes" => match v.as_str() {
                "inf" => st.plan.votes.set(0),
                m => m
                    .parse::<u32>()
                    .into_iter()
                    .for_each(|m| st.plan.votes.set(m.clamp(2, 1000))),
            },
            "prior" => st
                .plan
                .components
                .set(v.parse::<u32>().map_or(0, |c| c.min(4))),
            "level" => st.plan.level.set(match v.as_str() {
                "ordinal" => "ordinal",
                "interval" => "interval",
                _ => "nominal",
            }),
            "n0" => v
                .parse::<u32>()
                .into_iter()
                .for_each(|n| st.plan.n0.set(n.clamp(2, 50))),
            "cmp" => {
                if let Some((a, b)) = v.split_once(',') {
                    st.compare.arms.set((a.to_string(), b.to_string()));
                }
            }
            "cmp_n" => v
                .parse::<u32>()
                .into_iter()
                .for_each(|n| st.compare.arms_n.set(Some(n))),
            "cmp_metric" => annosat_core::power::PowerMetric::parse(&v)
                .into_iter()
                .for_each(|m| st.compare.metric.set(m)),
            "source" => st.sources.wanted.set(Some(v)),
            "scale" => st
                .ratings
                .read_as
                .set(annosat_core::ratings::ScaleKind::parse(&v)),
            "bootstrap" => v
                .parse::<u32>()
                .into_iter()
                .for_each(|b| st.bootstrap.set(b.min(MAX_RESAMPLES))),
            "model_workers" => v
                .parse::<usize>()
                .into_iter()
                .for_each(|k| st.model_workers.set(k.min(MAX_WORKERS))),
            "room" => crate::state::Room::parse(&v)
                .into_iter()
                .for_each(|r| st.room.set(r)),
            _ => {}
        }
    }
    dataset.filter(|d| d != UPLOADED)
}

/// Keeps the address bar in step with the state (replaceState: no history spam while dragging).
pub fn sync(st: St) {
    Effect::new(move |_| {
        let mut q = format!(
            "?dataset={}&n={}&x={}&heldout={}&seed={}&metric={}&logx={}&room={}",
            js_sys::encode_uri_component(&st.dataset.get()),
            st.n.get(),
            st.x.get(),
            st.heldout.get() as u8,
            st.seed.get(),
            st.metric.get().name(),
            st.logx.get() as u8,
            st.room.get().key(),
        );
        // The Plan room's choices, in its own links only.
        if st.room.get() == crate::state::Room::Plan {
            let votes = match st.plan.votes.get() {
                0 => "inf".to_string(),
                m => m.to_string(),
            };
            let prior = match st.plan.components.get() {
                0 => "auto".to_string(),
                c => c.to_string(),
            };
            q.push_str(&format!(
                "&votes={votes}&prior={prior}&level={}&n0={}",
                st.plan.level.get(),
                st.plan.n0.get()
            ));
            // The comparison: the export's two arms (uploaded files are not kept) and the metric.
            let (a, b) = st.compare.arms.get();
            if !st.compare.from_files.get() {
                q.push_str(&format!(
                    "&cmp={},{}",
                    js_sys::encode_uri_component(&a),
                    js_sys::encode_uri_component(&b)
                ));
                if let Some(n) = st.compare.arms_n.get() {
                    q.push_str(&format!("&cmp_n={n}"));
                }
            }
            q.push_str(&format!("&cmp_metric={}", st.compare.metric.get().key()));
        }
        if st.room.get() == crate::state::Room::Sources {
            let choice = st.sources.choice.get();
            if let Some(k) = choice.as_ref().and_then(|c| c.key()) {
                q.push_str(&format!("&source={}", js_sys::encode_uri_component(k)));
            }
        }
        // A chosen model-worker pool size stays in the address (a benchmark's, or a user's who
        // keeps a core free).
        if st.bootstrap.get() != DEFAULT_RESAMPLES {
            q.push_str(&format!("&bootstrap={}", st.bootstrap.get()));
        }
        if let Some(kind) = st.ratings.read_as.get() {
            let v = serde_json::to_value(kind).unwrap_or_default();
            q.push_str(&format!("&scale={}", v.as_str().unwrap_or_default()));
        }
        if st.model_workers.get() > 0 {
            q.push_str(&format!("&model_workers={}", st.model_workers.get()));
        }
        if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&q));
        }
    });
}
