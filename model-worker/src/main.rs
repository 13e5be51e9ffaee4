//! The model worker's entry point (see the crate docs).
fn main() {
    console_error_panic_hook::set_once();
    annosat_model_worker::worker::start();
}
