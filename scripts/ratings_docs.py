#!/usr/bin/env python3
"""The generated part of docs/ratings.md: `annosat ratings` and `annosat agree --level interval` on
the rating sets (POPQUORN, KonIQ-10k where present), a table per set and the sentences that read
it — every number from this run, with the command that reruns it.

  python3 scripts/ratings_docs.py BIN DATA docs/ratings.md   (scripts/ratings-docs.sh runs it)
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from bench_readme import write_block  # noqa: E402

SETS = [("popquorn_offensiveness", "POPQUORN offensiveness (1–5, 5–10 raters per item)"),
        ("koniq10k", "KonIQ-10k image quality (1–5, 93–157 raters per image)")]
NS = [1, 2, 3, 5, 10, 20, 50]
REPEATS = 50


def votes_of(data, name):
    for root in [data, os.path.join(os.path.dirname(__file__), "..", "..", "shared", "incoming")]:
        p = os.path.join(root, name, "votes.csv")
        if os.path.exists(p):
            return p
    return None


def run(bin_, *args):
    return json.loads(subprocess.run([bin_, *args], check=True, capture_output=True, text=True).stdout)


def f(v, d=3):
    return "—" if v is None else f"{v:.{d}f}"


def section(bin_, name, title, votes):
    ns = ",".join(map(str, NS))
    r = run(bin_, "ratings", "--votes", votes, "--n", ns, "--repeats", str(REPEATS), "--format", "json")
    a = run(bin_, "agree", "--votes", votes, "--level", "interval", "--n", "2", "--repeats", "1",
            "--format", "json")
    m = {k: {p["n"]: p for p in v} for k, v in r["metrics"].items()}
    rmse_cf = dict(zip(r["grid"], r["expected_rmse"]))
    sb = dict(zip(r["grid"], r["spearman_brown"]))
    lines = [f"**{title}** — `annosat ratings --votes {name}/votes.csv --n {ns} --repeats {REPEATS}`",
             "",
             "| N | mean error | RMSE (closed form) | reliability (Spearman–Brown) | rank correlation | Wasserstein |",
             "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for n in r["grid"]:
        lines.append(f"| {n} | {f(m['mean_error'][n]['mean'])} | {f(m['mean_rmse'][n]['mean'])} "
                     f"({f(rmse_cf[n])}) | {f(m['reliability'][n]['mean'])} ({f(sb[n])}) | "
                     f"{f(m['rank_corr'][n]['mean'])} | {f(m['wasserstein'][n]['mean'])} |")
    lines.append("")
    # Sentences read off the table: the smallest N within ±0.1 points on average, and the
    # smallest whose mean is reliable at 0.9 — or why the grid does not reach them.
    within = next((n for n in r["grid"] if (m["mean_error"][n]["mean"] or 9) <= 0.1), None)
    reliable = next((n for n in r["grid"] if (m["reliability"][n]["mean"] or 0) >= 0.9), None)
    last = r["grid"][-1]
    said = []
    said.append(f"the mean rating is within ±0.1 points on average from N = {within}" if within
                else f"no N up to {last} brings the mean within ±0.1 points on average")
    said.append(f"the N-rater mean reaches reliability 0.9 at N = {reliable}" if reliable
                else f"the N-rater mean stays below reliability 0.9 up to N = {last}")
    lines.append(f"Read: on this set {said[0]}, and {said[1]} (single-rater ICC(1) "
                 f"{f(r['icc1'])}). Of all the ratings: Krippendorff's α (interval) {f(a['full'])}, "
                 + ", ".join(f"{g['metric']} {f(g['full'])}" for g in a["gwet"]) + ".")
    return lines


def main():
    bin_, data, doc = sys.argv[1:4]
    lines = []
    for name, title in SETS:
        votes = votes_of(data, name)
        if votes is None:
            lines += [f"({name}: not at hand in this run.)", ""]
            continue
        lines += section(bin_, name, title, votes) + [""]
    write_block(doc, "ratings-example", lines)


if __name__ == "__main__":
    main()
