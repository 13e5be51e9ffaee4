#!/usr/bin/env bash
# bench-heads-wasm.sh - head training in the browser's model worker vs natively on one core, same group
# (all arms × N of the SNLI export, split seed 42, model seed 0, the group's epochs), in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
cargo build -q --profile native --locked -p annosat-heads --example time_group
export ANNOSAT_TIME_GROUP="$CARGO_TARGET_DIR/native/examples/time_group"
trunk build --release >/dev/null
node tests/browser/bench-heads-wasm.mjs
