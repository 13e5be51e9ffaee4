#!/usr/bin/env bash
# bench.sh - speed of the core's curve computation: criterion (native), then native vs the app's
# wasm worker in headless Chromium in one run, printing the ratio, and what one step of the N slider
# costs on the page's main thread. Installs what is missing first.
#   scripts/bench.sh [dataset]      (default chaosnli_snli)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
cargo build -q --release --locked -p annosat-core --example time_curves
export ANNOSAT_TIME_CURVES="$CARGO_TARGET_DIR/release/examples/time_curves"
trunk build --release >/dev/null
node tests/browser/bench.mjs "${1:-chaosnli_snli}" 3
# One step of the N slider on the page's main thread (goal ≤ 16 ms).
node tests/browser/bench-slider.mjs "${1:-chaosnli_snli}"
cargo bench -q --locked -p annosat-core --bench curves 2>/dev/null | grep -E "^curves/|time:" || true
