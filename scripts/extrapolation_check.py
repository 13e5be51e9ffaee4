#!/usr/bin/env python3
"""How far `annosat extrapolate` can be trusted, on data that have the votes; and the
identification margins calibrated from that (core/src/extrapolate/identification.rs).

Each dense dataset (ChaosNLI SNLI, MNLI and αNLI: 100 votes per item; KonIQ-10k: 93 or more, when
present; CIFAR-10H: 47 or more; Pavlick & Kwiatkowski's NLI: 40 or more) is cut to M = 3, 5, 10,
20 and 40 votes per item (those below its own count) with 5 seeds, extrapolated back to the votes
it has and compared with its own 90% points (`annosat extrapolate --check`).

  --calibrate FILE  writes the margins (per metric and M: a prediction interval of the ratio real
                    point / extrapolated point for one more set like these) as Rust into FILE
  --points FILE     reads the points of a saved run (the JSON a run leaves beside the build)
                    instead of running the checks
  --docs FILE       writes the check table into FILE between <!-- extrapolation:begin/end -->
                    (with --calibrate in the same run, the table shows the intervals the new
                    margins give, computed here as identification::widen does)

  scripts/extrapolation_check.py ANNOSAT_BIN DATA_DIR [--calibrate FILE] [--docs FILE]
"""
import json
import math
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# (set, path under the data directory (or beside it), votes every checked item is cut to: M')
SETS = [
    ("chaosnli_snli", "chaosnli_snli", 100),
    ("chaosnli_mnli", "chaosnli_mnli", 100),
    ("chaosnli_alphanli", "chaosnli_alphanli", 100),
    ("koniq10k", "koniq10k", 93),
    ("cifar10h", "cifar10h", 47),
    ("pavlick2019_nli", "pavlick2019_nli", 40),
]
MS = [3, 5, 10, 20, 40]
SEEDS = 5
REPEATS = "20"
METRICS = ["kl", "jsd", "entropy_corr", "majority_agreement"]
# t(0.975, df) for the prediction interval over sets.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
RUST_NAME = {"kl": "Kl", "jsd": "Jsd", "entropy_corr": "EntropyCorr", "majority_agreement": "MajorityAgreement"}


def votes_file(data, path):
    """The set's votes: in the data directory, or beside it under incoming/ (data an issue brings)."""
    for d in (data, os.path.join(data, "..", "incoming")):
        f = os.path.join(d, path, "votes.csv")
        if os.path.exists(f):
            return f
    return None


