#!/usr/bin/env bash
# test.sh - run every annosat test on this machine, installing whatever is missing first, and print
# how long each step took (also when a step fails).
#   1. setup (scripts/setup.sh: wasm toolchain, Chromium, numpy/scipy, playwright-core)
#   2. data and model (scripts/fetch-data.sh --app bundles the datasets with the candle-free CLI and
#      writes the F16 encoder copy the model worker downloads)
#   2b. the habits (cargo fmt --check, clippy -D warnings, scripts/check-rooms.sh), as --quick runs them
#   3. cargo test: core (unit, property, shared-data), heads, encoder, the model worker's upload
#      handling, and trainer/CLI (incl. the numpy reference,
#      embed/sweep/finetune end to end, and the committed model exports regenerating bit for bit)
#   3b. fuzzing: every seed and past crash input through the fuzz targets' bodies (tests/fuzz,
#      cargo test), then a 20 s coverage-guided smoke per target (scripts/fuzz.sh)
#   4. the download converters (scripts/download) reproduce every shared dataset from its originals
#   5. the core (with no web dependency) and annosat-heads (training, for the model worker) build
#      for wasm32
#   6. the relocatable site (scripts/build-site.sh's trunk build, relative URLs)
#   7. browser tests in real headless Chromium (tests/browser): the app, limits, Stop and dying
#      workers (robustness.test.mjs), the Content-Security-Policy and hostile uploads
#      (safety.test.mjs), the synthetic dataset
#      (synth.test.mjs), training and embedding in
#      the tab (train.test.mjs, own.test.mjs), the Plan room's extrapolation of a 5-vote upload
#      (plan.test.mjs) and its agreement and adaptive tools against the CLI (plan-tools.test.mjs),
#      the Target room's answer card: item intervals and a 10-vote upload's extrapolated headline
#      equal to `annosat curves` (answer.test.mjs), the Sources room against `annosat worth` (sources.test.mjs) and `annosat annotators` on a long upload with intervals over annotators (annotators.test.mjs),
#      the bundled multilabel set and a multilabel upload against `annosat curves` (multilabel.test.mjs),
#      multilabel heads trained in the tab against `annosat sweep` on the same features (multilabel-train.test.mjs),
#      the site under a sub-path,
#      and scripts/serve.sh itself kept open for 90 s (one page load, no rebuild, idle CPU)
#   8. a sharded sweep on a real one-node Slurm cluster (scripts/slurm-test.sh: installs Debian's
#      slurm and munge if missing, requeues a shard mid-way, merges, compares byte for byte)
#   9. scripts/gpu/finetune.sh --tiny: the GPU fine-tune script on CPU with a tiny grid, its export
#      recomputed by `annosat verdicts --verify`, so the script cannot rot where no GPU is lent
#  10. the trainer type-checks with --features cuda (nvcc builds candle's kernels; no GPU needed)
#
# scripts/test.sh --quick: only the habits a change should pass before anything longer — cargo fmt
# --check, cargo clippy --workspace -D warnings, no room of the app importing another
# (scripts/check-rooms.sh), and the core, heads and encoder unit tests plus the CLI's flag
# vocabulary test (a few minutes with warm caches; nothing is installed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=0
[ "${1:-}" = "--quick" ] && quick=1

names=() secs=() current="" started=0 t_all=$(date +%s)
finish_step() {
  [ -n "$current" ] || return 0
  names+=("$current"); secs+=($(($(date +%s) - started))); current=""
}
step() {
  finish_step
  current=$1; started=$(date +%s)
  printf '\n==== %s\n' "$1"
}
summary() {
  local rc=$? i
  [ -n "$current" ] && { [ $rc = 0 ] || current="$current (FAILED)"; finish_step; }
  printf '\n==== step durations\n'
  for i in "${!names[@]}"; do printf '%6d s  %s\n' "${secs[$i]}" "${names[$i]}"; done
  printf '%6d s  total\n' $(($(date +%s) - t_all))
  [ $rc = 0 ] && echo "all tests passed"
}
trap summary EXIT

habits() {
  step "habits: cargo fmt --check, cargo clippy --workspace -D warnings, no room imports another"
  cargo fmt --all --check
  cargo clippy --locked --profile native --workspace -- -D warnings
  bash scripts/check-rooms.sh
}

