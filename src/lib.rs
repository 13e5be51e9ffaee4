//! Shared by the two wasm binaries of the explorer: the page (`annosat-app`, src/main.rs) and the
//! worker that runs the heavy core work off the main thread (`annosat-worker`).

mod blob_reader;
pub mod limits;
pub mod protocol;
pub mod requests;
pub mod worker;
mod worker_jobs;
