//! The synthetic dataset's controls (shown in the data card when "synthetic" is picked): the
//! generator's settings that matter most — item count, votes per item, the Dirichlet concentration
//! of the true distributions, spammers, the feature noise and the seed. "Generate" regenerates in
//! the page and recomputes; the data is always labelled synthetic.

use crate::state::St;
use annosat_core::synth::{SynthConfig, MAX_ITEMS, MAX_VOTES};
use leptos::prelude::*;

#[component]
pub fn SynthControls() -> impl IntoView {
    let st = expect_context::<St>();
    let draft = RwSignal::new(st.synth.get_untracked());
    let error = RwSignal::new(None::<String>);
    let field = move |id: &'static str,
                      label: &'static str,
                      title: &'static str,
                      get: fn(&SynthConfig) -> String,
                      set: fn(&mut SynthConfig, &str) -> bool| {
        view! {
            <label class="synth-field" title=title>{label}" "
                <input id=id type="text" inputmode="decimal" size="6" prop:value=move || draft.with(get)
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        let mut ok = true;
                        draft.update(|c| ok = set(c, v.trim()));
                        if !ok {
                            error.set(Some(format!("{label}: {v:?} is not a number")));
                        }
                    } />
            </label>
        }
    };
    let generate = move |_| {
        let mut cfg = draft.get_untracked();
        // Each item's votes come from distinct annotators: keep the pool large enough.
        cfg.annotators = cfg.annotators.max(3 * cfg.votes as usize);
        match cfg.validate() {
            Ok(()) => {
                error.set(None);
                st.synth.set(cfg);
                crate::data::open_synthetic(st);
            }
            Err(e) => error.set(Some(e)),
        }
    };
    view! {
        <div class="synth" id="synth-controls">
            <p class="badge" id="synthetic-badge">"Synthetic data: generated in this tab from known true distributions, not human labels."</p>
            {field("synth-items", "items", "10 – 20,000", |c| c.items.to_string(), |c, v| v.parse().map(|x| c.items = x).is_ok())}
            {field("synth-votes", "votes per item", "1 – 1,000", |c| c.votes.to_string(), |c, v| v.parse().map(|x| c.votes = x).is_ok())}
            {field("synth-alpha", "concentration α", "Dirichlet(α, …, α) true distributions: small α, clear items; large α, ambiguous ones", |c| c.concentration.to_string(), |c, v| v.parse().map(|x| c.concentration = x).is_ok())}
            {field("synth-spam", "spammers (share)", "annotators voting uniformly at random, 0 – 1", |c| c.spammers.to_string(), |c, v| v.parse().map(|x| c.spammers = x).is_ok())}
            {field("synth-noise", "feature noise σ", "standard deviation of the noise added to the 16-d features that carry each item's true distribution (for the models room)", |c| c.feature_noise.to_string(), |c, v| v.parse().map(|x| c.feature_noise = x).is_ok())}
            {field("synth-seed", "seed", "", |c| c.seed.to_string(), |c, v| v.parse().map(|x| c.seed = x).is_ok())}
            <button id="synth-generate" on:click=generate>"Generate"</button>
            {move || error.get().map(|e| view! { <p class="error" id="synth-error">{e}</p> })}
            <p class="hint">{format!("Limits: {MAX_ITEMS} items, {MAX_VOTES} votes per item. The CLI writes the same data: annosat synth --out DIR (see --help).")}</p>
        </div>
    }
}
