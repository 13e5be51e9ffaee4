#!/usr/bin/env bash
# bench-minilm-wasm.sh - MiniLM embedding in the browser's model worker vs natively on one core,
# same texts (the first 300 ChaosNLI-SNLI items by default), in one run. Prints the ratio.
#   scripts/bench-minilm-wasm.sh [items]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
cargo build -q --profile native --locked -p annosat-encoder --example time_embed
export ANNOSAT_TIME_EMBED="$CARGO_TARGET_DIR/native/examples/time_embed"
trunk build --release >/dev/null
node tests/browser/bench-minilm-wasm.mjs "${1:-300}"
