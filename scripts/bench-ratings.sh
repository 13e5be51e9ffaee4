#!/usr/bin/env bash
# bench-ratings.sh - what the rating curves add in the app: KonIQ-10k's curves with the classes
# read as unordered (nominal curves alone) and as the 1–5 scale (rating curves too), from the
# choice to the page idle (tests/browser/bench-ratings.mjs).
#   scripts/bench-ratings.sh [--docs]   --docs also writes the run into docs/speed.md
set -euo pipefail
cd "$(dirname "$0")/.."
bench_name=bench-ratings
. scripts/bench-preamble.sh
trunk build --release >/dev/null
stamp "built"
DOCS=${1:-} bench_report ratings node tests/browser/bench-ratings.mjs 3