def check(binary, name, votes, ref):
    args = [binary, "extrapolate", "--votes", votes, "--reference-votes", str(ref), "--check",
            ",".join(str(m) for m in MS if m < ref), "--check-seeds", str(SEEDS), "--n", "2", "--repeats", REPEATS,
            "--format", "json"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return name, ref, json.loads(out)["points"]


def margin(ratios_by_set):
    """Prediction interval of log(real / extrapolated) for one more set: per set the mean, then
    mean ± t(0.975, S − 1)·√((1 + 1/S)·between² + within²); returned as ratios (lo ≤ 1 ≤ hi)."""
    sets = [v for v in ratios_by_set.values() if v]
    if len(sets) < 2:
        return None
    logs = [[math.log(r) for r in v] for v in sets]
    means = [statistics.fmean(v) for v in logs]
    s = len(means)
    centre = statistics.fmean(means)
    between = statistics.variance(means)
    resid = [x - m for v, m in zip(logs, means) for x in v]
    dof = sum(len(v) - 1 for v in logs)
    within = sum(r * r for r in resid) / dof if dof > 0 else 0.0
    half = T975[min(s - 1, 10)] * math.sqrt((1 + 1 / s) * between + within)
    return min(1.0, math.exp(centre - half)), max(1.0, math.exp(centre + half))


def widened(p, m, grid_end):
    """The product's interval as identification::widen computes it (None ends stay open, and so
    does an end past the curves' last N)."""
    lo, hi = p["items_lo"], p["items_hi"]
    point = p["extrapolated"]
    if point is None or m is None:
        return lo, hi
    down = max(1, math.floor(point * m[0]))
    up = math.ceil(point * m[1])
    lo = min(down if lo is None else min(lo, down), point)
    hi = None if hi is None or up > grid_end else max(hi, up, point)
    return lo, hi


def holds(actual, lo, hi):
    return lo is not None and lo <= actual and (hi is None or actual <= hi)


def ratios(points, metric, m, leave_out=None):
    by_set = {}
    for name, _, p in points:
        if p["metric"] == metric and p["m"] == m and name != leave_out and p["actual"] and p["extrapolated"]:
            by_set.setdefault(name, []).append(p["actual"] / p["extrapolated"])
    return by_set


def calibrate(points, classes):
    """Margins per (metric, M), with the checks held when each set is left out of its margin. A
    left-out set with more classes than every other set is out of the range the rest calibrate:
    the product gives no number there (identification::MAX_CLASSES), counted in `beyond`."""
    rows = []
    names = sorted({n for n, _, _ in points})
    for m in MS:
        for metric in ["jsd", "entropy_corr", "kl", "majority_agreement"]:
            mg = margin(ratios(points, metric, m))
            checks = held = beyond = held_all = 0
            for name in names:
                out = margin(ratios(points, metric, m, leave_out=name))
                unchecked = classes[name] > max(k for n, k in classes.items() if n != name and n in names)
                for n, ref, p in points:
                    if n == name and p["metric"] == metric and p["m"] == m and p["actual"] is not None:
                        checks += 1
                        beyond += unchecked
                        inside = holds(p["actual"], *widened(p, out, ref))
                        held += unchecked or inside
                        held_all += inside
            sets = len(ratios(points, metric, m))
            rows.append((metric, m, mg or (1.0, 1.0), checks, sets, held, beyond, held_all))
    return rows


def write_rust(path, rows, max_classes):
    lines = ["//! Written by `scripts/extrapolation-check.sh --calibrate` from its run; do not edit by hand.",
             "//! The identification margins ([`super::identification`]) per metric and vote count.", "",
             "use super::margin::Margin;", "use crate::curves::Metric;", "",
             "/// The most classes a calibration set had: data with more get no extrapolated number.",
             f"pub const MAX_CLASSES: usize = {max_classes};", "",
             "#[rustfmt::skip]", "pub const CALIBRATION: &[Margin] = &["]
    for metric, m, (lo, hi), checks, sets, held, beyond, _ in rows:
        lines.append(f"    Margin {{ metric: Metric::{RUST_NAME[metric]}, votes: {m}, lo: {lo:.4f}, hi: {hi:.4f}, "
                     f"checks: {checks}, sets: {sets}, held_out_checks: {checks - beyond}, "
                     f"held_out_covered: {held - beyond} }},")
    lines.append("];")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def rewiden(points, rows):
    """Each point's interval and verdict as the margins of `rows` give them (what the binary
    built from those margins prints)."""
    by = {(metric, m): mg for metric, m, mg, *_ in rows}
    for _, ref, p in points:
        p["lo"], p["hi"] = widened(p, by.get((p["metric"], p["m"])), ref)
        if p["actual"] is not None and p["extrapolated"] is not None:
            p["contained"] = holds(p["actual"], p["lo"], p["hi"])


def report(points, rows, command):
    fmt = lambda v: "–" if v is None else str(v)
    out = [f"Written by `{command}` from its run (per set: `annosat extrapolate --votes F --reference-votes M' "
           f"--check {','.join(map(str, MS))} --check-seeds {SEEDS} --repeats {REPEATS} --format json`). "
           "Each check cuts the items to M votes, extrapolates back to the M' votes they have and compares "
           "the 90% point with the one the M' votes give. *Held*: checks whose interval contains the real "
           "point — with the item bootstrap alone, with the product's interval (bootstrap joined with the "
           "margin), and with the margin recomputed without the checked set (what to expect on data nobody "
           "tuned to; a set with more classes than every other set gets no number there, as the product gives none "
           "beyond the calibrated classes, and is counted apart; the next column gives it a number anyway). Half-widths are in percent of the point; an open "
           "upper end counts as M'.", "",
           "| metric | M | checks | held: items only | held: with the margin | held: margin without the set | "
           "… and a number for every set | mean error of the point | median half-width | margin (ratio) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for metric, m, (lo, hi), checks, sets, held, beyond, held_all in rows:
        refs = [(ref, p) for _, ref, p in points if p["metric"] == metric and p["m"] == m and p["actual"] is not None]
        ps = [p for _, p in refs]
        raw = sum(holds(p["actual"], p["items_lo"], p["items_hi"]) for p in ps)
        prod = sum(bool(p["contained"]) for p in ps)
        if not ps:
            continue
        errs = [100 * (p["extrapolated"] - p["actual"]) / p["actual"] for p in ps if p["extrapolated"]]
        # An open upper end ("more than M'") counts as M'.
        widths = [100 * ((ref if p["hi"] is None else p["hi"]) - p["lo"]) / 2 / p["extrapolated"]
                  for ref, p in refs if p["extrapolated"] and p["lo"] is not None]
        width = f"±{statistics.median(widths):.0f}%" if widths else "–"
        note = f"; {beyond} without a number" if beyond else ""
        out.append(f"| {metric} | {m} | {len(ps)} | {raw} | {prod} ({100 * prod / max(len(ps), 1):.0f}%) | "
                   f"{held} ({100 * held / max(checks, 1):.0f}%{note}) | {held_all} ({100 * held_all / max(checks, 1):.0f}%) | "
                   f"{statistics.fmean(errs):+.1f}% | {width} | "
                   f"{lo:.2f}–{hi:.2f} |")
    out += ["", "Per set and cut: the point the M' votes give, and the extrapolated point with its interval "
            "(✓ where it holds the real one).", "",
            "| set | metric | M | with M' votes | " + " | ".join(f"seed {i + 1}" for i in range(SEEDS)) + " |",
            "|---|---|---|---|" + "---|" * SEEDS]
    groups = {}
    for name, ref, p in points:
        groups.setdefault((name, ref, p["metric"], p["m"]), []).append(p)
    for (name, ref, metric, m), ps in groups.items():
        ps.sort(key=lambda p: p["seed"])
        span = lambda p: f"{fmt(p['lo'])}–{p['hi']}" if p["hi"] is not None else f"{fmt(p['lo'])} or more"
        cells = [f"{fmt(p['extrapolated'])} ({span(p)})"
                 + {True: " ✓", False: " ✗", None: ""}[p["contained"]] for p in ps]
        out.append(f"| {name} (M' = {ref}) | {metric} | {m} | {fmt(ps[0]['actual'])} | " + " | ".join(cells) + " |")
    return out


def main():
    binary, data = sys.argv[1], sys.argv[2]
    opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    sets = [(n, votes_file(data, p), ref) for n, p, ref in SETS]
    missing = [n for n, f, _ in sets if f is None]
    if missing:
        print(f"extrapolation-check: not found, left out: {', '.join(missing)}", file=sys.stderr)
    saved = os.path.join(os.environ.get("CARGO_TARGET_DIR", "/tmp"), "extrapolation-check.json")
    if "--points" in opts:
        # A saved run's points (the tables and margins again, without the hour of checks).
        points = [tuple(p) for p in json.load(open(opts["--points"]))]
    else:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            done = list(pool.map(lambda s: check(binary, *s), [s for s in sets if s[1]]))
        points = [(name, ref, p) for name, ref, ps in done for p in ps]
        with open(saved, "w") as f:
            json.dump(points, f)
        print(f"extrapolation-check: the checks' points are in {saved}", file=sys.stderr)
    classes = {n: len(open(f).readline().strip().split(",")) - 1 for n, f, _ in sets if f}
    rows = calibrate(points, classes)
    used = {n for n, _, _ in points}
    if "--calibrate" in opts:
        write_rust(opts["--calibrate"], rows, max(k for n, k in classes.items() if n in used))
        rewiden(points, rows)
    else:
        # The table shows the binary's intervals: its margins must be the ones this run measures.
        import re
        built = re.findall(r"metric: Metric::(\w+), votes: (\d+), lo: ([\d.]+), hi: ([\d.]+)",
                           open("core/src/extrapolate/calibration.rs").read())
        want = {(RUST_NAME[m], str(v)): (f"{lo:.4f}", f"{hi:.4f}") for m, v, (lo, hi), *_ in rows}
        stale = [b for b in built if want.get((b[0], b[1])) != (b[2], b[3])]
        if stale or len(built) != len(want):
            sys.exit(f"extrapolation-check: core/src/extrapolate/calibration.rs differs from this run's margins "
                     f"({len(stale)} rows); run scripts/extrapolation-check.sh --calibrate and rebuild first")
    command = "scripts/extrapolation-check.sh" + "".join(f" {o}" for o in ("--calibrate", "--docs") if o in opts)
    text = "\n".join(report(points, rows, command))
    print(text)
    if "--docs" in opts:
        sys.path.insert(0, "scripts")
        from bench_readme import write_block
        write_block(opts["--docs"], "extrapolation", [text])


if __name__ == "__main__":
    main()
