//! The Target room for classes on a scale (1–5 stars, 1–7 Likert): how the classes are read (the
//! scale toggle), the rating headline in scale points, the values at the slider's N and one panel
//! per rating metric — all from the core's `RatingReport`, what `annosat ratings` computes.

use crate::chart::figure;
use crate::chart::points::Panel;
use crate::state::St;
use annosat_core::ratings::{
    saturation, within, RatingCurves, RatingMetric, Scale, ScaleKind, DEFAULT_PRECISION,
    DEFAULT_RELIABILITY,
};
use leptos::prelude::*;

/// The panels, in the order shown (core's list, the CLI's saturation lines').
const PANELS: [RatingMetric; 4] = RatingMetric::SHOWN;

fn fmt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.3}"))
        .unwrap_or_else(|| "undefined".into())
}

/// "Classes read as: …" — numbered classes are a scale unless the user says otherwise; any
/// classes may be read as ordered as listed. A new choice computes again.
#[component]
pub fn ScaleToggle() -> impl IntoView {
    let st = expect_context::<St>();
    let classes = move || {
        st.summary.with(|s| {
            s.as_ref()
                .filter(|s| !s.multilabel)
                .map(|s| s.classes.clone())
        })
    };
    move || {
        classes().map(|classes| {
            let declared = st.declared_scale();
            let detected = Scale::detect(&classes);
            let auto = match (&detected, declared) {
                (Some(_), Some(ScaleKind::Nominal)) => {
                    "unordered classes (the dataset's numbers are codes, not a scale)".into()
                }
                (Some(s), _) => format!("a {} scale (the class names are numbers)", s.range()),
                (None, _) => "unordered classes (the class names are not numbers)".into(),
            };
            let ordered = format!(
                "ordered as listed: {} = 1 … {} = {}",
                classes.first().cloned().unwrap_or_default(),
                classes.last().cloned().unwrap_or_default(),
                classes.len()
            );
            let value = move || match st.ratings.read_as.get() {
                None => "auto",
                Some(ScaleKind::Ordinal) => "ordinal",
                Some(ScaleKind::Nominal) => "nominal",
                Some(ScaleKind::Interval) => "interval",
            };
            let change = move |ev| {
                let v = event_target_value(&ev);
                st.ratings.read_as.set(match v.as_str() {
                    "ordinal" => Some(ScaleKind::Ordinal),
                    "nominal" => Some(ScaleKind::Nominal),
                    "interval" => Some(ScaleKind::Interval),
                    _ => None,
                });
                st.compute();
            };
            // Numbers read as a scale by default can be read as unordered, and codes as numbers.
            let other = match (&detected, declared) {
                (Some(s), Some(ScaleKind::Nominal)) => Some(view! {
                    <option value="interval">{format!("a {} scale (the class names' numbers)", s.range())}</option>
                }.into_any()),
                (Some(_), _) => Some(view! { <option value="nominal">"unordered classes"</option> }.into_any()),
                (None, _) => None,
            };
            view! {
                <p class="scale-toggle">
                    <label>"Classes read as "
                        <select id="scale" prop:value=value on:change=change>
                            <option value="auto">{auto}</option>
                            <option value="ordinal">{ordered}</option>
                            {other}
                        </select>
                    </label>
                </p>
            }
        })
    }
}

/// The rating headline, the values at N, the CSV and the panels; nothing for unordered classes.
#[component]
pub fn RatingsView() -> impl IntoView {
    let st = expect_context::<St>();
    let shown = move || st.ratings.report.with(|r| r.is_some());
    view! {
        <Show when=shown>
            <RatingCard />
            <section class="charts rating-charts">
                {PANELS.into_iter().map(|m| view! { <RatingChart metric=m /> }).collect::<Vec<_>>()}
            </section>
            <h3 class="then">"The same votes as unordered classes"</h3>
        </Show>
    }
}

#[component]
fn RatingCard() -> impl IntoView {
    let st = expect_context::<St>();
    move || {
        st.ratings.report.get().map(|r| {
            let c = &r.curves;
            let what = match c.scale.kind {
                ScaleKind::Ordinal => format!("ranks {}", c.scale.range()),
                _ => format!("the {} scale", c.scale.range()),
            };
            let answers = r
                .answers
                .iter()
                .map(|a| {
                    let goal = serde_json::to_value(a.goal)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default();
                    view! {
                        <li data-goal=goal data-n=a.n.map(|n| n.to_string()).unwrap_or_default()>
                            {a.sentence.clone()}
                        </li>
                    }
                })
                .collect::<Vec<_>>();
            let csv = c.to_csv();
            let name = st.export_name("ratings", "csv");
            let download = move |_| crate::export::download_text(&csv, "text/csv", &name);
            let took = format!(
                "{} repeats per N, computed in {:.0} ms.",
                c.repeats,
                st.ratings.ms.get()
            );
            view! {
                <section class="card answer" id="rating-answer">
                    <h3>{format!("Ratings on {what}")}</h3>
                    <p>"In the scale's own points: how precisely N raters' mean rating stands for the item's, how reliable the N-rater mean is, whether N raters rank the items as all of them do, and how far N raters' spread of ratings is from all of theirs."</p>
                    <ul>{answers}</ul>
                    <Saturation />
                    <AtN />
                    <p class="small">
                        <button class="link" id="ratings-csv" on:click=download>"Rating curves as CSV"</button>
                        " · " {took}
                    </p>
                </section>
            }
        })
    }
}

