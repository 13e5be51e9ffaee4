#!/usr/bin/env bash
# bench-models-wasm.sh - the model side in the browser's model workers, in one run, printing every
# ratio:
#   1. head training: one sweep group (all arms × N of the SNLI export, split seed 42, model seed 0,
#      the group's epochs) in one model worker against natively on one core, also checked run by
#      run against the export;
#   2. MiniLM embedding: the distinct texts of the first [items] ChaosNLI-SNLI items (default 300),
#      one model worker against natively on one core;
#   3. the pool: Embed and train on a 1,000-item file of tweets with 1 model worker and with 2.
#   scripts/bench-models-wasm.sh [--docs] [items]   --docs writes the run into docs/speed.md
set -euo pipefail
cd "$(dirname "$0")/.."
docs=0
if [ "${1:-}" = --docs ]; then docs=1; shift; fi
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
cargo build -q --profile native --locked -p annosat-heads --example time_group
cargo build -q --profile native --locked -p annosat-encoder --example time_embed
export ANNOSAT_TIME_GROUP="$CARGO_TARGET_DIR/native/examples/time_group"
export ANNOSAT_TIME_EMBED="$CARGO_TARGET_DIR/native/examples/time_embed"
trunk build --release >/dev/null
out=$(mktemp)
trap 'rm -f "$out" "$out.md"' EXIT
{
  echo "annosat bench-models-wasm.sh: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -1)), $(date -u +%Y-%m-%d)"
  node tests/browser/bench-heads-wasm.mjs
  node tests/browser/bench-minilm-wasm.mjs "${1:-300}"
  node tests/browser/bench-pool.mjs 1000 2
} | tee "$out"
if [ "$docs" = 1 ]; then
  python3 - "$out" >"$out.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def num(p):
    return float(re.search(p, text).group(1))
heads = num(r"(?s)browser model worker.*?ratio browser / native per thread \(best vs best\): ([\d.]+)")
minilm = num(r"texts/s\)\nratio browser / native per thread \(best vs best\): ([\d.]+)")
both = num(r"ratio 1 worker / 2 workers: .*both ([\d.]+)x")
emb = num(r"ratio 1 worker / 2 workers: embedding ([\d.]+)x")
train = num(r"ratio 1 worker / 2 workers: .*training ([\d.]+)x")
v = lambda ok: "**met**" if ok else "**not met**"
print("Written by `scripts/bench-models-wasm.sh --docs` from its run (the output verbatim, then the goals):\n")
print("```text\n" + text.strip() + "\n```\n")
print("| goal | target | this run | |\n|---|---|---|---|")
print(f"| Embed and train, 1,000 tweets: 2 model workers against 1 | ≥ 1.7× | {both:.2f}× (embedding {emb:.2f}×, training {train:.2f}×) | {v(both >= 1.7)} |")
print(f"| heads, one model worker against native on one core | ≤ 2× | {heads:.2f}× | {v(heads <= 2)} |")
print(f"| MiniLM, one model worker against native on one core | ≤ 2× | {minilm:.2f}× | {v(minilm <= 2)} |")
PY
  python3 scripts/bench_readme.py --block bench:models-wasm "$out.md" docs/speed.md
fi
