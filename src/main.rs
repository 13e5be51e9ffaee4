//! annosat explorer: a Leptos (client-side rendered) app compiled to WebAssembly by Trunk.
//!
//! The page holds state and draws; the worker (`src/worker.rs`) parses data and computes curves
//! with `annosat-core`, the same code the `annosat` CLI runs, so the numbers agree exactly.

mod app;
mod bridge;
mod chart;
mod clock;
mod compare_jobs;
mod data;
mod export;
mod model_jobs;
mod plan_jobs;
mod room_jobs;
mod rooms;
mod side;
mod state;
mod synth_view;
mod upload;
mod url;
mod worker_slot;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
