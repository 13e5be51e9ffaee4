#!/usr/bin/env bash
# readme-agree-example.sh - rewrites the README's `annosat agree` block from runs of the CLI: α and
# majority vote vs N on ChaosNLI-SNLI (counts), Dawid–Skene on RTE (Snow et al. 2008, annotator
# ids), and α of PopQuorn's 1–5 ratings at each level, so the numbers there are this run's.
#   scripts/readme-agree-example.sh    (needs the CLI: cargo build --profile native -p annosat-trainer)
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
python3 scripts/bench_readme.py --block agree "$tmp/block.md" README.md
echo "README's agree block rewritten"