/// Where each panel's curve captures x% of its improvement (the page's saturation share) and
/// where it reaches the headline's precision or reliability, as `annosat ratings` says them.
#[component]
fn Saturation() -> impl IntoView {
    let st = expect_context::<St>();
    let lines = move || {
        let x = st.x.get() as f64 / 100.0;
        st.ratings.report.with(|r| {
            r.as_ref().map(|r| {
                // The x% points, then the levels the headline reads (the CLI's defaults).
                let level = |m: RatingMetric| m.level(DEFAULT_PRECISION, DEFAULT_RELIABILITY);
                PANELS
                    .iter()
                    .map(|&m| ("saturation", saturation(&r.curves, m, x)))
                    .chain(PANELS.iter().map(|&m| ("within", within(&r.curves, m, level(m)))))
                    .map(|(kind, s)| {
                        view! { <li data-kind=kind data-metric=s.metric.name() data-bounded=s.bounded_by_votes.to_string()>{s.sentence}</li> }
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    view! { <ul id="rating-saturation">{lines}</ul> }
}

/// The rating metrics at the slider's N, one line.
#[component]
fn AtN() -> impl IntoView {
    let st = expect_context::<St>();
    let line = move || {
        let n = st.n.get();
        st.ratings.report.with(|r| {
            let c = &r.as_ref()?.curves;
            let g = c.grid.iter().position(|&x| x == n)?;
            let v = |m: RatingMetric| fmt(c.point(m, g).mean);
            // Two disjoint groups of N raters, where the curves drew 2N.
            let krr = c
                .krr_points()
                .into_iter()
                .find(|p| p.n == n)
                .map(|p| format!(" Two disjoint groups of {n} raters' means correlate at r = {} over {} items (kRR).", fmt(p.mean), p.items))
                .unwrap_or_default();
            Some(format!(
                "At N = {n} ({} items with that many ratings): mean-rating error {}, RMSE {} (closed form {:.3}), reliability {} (Spearman–Brown {}), rank correlation {}, Wasserstein {}.{krr}",
                c.items[g],
                v(RatingMetric::MeanError),
                v(RatingMetric::MeanRmse),
                c.expected_mse[g].sqrt(),
                v(RatingMetric::Reliability),
                fmt(c.spearman_brown(n)),
                v(RatingMetric::RankCorr),
                v(RatingMetric::Wasserstein),
            ))
        })
    };
    view! { <p id="rating-at-n">{line}</p> }
}

/// One metric's panel: mean over repeats, its 95% band (over items or over repeats, as the
/// nominal panels' toggle says), and for reliability the Spearman–Brown prediction beside it.
#[component]
fn RatingChart(metric: RatingMetric) -> impl IntoView {
    let st = expect_context::<St>();
    let file = move |ext: &str| st.export_name(metric.name(), ext);
    let panel = move || {
        let items = st.target.item_band.get();
        st.ratings
            .report
            .with(|r| r.as_ref().map(|r| panel(&r.curves, metric, items)))
    };
    figure::points_figure(
        (metric.name(), metric.title()),
        (st.n, st.logx),
        file,
        panel,
    )
}

/// The band is over items where asked (`items`, the Target room's band toggle) and the metric
/// has one (the rank correlation has not), else over repeats.
fn panel(c: &RatingCurves, metric: RatingMetric, items: bool) -> Panel<'static> {
    let points = (0..c.grid.len())
        .filter_map(|g| {
            let p = c.point(metric, g);
            let mean = p.mean?;
            let (lo, hi) = match c.item_band(metric, g).filter(|_| items) {
                Some(b) => b,
                None => (p.lo.unwrap_or(mean), p.hi.unwrap_or(mean)),
            };
            Some((p.n, mean, lo, hi))
        })
        .collect();
    let beside = (metric == RatingMetric::Reliability).then(|| {
        let line = c
            .grid
            .iter()
            .filter(|&&n| n >= 2)
            .filter_map(|&n| Some((n, c.spearman_brown(n)?)))
            .collect();
        ("Spearman–Brown from ICC(1)", line)
    });
    Panel {
        title: metric.title(),
        points,
        x_max: c.grid.last().copied().unwrap_or(1),
        beside,
        point: None,
    }
}