if [ $quick = 1 ]; then
  . scripts/env.sh
  habits
  step "unit tests: core, heads, encoder, and the CLI's flag vocabulary"
  cargo test --locked --profile native -p annosat-core -p annosat-heads -p annosat-encoder --lib
  cargo test --locked --profile native -p annosat-trainer --bin annosat cli_words
  exit 0
fi

step "setup (installs only what is missing)"
bash scripts/setup.sh
. scripts/env.sh

step "data and model (bundles the datasets for the app with the candle-free CLI)"
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
ANNOSAT_MODEL=$(bash scripts/fetch-model.sh)
export ANNOSAT_MODEL

habits

step "cargo test (core + heads + encoder + model worker + trainer)"
cargo test --locked --profile native -p annosat-core -p annosat-heads -p annosat-encoder -p annosat-trainer \
  -p annosat-model-worker --features annosat-model-worker/worker
# The page's request bookkeeping and limits (annosat_app::{requests, limits}), natively.
cargo test --locked --profile native -p annosat-app --lib
# The full CLI those tests just built (candle, with the features this test build unifies) serves
# the later steps: `cargo build -p annosat-trainer` alone resolves other features and would compile
# candle a second time (5 min on a new machine). A copy, because serve.sh below builds the
# candle-free CLI into native/annosat.
full_cli="$CARGO_TARGET_DIR/native/annosat-full"
cp "$CARGO_TARGET_DIR/native/annosat" "$full_cli"
export ANNOSAT_CLI="$full_cli" ANNOSAT_BIN="$full_cli"

step "fuzz: seeds and past crashes (cargo test in tests/fuzz), then 20 s of libFuzzer per target (scripts/fuzz.sh 20)"
cargo test --locked --manifest-path tests/fuzz/Cargo.toml
bash scripts/fuzz.sh 20

step "download converters reproduce the datasets (python3 scripts/download/test_converters.py)"
python3 scripts/download/test_converters.py

step "core and annosat-heads compile for wasm32 (core without web or candle crates; the page without candle)"
cargo build --locked -p annosat-core -p annosat-heads --target wasm32-unknown-unknown
if cargo tree --locked -p annosat-core --target wasm32-unknown-unknown -e normal | grep -Eq '^.*(web-sys|leptos|candle)'; then
  echo "annosat-core must not depend on web or candle crates" >&2; exit 1
fi
# candle lives in the model worker, a wasm binary of its own fetched only when the user trains.
if cargo tree --locked -p annosat-app --target wasm32-unknown-unknown -e normal | grep -q candle; then
  echo "the page (annosat-app) must not depend on candle: it belongs to the model worker" >&2; exit 1
fi

step "trunk build --release --public-url ./ (the relocatable site, as scripts/build-site.sh writes it)"
trunk build --release --public-url ./

step "browser tests (headless Chromium)"
(cd tests/browser && node --test --test-reporter=spec explorer.test.mjs upload.test.mjs robustness.test.mjs safety.test.mjs models.test.mjs synth.test.mjs train.test.mjs own.test.mjs site.test.mjs plan.test.mjs plan-tools.test.mjs answer.test.mjs sources.test.mjs annotators.test.mjs multilabel.test.mjs multilabel-train.test.mjs ratings.test.mjs compare.test.mjs)

step "scripts/serve.sh stays put: one page load, no rebuild, idle CPU over 90 s (tests/browser/serve.test.mjs)"
(cd tests/browser && node --test --test-reporter=spec serve.test.mjs)

step "a real Slurm cluster on this machine: 4 sweep shards as an array job, one requeued mid-way, the merge after afterok equal to one process (scripts/slurm-test.sh)"
# (on the full CLI in ANNOSAT_BIN: serve.test above built the candle-free one into native/annosat)
bash scripts/slurm-test.sh

step "the GPU fine-tune script on CPU, tiny grid (scripts/gpu/finetune.sh --tiny): an export with verdicts"
tiny=$(mktemp -d)
bash scripts/gpu/finetune.sh --tiny "$tiny"
"$full_cli" verdicts --export "$tiny/models/chaosnli_snli_finetune" \
  --votes "${ANNOSAT_DATA:-$root/../shared/data}/chaosnli_snli/votes.csv" --verify >/dev/null
rm -rf "$tiny"

step "the trainer type-checks with --features cuda (CUDA 13 nvcc from PyPI builds candle's kernels)"
eval "$(bash scripts/cuda-toolchain.sh --env)"
cargo check --locked --profile native -p annosat-trainer --features cuda
