#!/usr/bin/env python3
"""Item-only against crossed (items and annotators) intervals on real files with annotator ids:
`annosat curves --votes annotations.csv --resample items|crossed --format json` per set, the 90%
point's interval from each, and how much wider the crossed one is.

  scripts/crossed_check.py ANNOSAT_BIN DATA_DIR [--tests FILE] [--docs FILE]   (scripts/crossed-check.sh)
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
    if "--docs" in opts:
        sys.path.insert(0, "scripts")
        from bench_readme import write_block
        write_block(opts["--docs"], "crossed", lines)


if __name__ == "__main__":
    main()
