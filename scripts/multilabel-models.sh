#!/usr/bin/env bash
# multilabel-models.sh - trains the committed multilabel model export and rewrites
# docs/multilabel.md's model-side block from it: `annosat sweep` on the CrowdTruth medical relation
# set (sigmoid heads per arm × N on frozen MiniLM features, 5-fold, 2 model seeds), exported to
# public/models/crowdtruth_medrelex/ (multilabel.json beside its f16 features.safetensors), then a
# table of every arm's value at the first and last N with item intervals, the verdicts and soft
# against hard — so the numbers there are this run's, never typed.
#   scripts/multilabel-models.sh            embed (cached) and train: the export as committed
#   scripts/multilabel-models.sh --retrain  train from the committed head features (no embedding:
#                                           what trainer/tests/multilabel.rs checks byte for byte)
#   scripts/multilabel-models.sh --doc      only rewrite the block from the committed export
# (needs the full CLI: cargo build --profile native -p annosat-trainer, and scripts/fetch-model.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
bin="$CARGO_TARGET_DIR/native/annosat"
data="$(bash scripts/fetch-data.sh)/crowdtruth_medrelex"
out=public/models
cmd=(sweep --data crowdtruth_medrelex --out public/models --model-seeds 2)
took="(not rerun)"
if [ "${1:-}" != "--doc" ]; then
  [ -d "$data" ] || { echo "multilabel-models: no $data" >&2; exit 1; }
  start=$(date +%s.%N)
  if [ "${1:-}" = "--retrain" ]; then
    feats=$(mktemp)
    cp "$out/crowdtruth_medrelex/features.safetensors" "$feats"
    cmd+=(--head-features public/models/crowdtruth_medrelex/features.safetensors)
    "$bin" sweep --data "$data" --out "$out" --model-seeds 2 --head-features "$feats" >/dev/null
    rm -f "$feats"
  else
    "$bin" sweep --data "$data" --out "$out" --model-seeds 2 >/dev/null
  fi
  took=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.0f} s')" "$start" "$(date +%s.%N)")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$out/crowdtruth_medrelex/multilabel.json" "$took" "${cmd[*]}" >"$tmp/block.md" <<'PY'
import json, sys
path, took, cmd = sys.argv[1:4]
e = json.load(open(path))
ev = e["evaluation"]
ns = ev["ns"]
first, last = ns[0], ns[-1]
def num(v, signed=False):
    return "undefined" if v is None else (f"{v:+.3f}" if signed else f"{v:.3f}")
def words(v):
    if v["verdict"] == "saturates":
        if v.get("bounded_by"):
            return f"improves; 90% point bounded by the {v['bounded_by']} votes"
        return f"saturates by N={v['n90']} [{v['n90_lo']}, {v['n90_hi']}]"
    return {"no_detectable_change": "no detectable change with N", "worsens": "worsens with N",
            "undefined": "undefined"}[v["verdict"]]
print(f"`annosat {cmd}` ({took} on this machine; `scripts/multilabel-models.sh`). {e['items']} items, "
      f"{len(e['labels'])} labels, {e['folds']}-fold × {e['model_seeds']} model seeds, heads of "
      f"{e['head']['hidden']} hidden units on {e['encoder']} features ({e['layout']}). Every item is "
      f"tested once, against its full {e['votes_per_item']}-vote shares; intervals are 95% over "
      f"{ev['resamples']} resamples of the test items within their folds.\n")
print(f"| metric | arm | N = {first} | N = {last} | with N |")
print("|---|---|---|---|---|")
for metric in ["soft_bce", "macro_f1", "micro_f1", "entropy_corr"]:
    for c in (c for c in ev["curves"] if c["metric"] == metric):
        cell = lambda g: f"{num(c['mean'][g])} [{num(c['lo'][g])}, {num(c['hi'][g])}]"
        print(f"| `{metric}` | {c['arm']} | {cell(0)} | {cell(-1)} | {words(c['verdict'])} |")
print(f"\nSoft − hard, paired over the same test items (negative is better for `soft_bce`, positive "
      "for the others):\n")
print("| N | " + " | ".join(f"`{m}`" for m in ["soft_bce", "macro_f1", "micro_f1", "entropy_corr"]) + " |")
print("|---|---|---|---|---|")
for n in ns:
    row = []
    for m in ["soft_bce", "macro_f1", "micro_f1", "entropy_corr"]:
        v = next(v for v in ev["versus"] if v["arm"] == "soft" and v["against"] == "hard"
                 and v["n"] == n and v["metric"] == m)
        row.append(f"{num(v['diff'], True)} [{num(v['lo'], True)}, {num(v['hi'], True)}] {v['outcome']}")
    print(f"| {n} | " + " | ".join(row) + " |")
def at_last(arm, m):
    return next(v for v in ev["versus"] if v["arm"] == arm and v["against"] == "constant"
                and v["n"] == last and v["metric"] == m)
beats = [a["name"] for a in e["arms"] if a["name"] != "constant"
         and at_last(a["name"], "soft_bce")["outcome"] == f"{a['name']} better"]
print(f"\nAgainst the constant baseline (each label's mean share) at N = {last}, SoftBCE: "
      + (", ".join(beats) if beats else "no arm") + " better by an interval excluding 0.")
per = e.get("per_label", [])
if per:
    def lab(arm, l, m):
        return next(c for c in per if c["arm"] == arm and c["label"] == l and c["metric"] == m)
    print(f"\nPer label, soft's SoftBCE at N = {last} against the label's floor (its mean full-vote "
          "entropy: a head predicting every share exactly), and the verdict on its change with N:\n")
    print(f"| label | floor | soft at N = {last} | soft with N | hard at N = {last} | hard with N |")
    print("|---|---|---|---|---|---|")
    for l, name in enumerate(e["labels"]):
        s, h = lab("soft", l, "soft_bce"), lab("hard", l, "soft_bce")
        cell = lambda c: f"{num(c['mean'][-1])} [{num(c['lo'][-1])}, {num(c['hi'][-1])}]"
        print(f"| `{name}` | {e['label_floors'][l]:.3f} | {cell(s)} | {words(s['verdict'])} | "
              f"{cell(h)} | {words(h['verdict'])} |")
PY
python3 scripts/bench_readme.py --block multilabel-models "$tmp/block.md" docs/multilabel.md
echo "docs/multilabel.md's model-side block rewritten"
