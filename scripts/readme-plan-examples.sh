#!/usr/bin/env bash
# readme-plan-examples.sh - rewrites docs/plan.md's `annosat agree`, `annosat adaptive` and
# `annosat plan` blocks from runs of the CLI, so the numbers there are this run's:
#   agree:    α and majority vote vs N on ChaosNLI-SNLI (counts), Dawid–Skene on RTE (Snow et al.
#             2008, annotator ids), and α of PopQuorn's 1–5 ratings at each level;
#   adaptive: the three allocation policies on ChaosNLI-SNLI (100 votes per item) and RTE (10);
#   plan:     the budget planner on ChaosNLI-SNLI's committed head features (needs the CLI with
#             candle, the default build).
#   scripts/readme-plan-examples.sh    (needs the CLI: cargo build --profile native -p annosat-trainer)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
bin="$CARGO_TARGET_DIR/native/annosat"
data="$(bash scripts/fetch-data.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
snli="$data/chaosnli_snli/votes.csv"
rte="$data/snow2008_rte/annotations.csv"
pq="$data/popquorn_offensiveness/votes.csv"
"$bin" agree --votes "$snli" --n 2,5,10,20,50,100 >"$tmp/snli.csv" 2>"$tmp/snli.log"
"$bin" agree --votes "$rte" --n 1,3,5,7,10 --format json >"$tmp/rte.json" 2>"$tmp/rte.log"
"$bin" agree --votes "$rte" --n 1,3,5,7,10 >"$tmp/rte.csv" 2>/dev/null
for level in nominal ordinal interval; do
  "$bin" agree --votes "$pq" --n 2 --repeats 1 --level "$level" --format json >"$tmp/pq-$level.json" 2>/dev/null
done
python3 - "$tmp" "$rte" >"$tmp/block.md" <<'PY'
import csv, json, sys
tmp = sys.argv[1]
with open(sys.argv[2], newline="", encoding="utf-8-sig") as f:
    rows = list(csv.reader(f))[1:]
n_items, n_ann = len({r[0] for r in rows}), len({r[1] for r in rows})
read = lambda name: open(f"{tmp}/{name}").read().strip()
rte = json.load(open(f"{tmp}/rte.json"))
pts = {(p["n"], p["metric"]): p for p in rte["points"]}
pct = lambda p: f"{100 * p['mean']:.1f}% ({100 * p['lo']:.1f}–{100 * p['hi']:.1f}%)"
print("On ChaosNLI-SNLI (`annosat agree --votes …/chaosnli_snli/votes.csv --n 2,5,10,20,50,100`; counts")
print("only, so majority vote but no Dawid–Skene):\n")
print("```\n" + read("snli.csv") + "\n```\n")
print(f"On RTE (Snow et al. 2008: {n_items:,} items, {len(rows):,} votes from {n_ann:,} annotators; `annosat agree --votes")
print("…/snow2008_rte/annotations.csv --n 1,3,5,7,10`), whose annotator ids let Dawid–Skene run:\n")
print("```\n" + read("rte.csv") + "\n" + read("rte.log") + "\n```\n")
mv3, ds3 = pts[(3, "majority_match")], pts[(3, "dawid_skene_match")]
mv5, ds5 = pts[(5, "majority_match")], pts[(5, "dawid_skene_match")]
print(f"With 3 of the 10 votes, majority vote gives {pct(mv3)} of RTE's items the label all 10 give it,")
print(f"Dawid–Skene {pct(ds3)}; with 5 votes {pct(mv5)} and {pct(ds5)}.")
levels = {l: json.load(open(f"{tmp}/pq-{l}.json"))["full"] for l in ("nominal", "ordinal", "interval")}
print(f"α of PopQuorn's 1–5 offensiveness ratings (all votes, `--level …`): nominal {levels['nominal']:.4f},")
print(f"ordinal {levels['ordinal']:.4f}, interval {levels['interval']:.4f} — near-misses on an ordered scale count as")
print("partial agreement at the ordered levels.")
PY
python3 scripts/bench_readme.py --block agree "$tmp/block.md" docs/plan.md
echo "docs/plan.md's agree block rewritten"

