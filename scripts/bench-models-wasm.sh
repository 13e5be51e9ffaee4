#!/usr/bin/env bash
# bench-models-wasm.sh - the model side in the browser's model worker vs natively on one core, in
# one run, printing both ratios:
#   1. head training: one sweep group (all arms × N of the SNLI export, split seed 42, model seed 0,
#      the group's epochs), also checked run by run against the export;
#   2. MiniLM embedding: the distinct texts of the first [items] ChaosNLI-SNLI items (default 300).
#   scripts/bench-models-wasm.sh [items]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
cargo build -q --profile native --locked -p annosat-heads --example time_group
cargo build -q --profile native --locked -p annosat-encoder --example time_embed
export ANNOSAT_TIME_GROUP="$CARGO_TARGET_DIR/native/examples/time_group"
export ANNOSAT_TIME_EMBED="$CARGO_TARGET_DIR/native/examples/time_embed"
trunk build --release >/dev/null
node tests/browser/bench-heads-wasm.mjs
node tests/browser/bench-minilm-wasm.mjs "${1:-300}"
