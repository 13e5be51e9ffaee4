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
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
  echo "annosat bench-compare.sh: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -n 1)), $(date -u +%Y-%m-%d)"
  node tests/browser/bench-compare.mjs 3
} | tee "$out"
stamp "done"
if [ "${1:-}" = --docs ]; then
  python3 scripts/bench_readme.py compare "$out" docs/speed.md
fi
