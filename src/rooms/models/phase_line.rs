//! A model-worker job's state under a Models room card: one progress bar with its line, the error,
//! or "cancelled" (the Plan room's budget planner shows its own).

use crate::model_jobs::{progress_text, ModelJobs, Phase};
use leptos::prelude::*;

/// The job's state under a card: one progress bar with its line, the error, or "cancelled".
/// Element ids are `<prefix>-progress`, `<prefix>-status` and `<prefix>-error`.
#[component]
pub fn PhaseLine(prefix: &'static str) -> impl IntoView {
    let ts = expect_context::<ModelJobs>();
    move || {
        // The Plan room's budget planner shows its own progress there.
        if ts.is_budget() {
            return ().into_any();
        }
        let p = ts.phase.get();
        match (&p, progress_text(&p)) {
            (_, Some((done, text))) => view! {
                <div class="train-progress">
                    <progress id=format!("{prefix}-progress") max="1" value=done.to_string()></progress>
                    <span id=format!("{prefix}-status")>{text}</span>
                </div>
            }
            .into_any(),
            (Phase::Failed(e), _) => {
                view! { <p class="error" id=format!("{prefix}-error")>{e.clone()}</p> }.into_any()
            }
            (Phase::Cancelled, _) => {
                view! { <p class="status" id=format!("{prefix}-status")>"cancelled"</p> }.into_any()
            }
            _ => ().into_any(),
        }
    }
}
