#!/usr/bin/env bash
# bench.sh - speed of the core's curve computation: criterion (native), then native vs the app's
# wasm worker in headless Chromium in one run, printing the ratio, and what one step of the N slider
# costs on the page's main thread. Installs what is missing first.
#   scripts/bench.sh [dataset]      (default chaosnli_snli)
#   scripts/bench.sh --scale [ITEMS…]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
cargo build -q --release --locked -p annosat-core --example time_curves
export ANNOSAT_TIME_CURVES="$CARGO_TARGET_DIR/release/examples/time_curves"
trunk build --release >/dev/null
# --scale [ITEMS…]: curve time against data size instead (votes/s natively and in the app, on
# generated wide files; default 10000 100000 1000000 items).
if [ "${1:-}" = --scale ]; then
  shift
  [ $# -gt 0 ] || set -- 10000 100000 1000000
  exec node tests/browser/bench-scale.mjs "$@"
fi
node tests/browser/bench.mjs "${1:-chaosnli_snli}" 3
# Native one thread against a vectorised numpy version of the same work (goal ≥ 200×), in one run.
votes="$ANNOSAT_DATA/${1:-chaosnli_snli}/votes.csv"
curves_csv=$(mktemp)
native=$("$ANNOSAT_TIME_CURVES" "$votes" 50 "$curves_csv")
numpy=$(python3 tests/reference/numpy_curves_bench.py "$votes" --repeats 50 --check "$curves_csv")
rm -f "$curves_csv"
echo "native one thread: $native"
echo "$numpy"
python3 - "$native" "$numpy" <<'PY'
import re, sys
n = float(re.search(r"best of 5 ([\d.]+) ms", sys.argv[1]).group(1))
p = float(re.search(r"best of 3 ([\d.]+) ms", sys.argv[2]).group(1))
print(f"ratio numpy/native one thread: {p / n:.1f}x (goal >= 200x)")
PY
# One step of the N slider on the page's main thread (goal ≤ 16 ms).
node tests/browser/bench-slider.mjs "${1:-chaosnli_snli}"
cargo bench -q --locked -p annosat-core --bench curves 2>/dev/null | grep -E "^curves/|time:" || true
