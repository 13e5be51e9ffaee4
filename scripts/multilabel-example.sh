#!/usr/bin/env bash
# multilabel-example.sh - rewrites docs/multilabel.md's example block from a run of `annosat curves`
# on the CrowdTruth medical relation set (15 workers per sentence, 14 relation checkboxes): each
# metric's mean curve at a few N with its repeat and item intervals, the saturation sentences the
# CLI prints, and the per-label table, so the numbers there are this run's, never typed.
#   scripts/multilabel-example.sh      (needs the CLI: cargo build --profile native -p annosat-trainer)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
bin="$CARGO_TARGET_DIR/native/annosat"
votes="$(bash scripts/fetch-data.sh)/crowdtruth_medrelex/ratings_multilabel.csv"
[ -f "$votes" ] || { echo "multilabel-example: no $votes" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmd=(curves --votes crowdtruth_medrelex/ratings_multilabel.csv --format json)
start=$(date +%s.%N)
"$bin" curves --votes "$votes" --format json >"$tmp/ml.json" 2>"$tmp/stderr"
took=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
python3 - "$tmp" "$took" "${cmd[*]}" >"$tmp/block.md" <<'PY'
import json, sys
tmp, took, cmd = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(f"{tmp}/ml.json"))
show = [n for n in (1, 2, 3, 5, 10, 15) if n in d["grid"]]
def f(v):
    return "—" if v is None else f"{v:.3f}"
print(f"`annosat {cmd}` (seed {d['seed']}, {d['repeats']} repeats, {d['bootstrap']['resamples']} item resamples; "
      f"{took} s on this machine). {d['items'][0]} items, {len(d['labels'])} labels. Mean over repeats, "
      "with the 95% interval over repeats and then over items:\n")
print("| metric | " + " | ".join(f"N = {n}" for n in show) + " |")
print("|---|" + "---|" * len(show))
for m, pts in d["metrics"].items():
    row = []
    for n in show:
        p = next(p for p in pts if p["n"] == n)
        if p["mean"] is None:
            row.append("undefined")
        else:
            row.append(f"{f(p['mean'])} ({f(p['lo'])}–{f(p['hi'])}; {f(p['items_lo'])}–{f(p['items_hi'])})")
    print(f"| `{m}` | " + " | ".join(row) + " |")
print("\nWhat the CLI says for each metric (`--target 0.9`):\n")
for m, s in d["saturation"].items():
    print(f"- {s['sentence']}")
print("\nPer label: its mean share, how many items the full votes give it by majority, and where its "
      "JS distance captures 90% of its improvement (95% interval over items):\n")
print("| label | mean share | majority items | 90% point of its JS distance |")
print("|---|---|---|---|")
for l in sorted(d["per_label"], key=lambda l: -l["mean_share"]):
    s = l["saturation"]
    it = s.get("items") or {}
    where = f"N = {s['n']} ({it.get('lo')}–{it.get('hi')})" if s["n"] is not None else "not reached"
    if s["bounded_by_votes"]:
        where += ", bounded by the votes"
    print(f"| `{l['label']}` | {l['mean_share']:.3f} | {l['majority_items']} | {where} |")
votes = d["saturation"]["kl"]["votes"]
bounded = sum(s["bounded_by_votes"] for s in d["saturation"].values())
print(f"\nWith {votes} votes per item a point past N = {votes // 5} is bounded by the votes ({bounded} of "
      f"{len(d['saturation'])} metrics here): these data show how close N workers come to {votes} workers, "
      "not how many workers a sentence needs.")
PY
python3 scripts/bench_readme.py --block multilabel-example "$tmp/block.md" docs/multilabel.md
echo "docs/multilabel.md's example rewritten"
