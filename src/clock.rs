//! The page's clock, a leaf every module may use without tying itself to the page state.

/// Milliseconds since the epoch (the page's clock, for time estimates).
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}
