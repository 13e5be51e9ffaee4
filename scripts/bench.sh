#!/usr/bin/env bash
# bench.sh - speed of the target-side curves, every ratio of the speed goals (docs/speed.md) in one run: native one
# thread against the app's workers in headless Chromium (all workers, and one: the per-thread ratio),
# native against a vectorised numpy version of the same work, one step of the N slider on the page's
# main thread, and votes/s by data size natively and in the app. Installs what is missing first.
#   scripts/bench.sh [--readme] [dataset]   everything (default chaosnli_snli; about 10 minutes);
#                                           --readme also rewrites docs/speed.md's curves block from
#                                           this run (scripts/bench_readme.py)
#   scripts/bench.sh --scale [ITEMS…]       only votes/s by data size (default sizes below)
set -euo pipefail
cd "$(dirname "$0")/.."
readme=0
if [ "${1:-}" = --readme ]; then readme=1; shift; fi
# Sizes for votes/s: 10 K to 10 M items (5–100 votes each), and the goals' 50 MB upload (2.4 M).
SCALE_SIZES=(10000 100000 1000000 2400000 10000000)
bench_name=bench
. scripts/bench-preamble.sh
cargo build -q --release --locked -p annosat-core --example time_curves
export ANNOSAT_TIME_CURVES="$CARGO_TARGET_DIR/release/examples/time_curves"
trunk build --release >/dev/null
stamp "built"
if [ "${1:-}" = --scale ]; then
  shift
  [ $# -gt 0 ] || set -- "${SCALE_SIZES[@]}"
  exec node tests/browser/bench-scale.mjs "$@"
fi
dataset=${1:-chaosnli_snli}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
  echo "annosat bench.sh: $dataset, $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -n 1)), $(date -u +%Y-%m-%d)"
  node tests/browser/bench.mjs "$dataset" 3
} | tee -a "$out"
stamp "browser against native"
# Native one thread against a vectorised numpy version of the same work (goal ≥ 200×).
votes="$ANNOSAT_DATA/$dataset/votes.csv"
curves_csv=$(mktemp)
native=$("$ANNOSAT_TIME_CURVES" "$votes" 50 "$curves_csv")
numpy=$(python3 tests/reference/numpy_curves_bench.py "$votes" --repeats 50 --check "$curves_csv")
rm -f "$curves_csv"
python3 - "$native" "$numpy" <<'PY' | tee -a "$out"
import re, sys
n = float(re.search(r"best of 5 ([\d.]+) ms", sys.argv[1]).group(1))
p = float(re.search(r"best of 3 ([\d.]+) ms", sys.argv[2]).group(1))
print(f"native one thread (again, beside numpy): {sys.argv[1]}")
print(sys.argv[2])
print(f"ratio numpy/native one thread: {p / n:.1f}x (goal >= 200x)")
PY
stamp "numpy"
# One step of the N slider on the page's main thread (goal ≤ 16 ms).
node tests/browser/bench-slider.mjs "$dataset" | tee -a "$out"
stamp "slider"
node tests/browser/bench-scale.mjs "${SCALE_SIZES[@]}" | tee -a "$out"
stamp "scale"
if [ "$readme" = 1 ]; then
  python3 scripts/bench_readme.py curves "$out" docs/speed.md
  stamp "docs/speed.md's curves block rewritten"
fi
