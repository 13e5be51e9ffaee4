#!/usr/bin/env python3
"""The generated part of docs/ratings.md: `annosat ratings` and `annosat agree --level interval` on
the rating sets (POPQUORN, KonIQ-10k where present), a table per set and the sentences that read
it — every number from this run, with the command that reruns it.

  python3 scripts/ratings_docs.py BIN DATA docs/ratings.md   (scripts/ratings-docs.sh runs it)
"""
import csv
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


def rows_of(votes):
    with open(votes, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))[1:]


def run_min_votes(votes):
    return min(sum(int(x) for x in r[1:]) for r in rows_of(votes))


def sb_at(icc, k):
    """The Spearman–Brown prediction at k raters from the single-rater ICC."""
    return None if icc is None else k * icc / (1 + (k - 1) * icc)


def f(v, d=3):
    return "—" if v is None else f"{v:.{d}f}"


def section(bin_, name, title, votes):
    ns = ",".join(map(str, NS))
    budget = 10 * len(rows_of(votes))
    r = run(bin_, "ratings", "--votes", votes, "--n", ns, "--repeats", str(REPEATS), "--budget", str(budget),
            "--format", "json")
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
    # smallest whose mean is reliable at 0.9 — or why the grid does not reach them. As for the
    # nominal curves, a point past a fifth of the fewest ratings an item has is forced by the
    # ratings there are (at N = M the sample is all of them), so it is said as bounded, not read.
    fewest = run_min_votes(votes)
    def first(metric, ok):
        return next((n for n in r["grid"] if m[metric][n]["mean"] is not None
                     and ok(m[metric][n]["mean"])), None)
    def say(n, what, never):
        if n is None:
            return never
        if n > fewest / 5:
            return (f"{what} only from N = {n}, past a fifth of the fewest ratings an item has ({fewest}): "
                    "bounded by the ratings there are, not an answer")
        return f"{what} from N = {n}"
    last = r["grid"][-1]
    within = say(first("mean_error", lambda v: v <= 0.1), "the mean rating is within ±0.1 points on average",
                 f"no N up to {last} brings the mean within ±0.1 points on average")
    reliable = say(first("reliability", lambda v: v >= 0.9), "the N-rater mean is reliable at 0.9",
                   f"the N-rater mean stays below reliability 0.9 up to N = {last}")
    names = {"gwet_ac1": "Gwet's AC1", "gwet_ac2_ordinal": "AC2 ordinal", "gwet_ac2_linear": "AC2 linear",
             "gwet_ac2_quadratic": "AC2 quadratic"}
    krr = [p for p in r["metrics"]["krr"] if p["mean"] is not None]
    if krr:
        lines.append("kRR, two disjoint groups of k raters' mean ratings correlated over the items (Spearman–Brown at k "
                     "in brackets): " + "; ".join(
                         f"k = {p['n']}: {f(p['mean'])} ({f(sb_at(r['icc1'], p['n']))})"
                         for p in krr) + ".")
        lines.append("")
    lines.append("Headline (`annosat ratings`, 95% intervals over 200 item resamples):")
    lines.append("")
    lines += [f"- {x['sentence']}" for x in r["answers"]]
    lines.append("")
    lines.append(f"Budget (`--budget {budget}`, 10 ratings for each of its items): {r['budget']['sentence']}")
    lines.append("")
    lines.append(f"Read off the measured curves: on this set {within}; {reliable} (single-rater ICC(1) {f(r['icc1'])}). "
                 f"Of all the ratings: Krippendorff's α (interval) {f(a['full'])}, "
                 + ", ".join(f"{names[g['metric']]} {f(g['full'])}" for g in a["gwet"]) + ".")
    return lines


def main():
    bin_, data, doc = sys.argv[1:4]
    truth = open(sys.argv[4], encoding="utf-8").read().strip().splitlines() if len(sys.argv) > 4 else []
    lines = []
    if truth:
        lines += ["Checked against a known answer (`cargo test -p annosat-core --test rating_answers -- "
                  "--nocapture`, this run):", ""] + [f"- {t.strip()}" for t in truth] + [""]
    for name, title in SETS:
        votes = votes_of(data, name)
        if votes is None:
            lines += [f"({name}: not at hand in this run.)", ""]
            continue
        lines += section(bin_, name, title, votes) + [""]
    write_block(doc, "ratings-example", lines)


if __name__ == "__main__":
    main()
