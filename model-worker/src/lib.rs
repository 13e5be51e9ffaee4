//! annosat's model worker. The library is the protocol between the page and the worker (plain
//! serde types, no candle); the worker itself (`worker` feature, binary `annosat-model-worker`)
//! trains heads with annosat-heads — the code the native sweep runs — inside the tab.

#[cfg(feature = "worker")]
mod design;
#[cfg(feature = "worker")]
mod encoder_files;
#[cfg(feature = "worker")]
mod ml_own;
#[cfg(feature = "worker")]
mod own;
#[cfg(feature = "worker")]
pub mod pool;
pub mod protocol;
#[cfg(feature = "worker")]
mod reply;
#[cfg(feature = "worker")]
mod synth;
#[cfg(feature = "worker")]
pub mod uploads;
#[cfg(feature = "worker")]
pub mod worker;
