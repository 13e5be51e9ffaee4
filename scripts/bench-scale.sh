#!/usr/bin/env bash
# bench-scale.sh - curve time against data size: for generated wide files of each size (5-100 votes
# per item, scripts/make-big-votes.py), `time_curves` natively on one thread and the app's workers
# in headless Chromium; prints votes/s for each (N=1..100, 50 repeats).
#   scripts/bench-scale.sh [ITEMS ...]      default: 10000 100000 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
cargo build -q --release --locked -p annosat-core --example time_curves
export ANNOSAT_TIME_CURVES="$CARGO_TARGET_DIR/release/examples/time_curves"
trunk build --release >/dev/null
[ $# -gt 0 ] || set -- 10000 100000 1000000
node tests/browser/bench-scale.mjs "$@"
