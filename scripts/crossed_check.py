#!/usr/bin/env python3
"""Item-only against crossed (items and annotators) intervals on real files with annotator ids:
`annosat curves --votes annotations.csv --resample items|crossed --format json` per set, the 90%
point's interval from each, and how much wider the crossed one is; with --worth-docs the same for
`annosat worth` (the set's expert gold label measured in its crowd) and `annosat annotators`.

  scripts/crossed_check.py ANNOSAT_BIN DATA_DIR [--tests FILE] [--docs FILE]
                           [--worth-tests FILE] [--worth-docs FILE]      (scripts/crossed-check.sh)
"""
import json
import os
import subprocess
import sys

SETS = ["snow2008_rte", "sentiment_popularity_amt", "gal_adultcontent2"]
METRICS = ["kl", "jsd", "entropy_corr", "majority_agreement"]


def run(binary, path, how):
    out = subprocess.run([binary, "curves", "--votes", path, "--resample", how, "--no-extrapolate",
                          "--format", "json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def cli(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def fmt_nu(w):
    """ν [lo, hi] as `annosat worth` words it, from its JSON."""
    if w["nu"] is None:
        return {"below": "below the curve", "above": "above the pool"}.get(w["bound"] or "", "undefined")
    lo = f"{w['lo']:.2f}" if w["lo"] is not None else "<1"
    hi = f"{w['hi']:.2f}" if w["hi"] is not None else "> pool"
    return f"{w['nu']:.2f} [{lo}, {hi}]"


def worth_lines(binary, data, tests):
    lines = []
    if tests:
        lines += ["`cargo test -p annosat-core --test crossed_worth -- --nocapture` (synthetic crowds of 12 "
                  "annotators with their own confusion matrices; an expert source; population ν from 20,000 "
                  "items and 2,000 annotators):", "", "```text", *tests, "```", ""]
    lines += ["Written by `scripts/crossed-check.sh --docs` from its run: `annosat worth --votes annotations.csv "
              "--source gold.csv --resample items|crossed --format json` (the set's expert gold label measured in "
              "its crowd; 3 reference splits × 200 item resamples) and `annosat annotators --votes annotations.csv "
              "--resample items|crossed --format json`.", "",
              "| set | metric | ν [items and splits] | ν [items, splits and annotators] |", "|---|---|---|---|"]
    ranks = []
    for name in SETS:
        path, gold = os.path.join(data, name, "annotations.csv"), os.path.join(data, name, "gold.csv")
        if not (os.path.exists(path) and os.path.exists(gold)):
            continue
        a, b = (json.loads(cli(binary, "worth", "--votes", path, "--source", gold, "--resample", how,
                               "--format", "json")) for how in ("items", "crossed"))
        for m in ["jsd", "kl", "majority_agreement", "squared_error"]:
            lines.append(f"| {name} | {m} | {fmt_nu(a['worth'][m])} | {fmt_nu(b['worth'][m])} |")
        ra, rb = (json.loads(cli(binary, "annotators", "--votes", path, "--resample", how, "--format", "json"))
                  for how in ("items", "crossed"))
        assert rb["over_annotators"] and not ra["over_annotators"]
        below = lambda r: sum(row["below_one"] for row in r["rows"])
        ranks.append(f"| {name} | {len(ra['rows'])} | {ra['unranked']} | {below(ra)} | {below(rb)} |")
    lines += ["", "The annotator ranking: annotators flagged below one typical annotator (their JS-distance "
              "ν's interval wholly under 1).", "",
              "| set | ranked | not ranked (< 20 items) | below one, items and splits | below one, crossed |",
              "|---|---|---|---|---|", *ranks]
    return lines


def span(s):
    it = s["items"] or {}
    return it.get("lo_n"), it.get("hi_n"), it.get("lo"), it.get("hi")


def main():
    binary, data = sys.argv[1], sys.argv[2]
    opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    tests = open(opts["--tests"]).read().strip().splitlines() if "--tests" in opts else []
    lines = []
    if tests:
        lines += ["`cargo test -p annosat-core --test crossed -- --nocapture` (synthetic crowds, 12 annotators "
                  "with their own confusion matrices; population point from 100,000 items and 2,000 annotators):",
                  "", "```text", *tests, "```", ""]
    lines += [f"Written by `scripts/crossed-check.sh{' --docs' if '--docs' in opts else ''}` from its run: "
             "`annosat curves --votes annotations.csv --resample items|crossed --no-extrapolate --format json` "
             "(200 item resamples). The 90% point of each metric with its 95% interval over the items alone and "
             "over items and annotators; *wider*: the crossed interval's width over the item-only one's "
             "(continuous crossings).", "",
             "| set | annotators | metric | 90% point | items only | crossed | wider |", "|---|---|---|---|---|---|---|"]
    for name in SETS:
        path = os.path.join(data, name, "annotations.csv")
        if not os.path.exists(path):
            print(f"crossed-check: {name} has no annotations.csv, left out", file=sys.stderr)
            continue
        annotators = len({l.split(",")[1] for l in open(path).read().splitlines()[1:] if l})
        items, crossed = run(binary, path, "items"), run(binary, path, "crossed")
        assert crossed["bootstrap"]["over"] == "items and annotators"
        for m in METRICS:
            a, b = span(items["saturation"][m]), span(crossed["saturation"][m])
            n = items["saturation"][m]["n"]
            fmt = lambda s: f"{s[2]}–{s[3] if s[3] is not None else 'more'}"
            ratio = "–"
            if None not in (a[0], a[1], b[0], b[1]) and a[1] > a[0]:
                ratio = f"{(b[1] - b[0]) / (a[1] - a[0]):.2f}×"
            lines.append(f"| {name} | {annotators} | {m} | {n} | {fmt(a)} | {fmt(b)} | {ratio} |")
    print("\n".join(lines))
    sys.path.insert(0, "scripts")
    from bench_readme import write_block
    if "--docs" in opts:
        write_block(opts["--docs"], "crossed", lines)
    if "--worth-docs" in opts:
        wtests = open(opts["--worth-tests"]).read().strip().splitlines() if "--worth-tests" in opts else []
        wl = worth_lines(binary, data, wtests)
        print("\n".join(wl))
        write_block(opts["--worth-docs"], "worth-crossed", wl)


if __name__ == "__main__":
    main()
