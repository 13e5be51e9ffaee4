#!/usr/bin/env bash
# test.sh - run every annosat test on this machine, installing whatever is missing first.
#   1. cargo test: core (unit, property, shared-data) and trainer/CLI (incl. the numpy reference,
#      embed/sweep/finetune end to end, and the committed model exports regenerating bit for bit);
#      the download converters (scripts/download) reproduce every shared dataset from its originals
#   0. the trainer compiles with --features cuda (scripts/cuda-toolchain.sh)
#   2. the core builds for wasm32 with no web dependency
#   3. trunk build --release of the app
#   4. browser tests in real headless Chromium (tests/browser, node --test + playwright-core)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
step() { printf '\n==== %s\n' "$*"; }

step "setup (installs only what is missing)"
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
ANNOSAT_MODEL=$(bash scripts/fetch-model.sh)
export ANNOSAT_MODEL

step "the trainer compiles with --features cuda (CUDA 13 toolchain from PyPI; no GPU needed to build)"
# First, so the plain build below relinks the CPU binary the tests and the app's build hook run.
eval "$(bash scripts/cuda-toolchain.sh --env)"
cargo build --locked --profile native -p annosat-trainer --features cuda

step "cargo test (core + trainer)"
cargo test --locked --profile native -p annosat-core -p annosat-trainer

step "download converters reproduce the datasets (python3 scripts/download/test_converters.py)"
python3 scripts/download/test_converters.py

step "core compiles for wasm32 without web dependencies"
cargo build --locked -p annosat-core --target wasm32-unknown-unknown
if cargo tree --locked -p annosat-core --target wasm32-unknown-unknown -e normal | grep -Eq '^.*(web-sys|leptos|candle)'; then
  echo "annosat-core must not depend on web or candle crates" >&2; exit 1
fi

step "trunk build --release"
trunk build --release

step "browser tests (headless Chromium)"
export ANNOSAT_CLI="$CARGO_TARGET_DIR/native/annosat"
cargo build --locked --profile native -p annosat-trainer
(cd tests/browser && node --test --test-reporter=spec)
echo "all tests passed"
