#!/usr/bin/env bash
# bench-compare.sh - the comparison of two models (`annosat compare`, the Plan room's tool) on
# ChaosNLI-SNLI's 1,514 items: the CLI on one thread and the app (tests/browser/bench-compare.mjs).
#   scripts/bench-compare.sh [--docs]   --docs also writes the run into docs/speed.md
set -euo pipefail
cd "$(dirname "$0")/.."
bench_name=bench-compare
. scripts/bench-preamble.sh
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
export ANNOSAT_CLI="$CARGO_TARGET_DIR/native/annosat"
trunk build --release >/dev/null
stamp "built"
DOCS=${1:-} bench_report compare node tests/browser/bench-compare.mjs 3
