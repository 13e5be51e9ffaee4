//! annosat explorer: a Leptos (client-side rendered) app compiled to WebAssembly by Trunk.
//!
//! It loads a vote file, runs the shared core's curve computation in the browser, and shows the
//! target-side saturation curves with an annotator-budget slider N. Everything numeric comes from
//! `annosat-core`, the same code the `annosat` CLI runs, so the two agree exactly for a given seed.

mod app;
mod chart;
mod data;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