# --- annosat adaptive ---
"$bin" adaptive --votes "$snli" --n 4,6,10,20 >"$tmp/ad-snli.csv" 2>"$tmp/ad-snli.log"
"$bin" adaptive --votes "$rte" --n 4,5,6,8 >"$tmp/ad-rte.csv" 2>"$tmp/ad-rte.log"
python3 - "$tmp" >"$tmp/adaptive.md" <<'PY'
import csv, sys
tmp = sys.argv[1]
def table(name):
    rows = list(csv.DictReader(open(f"{tmp}/ad-{name}.csv")))
    out = ["| budget | metric | uniform | disagreement − uniform | entropy variance − uniform |", "|---|---|---|---|---|"]
    get = {(r["budget"], r["policy"], r["metric"]): r for r in rows}
    f = lambda x: f"{float(x):+.4f}"
    for b in dict.fromkeys(r["budget"] for r in rows):
        for m in ("kl", "jsd", "entropy_corr", "majority_agreement"):
            u = get[(b, "uniform", m)]
            cells = [f"{float(u['mean']):.4f}"]
            for p in ("disagreement", "entropy_variance"):
                d = get[(b, p, m)]
                cells.append(f"{f(d['diff_mean'])} ({f(d['diff_lo'])} to {f(d['diff_hi'])})")
            out.append(f"| {b} | `{m}` | " + " | ".join(cells) + " |")
    return "\n".join(out)
for name, title, cmd in (
    ("snli", "ChaosNLI-SNLI (100 votes per item)", "chaosnli_snli/votes.csv --budgets 4,6,10,20"),
    ("rte", "RTE (10 votes per item)", "snow2008_rte/annotations.csv --budgets 4,5,6,8"),
):
    print(f"**{title}**, `annosat adaptive --votes …/{cmd}` (n0 = 3, 20 simulations; paired differences, 95% intervals):\n")
    print(table(name) + "\n")
    print("```\n" + open(f"{tmp}/ad-{name}.log").read().strip() + "\n```\n")
PY
python3 scripts/bench_readme.py --block adaptive "$tmp/adaptive.md" docs/plan.md
echo "docs/plan.md's adaptive block rewritten"

# --- annosat plan ---
feats=public/models/chaosnli_snli/features.safetensors
"$bin" plan --votes "$snli" --head-features "$feats" >"$tmp/plan.csv" 2>"$tmp/plan.log"
python3 - "$tmp" >"$tmp/plan.md" <<'PY'
import csv, sys
tmp = sys.argv[1]
rows = list(csv.DictReader(open(f"{tmp}/plan.csv")))
budgets = list(dict.fromkeys(r["budget"] for r in rows))
print("`annosat plan --votes …/chaosnli_snli/votes.csv --head-features public/models/chaosnli_snli/features.safetensors`")
print("(budgets 1, 3 and 10 times the training items; 5 model seeds; test-set means, in brackets the")
print("lowest and highest over seeds):\n")
print("| budget | items × N | KL | entropy corr. | accuracy |")
print("|---|---|---|---|---|")
get = {(r["budget"], r["items"], r["n"], r["metric"]): r for r in rows}
for b in budgets:
    for (bb, i, n) in dict.fromkeys((r["budget"], r["items"], r["n"]) for r in rows if r["budget"] == b):
        cell = lambda m, d: f"{float(get[(bb, i, n, m)]['mean']):.{d}f} ({float(get[(bb, i, n, m)]['lo']):.{d}f}–{float(get[(bb, i, n, m)]['hi']):.{d}f})"
        print(f"| {int(b):,} | {int(i):,} × {n} | {cell('kl', 4)} | {cell('entropy_corr', 3)} | {cell('accuracy', 3)} |")
print("\n```\n" + open(f"{tmp}/plan.log").read().strip() + "\n```")
PY
python3 scripts/bench_readme.py --block plan "$tmp/plan.md" docs/plan.md
echo "docs/plan.md's plan block rewritten"
