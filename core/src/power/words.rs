//! What the comparison says in words, for the CLI's stderr and the app's card alike: per metric,
//! what the file shows, the budget with the power asked for, and the best split per budget.

use super::report::{Budget, Observed, PowerReport};
use super::PowerMetric;

fn thousands(v: u64) -> String {
    crate::import::thousands(v as usize)
}

/// Everything the comparison says, tagged as the CLI prints it: per metric what the file shows
/// (`observed:`), the budget with the power asked for (`power:`), the best split per budget
/// (`split:`), and where the grid leaves the file (`note:`).
pub fn lines(r: &PowerReport) -> Vec<String> {
    let mut out = Vec::new();
    for o in &r.observed {
        out.push(format!("observed: {}", observed_line(o, r.config.alpha)));
    }
    for m in r.metrics() {
        out.push(format!("power: {}", reach_line(r, m)));
    }
    for m in r.metrics() {
        out.push(format!("split: {}", budget_line(r, m)));
    }
    for m in r.metrics() {
        if let Some(l) = wrong_way_line(r, m) {
            out.push(format!("wrong way: {l}"));
        }
    }
    if let Some(l) = past_file_line(r) {
        out.push(format!("note: {l}"));
    }
    out
}

/// "KL: B − A = −0.0123 (95% −0.0150 to −0.0096) on the file's 1,514 items, p = 0.0001: B is
/// better." or "… no detectable difference".
pub fn observed_line(o: &Observed, alpha: f64) -> String {
    if o.diff.is_nan() {
        return format!(
            "{}: not defined on this file (an entropy is the same on every item: a model that gives labels, or one vote per item)",
            o.metric.label()
        );
    }
    let verdict = if o.p.is_nan() {
        "not defined (a model's entropy is the same on every item)".to_string()
    } else if o.p < alpha {
        let b_better = (o.diff > 0.0) == o.metric.higher_is_better();
        format!(
            "p = {}: {} is better",
            fmt_p(o.p),
            if b_better { "B" } else { "A" }
        )
    } else {
        format!("p = {}: no detectable difference", fmt_p(o.p))
    };
    format!(
        "{}: B − A = {} (95% {} to {}) on the file's {} items with all their votes, {verdict}",
        o.metric.label(),
        sig(o.diff),
        sig(o.lo),
        sig(o.hi),
        thousands(o.items as u64),
    )
}

/// "80% power: 6,000 votes as 300 items × 20 votes" or "80% power: not within the grid (1,500
/// items × 50 votes)".
pub fn reach_line(r: &PowerReport, m: PowerMetric) -> String {
    let target = format!("{:.0}% power", r.config.power * 100.0);
    let found = r
        .reach
        .iter()
        .find(|x| x.metric == m)
        .and_then(|x| x.found.as_ref());
    match found {
        Some(b) => format!(
            "{}: {target} to see the file's difference with {} votes, as {}{}",
            m.label(),
            thousands(b.votes),
            split(b),
            past(r, b)
        ),
        None => format!(
            "{}: {target} is not reached within the grid ({} items × {} votes per item): no detectable difference at these budgets",
            m.label(),
            thousands(r.config.items.iter().max().copied().unwrap_or(0) as u64),
            r.config.n.iter().max().copied().unwrap_or(0)
        ),
    }
}

/// "at 10,000 votes: 500 items × 20 votes (power 0.74)".
pub fn budget_line(r: &PowerReport, m: PowerMetric) -> String {
    let parts: Vec<String> = r
        .budgets
        .iter()
        .filter(|b| b.metric == m)
        .map(|b| {
            format!(
                "{} votes → {} (power {:.2})",
                thousands(b.votes),
                split(b),
                b.power
            )
        })
        .collect();
    format!("{}: most power per budget: {}", m.label(), parts.join("; "))
}

/// Share of evaluations at or above which a column's wrong-way findings are said.
const WRONG_WAY: f64 = 0.2;

/// "total variation: with 1 or 2 votes per item, up to 100% of evaluations find A better — the
/// opposite of what all the votes show" where a column's evaluations often reject the wrong way.
pub fn wrong_way_line(r: &PowerReport, m: PowerMetric) -> Option<String> {
    let worst: Vec<(u32, f64)> = r
        .columns
        .iter()
        .filter_map(|c| {
            let w = c
                .cells
                .iter()
                .filter(|x| x.metric == m)
                .map(|x| x.wrong_sign)
                .fold(0.0, f64::max);
            (w >= WRONG_WAY).then_some((c.n, w))
        })
        .collect();
    if worst.is_empty() {
        return None;
    }
    let truth = r
        .reference
        .diffs
        .iter()
        .find(|d| d.0 == m)
        .map_or(0.0, |d| d.1);
    let b_better = (truth > 0.0) == m.higher_is_better();
    let ns: Vec<String> = worst.iter().map(|w| w.0.to_string()).collect();
    let ns = match ns.len() {
        1 => ns[0].clone(),
        _ => format!("{} or {}", ns[..ns.len() - 1].join(", "), ns[ns.len() - 1]),
    };
    let most = worst.iter().map(|w| w.1).fold(0.0, f64::max);
    Some(format!(
        "{}: with {ns} vote{} per item, up to {:.0}% of evaluations find {} better, the opposite of what {}",
        m.label(),
        if ns == "1" { "" } else { "s" },
        100.0 * most,
        if b_better { "A" } else { "B" },
        match r.reference.n {
            None => "all the votes show".to_string(),
            Some(n) => format!("{n} votes per item would show"),
        }
    ))
}

/// Where the grid leaves the file: repeated items, extrapolated votes.
pub fn past_file_line(r: &PowerReport) -> Option<String> {
    let mut out = Vec::new();
    if r.config.items.iter().any(|&i| i > r.file_items) {
        out.push(format!(
            "evaluations of more than the file's {} items repeat its items (drawn with replacement)",
            thousands(r.file_items as u64)
        ));
    }
    let ext: Vec<u32> = r
        .columns
        .iter()
        .filter(|c| c.extrapolated)
        .map(|c| c.n)
        .collect();
    if !ext.is_empty() {
        out.push(format!(
            "N = {} is past some items' votes (the fewest: {}): those votes come from the extrapolation's posterior, its uncertainty included, and power counts the direction of the expected difference at N = {} (docs/compare.md shows how far that can be trusted)",
            ext.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
            r.file_votes,
            r.reference.n.unwrap_or(r.file_votes)
        ));
    }
    (!out.is_empty()).then(|| out.join("; "))
}

fn split(b: &Budget) -> String {
    format!(
        "{} items × {} vote{}",
        thousands(b.items as u64),
        b.n,
        if b.n == 1 { "" } else { "s" }
    )
}

fn past(r: &PowerReport, b: &Budget) -> String {
    let ext = r.columns.iter().any(|c| c.n == b.n && c.extrapolated);
    match (b.items > r.file_items, ext) {
        (false, false) => String::new(),
        (true, false) => " (more items than the file has: repeated items)".into(),
        (false, true) => " (more votes than some items have: extrapolated)".into(),
        (true, true) => " (more items and votes than the file has: repeated, extrapolated)".into(),
    }
}

fn fmt_p(p: f64) -> String {
    if p < 1e-4 {
        "< 0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// Three significant digits.
pub fn sig(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let d = (2 - libm::floor(libm::log10(x.abs())) as i32).max(0) as usize;
    format!("{x:.d$}")
}
