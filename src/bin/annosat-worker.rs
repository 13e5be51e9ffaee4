//! The explorer's Web Worker: parses data and computes curves off the main thread.
fn main() {
    console_error_panic_hook::set_once();
    annosat_app::worker::start();
}
