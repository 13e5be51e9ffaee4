#!/usr/bin/env bash
# bench-trainer.sh - speed of the trainer in one run: the batched head sweep of `annosat sweep`
# (candle, CPU) against an equivalent PyTorch CPU script on the same features and arms
# (tests/reference/torch_heads.py), in heads×epochs per second and their ratio; the floor under the
# group on this machine (heads/examples/floor.rs: its first-layer GEMMs and AdamW passes alone, same
# shapes and kernels); then the embedding throughput of `annosat embed` (MiniLM, texts per second)
# and of sentence-transformers on CPU for the same texts (tests/reference/st_embed.py), their ratio
# and the largest difference between the two embeddings.
# Installs what is missing first.
#
#   scripts/bench-trainer.sh [--readme] [dataset]   (default chaosnli_snli; pair datasets only);
#                                           --readme also rewrites docs/speed.md's trainer block
#                                           from this run (scripts/bench_readme.py)
#
# Environment:
#   BENCH_REPEATS=3    runs of each timed side (alternated: annosat, PyTorch, annosat, …); the best of
#                      each is compared, as this VM's speed drifts by up to 2× within an hour.
#   BENCH_EPOCHS=10    epochs per head on both sides. Early stopping is off on both (the sweep runs
#                      with --patience = --epochs), so both train every head for exactly this many.
#   ANNOSAT_BIN        a built `annosat` to time; default: cargo build --profile native, then
#                      $CARGO_TARGET_DIR/native/annosat.
#   TORCH_VENV         where PyTorch goes (default ~/.cache/annosat/torch-venv, a python3 venv).
#   TORCH_PIP_ARGS     extra `pip install` arguments for torch, e.g. a CPU-only wheel index where
#                      one is reachable.
#
# About the PyTorch install: the project's machines reach PyPI only, and PyPI's Linux x86_64 torch
# wheel is the CUDA build: `pip install torch==2.15.0` fetches a 540 MB wheel plus about 20 nvidia/CUDA
# packages, about 5.4 GB installed (about 2 minutes here). `--no-deps` does not avoid them: importing
# torch then fails while preloading libcublasLt. Both sides run on CPU threads only: torch gets
# `--threads $(nproc)`, candle's thread pools use every core by default.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
readme=0
if [ "${1:-}" = --readme ]; then readme=1; shift; fi
dataset=${1:-chaosnli_snli}
epochs=${BENCH_EPOCHS:-10}
repeats=${BENCH_REPEATS:-3}
venv=${TORCH_VENV:-$HOME/.cache/annosat/torch-venv}
TORCH_VERSION=2.15.0
ST_VERSION=6.3.0
log() { printf '== bench-trainer: %s\n' "$*" >&2; }
. scripts/env.sh

# --- What the bench needs: annosat, PyTorch, the encoder, the data ---
if [ -n "${ANNOSAT_BIN:-}" ]; then
  bin=$ANNOSAT_BIN
else
  command -v cargo >/dev/null || bash scripts/setup.sh
  log "cargo build --profile native -p annosat-trainer"
  cargo build -q --locked --profile native -p annosat-trainer
  bin="$CARGO_TARGET_DIR/native/annosat"
fi
if ! "$venv/bin/python" -c 'import torch, numpy' 2>/dev/null; then
  log "installing torch==$TORCH_VERSION and numpy into $venv (PyPI; about 5.4 GB with the CUDA packages)"
  python3 -m venv "$venv"
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q ${TORCH_PIP_ARGS:-} "torch==$TORCH_VERSION" numpy >&2
fi
if ! "$venv/bin/python" -c 'import sentence_transformers' 2>/dev/null; then
  log "installing sentence-transformers==$ST_VERSION into $venv (PyPI)"
  "$venv/bin/pip" install -q "sentence-transformers==$ST_VERSION" >&2
fi
ANNOSAT_MODEL=$(bash scripts/fetch-model.sh)
ANNOSAT_DATA=$(bash scripts/fetch-data.sh)
export ANNOSAT_MODEL ANNOSAT_DATA
data="$ANNOSAT_DATA/$dataset"
[ -f "$data/votes.csv" ] || { echo "bench-trainer: no $data/votes.csv" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strip() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }

# Features: the cached embeddings both sides train on (embedded once here if missing; not timed).
features=$("$bin" embed --data "$data" 2>"$tmp/features.log" | tail -n 1) ||
  { cat "$tmp/features.log" >&2; exit 1; }

# --- 1, 2. One sweep group in annosat (split 42, model seed 0, a fresh work dir each time so nothing
# is resumed) and the same group's work in PyTorch on the same features, alternated $repeats times:
# this VM's speed drifts within minutes, so each side's best is compared with the other's.
group_times=() torch_times=()
for r in $(seq "$repeats"); do
  log "annosat sweep: one group, $epochs epochs, no early stopping (run $r of $repeats)"
  rm -rf "$tmp/out" "$tmp/work"
  "$bin" sweep --data "$data" --out "$tmp/out" --work "$tmp/work" --split-seed 42 --model-seeds 1 \
    --epochs "$epochs" --patience "$epochs" >/dev/null 2>"$tmp/sweep.log" || { cat "$tmp/sweep.log" >&2; exit 1; }
  heads=$(strip "$tmp/sweep.log" | grep -oE '[0-9]+ heads each' | grep -oE '^[0-9]+')
  group_s=$(strip "$tmp/sweep.log" | grep -oE "$dataset split 42 seed 0: [0-9.]+ s" | grep -oE '[0-9.]+ s$' | grep -oE '^[0-9.]+')
  [ -n "$heads" ] && [ -n "$group_s" ] || { echo "bench-trainer: no group time in the sweep log:" >&2; cat "$tmp/sweep.log" >&2; exit 1; }
  group_times+=("$group_s")

  log "PyTorch: $heads heads, $epochs epochs ($(nproc) threads; run $r of $repeats)"
  "$venv/bin/python" tests/reference/torch_heads.py --features "$features" --votes "$data/votes.csv" \
    --epochs "$epochs" --threads "$(nproc)" >"$tmp/torch.json" 2>"$tmp/torch.log" || { cat "$tmp/torch.log" >&2; exit 1; }
  read -r torch_version torch_heads torch_s < <(python3 -c "
import json; r = json.loads(open('$tmp/torch.json').read().splitlines()[-1])
print(r['torch'], r['heads'], r['seconds'])")
  [ "$torch_heads" = "$heads" ] || { echo "bench-trainer: $heads heads in the sweep, $torch_heads in torch_heads.py" >&2; exit 1; }
  torch_times+=("$torch_s")
done
best() { printf '%s\n' "$@" | sort -g | head -n 1; }
listed() { local IFS=,; echo "$*" | sed 's/,/, /g'; }
group_s=$(best "${group_times[@]}")
torch_s=$(best "${torch_times[@]}")
rust_rate=$(python3 -c "print(f'{$heads * $epochs / $group_s:.1f}')")
torch_rate=$(python3 -c "print(f'{$heads * $epochs / $torch_s:.1f}')")

# --- 3. The floor: the group's first-layer GEMMs and AdamW passes alone, same shapes and kernels ---
log "floor: the group's GEMMs and AdamW alone"
cargo build -q --locked --profile native -p annosat-heads --example floor
items=$(($(wc -l <"$data/votes.csv") - 1))
floor_line=$("$CARGO_TARGET_DIR/native/examples/floor" "$items" 256 "$heads" 64 64 "$epochs")

# --- 4. Embedding throughput: annosat embed into an empty cache, best of $repeats ---
embed_line="" embed_rate=0 embed_times=()
for r in $(seq "$repeats"); do
  log "annosat embed into an empty cache (run $r of $repeats)"
  rm -rf "$tmp/features"
  cache=$("$bin" embed --data "$data" --cache "$tmp/features" 2>"$tmp/embed.log" | tail -n 1) || { cat "$tmp/embed.log" >&2; exit 1; }
  line=$(strip "$tmp/embed.log" | grep -oE 'embedded [0-9]+ texts in [0-9.]+ s \([0-9]+ texts/s\)' | tail -n 1)
  rate=$(echo "$line" | grep -oE '[0-9]+ texts/s' | grep -oE '^[0-9]+')
  [ -n "$rate" ] || { echo "bench-trainer: no timing line in annosat embed's log:" >&2; cat "$tmp/embed.log" >&2; exit 1; }
  embed_times+=("$(echo "$line" | grep -oE 'in [0-9.]+ s' | grep -oE '[0-9.]+')")
  if [ "$rate" -gt "$embed_rate" ]; then embed_rate=$rate embed_line=$line; fi
done

# --- 5. The same texts through sentence-transformers on CPU (same checkpoint folder, batch 64) ---
log "sentence-transformers: the same texts, batch 64 ($(nproc) threads), best of $repeats"
st_line=$("$venv/bin/python" tests/reference/st_embed.py --data "$data" --model "$ANNOSAT_MODEL" --batch 64 \
  --threads "$(nproc)" --repeats "$repeats" --cache "$cache" --ours "$embed_line" 2>"$tmp/st.log") || { cat "$tmp/st.log" >&2; exit 1; }

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
vectors=AVX2; grep -qw avx512f /proc/cpuinfo && vectors=AVX-512
{
  echo "annosat bench-trainer: $dataset, $(nproc) cores ($cpu, $vectors), $(date -u +%Y-%m-%dT%H:%MZ); each side best of $repeats, alternated"
  echo "head sweep ($heads heads x $epochs epochs, PCA 256, hidden 64, batch 64, AdamW; val+test every epoch):"
  printf '  %-26s %8.1f heads*epochs/s  (%s s for the group; runs: %s s)\n' "annosat sweep (candle):" "$rust_rate" "$group_s" "$(listed "${group_times[@]}")"
  printf '  %-26s %8.1f heads*epochs/s  (%s s; runs: %s s)\n' "PyTorch $torch_version:" "$torch_rate" "$torch_s" "$(listed "${torch_times[@]}")"
  echo "  ratio annosat/PyTorch:     $(python3 -c "print(f'{$heads * $epochs / $group_s / $torch_rate:.2f}')")x  (above 1: annosat faster)"
  echo "  $floor_line"
  echo "embed (annosat embed, all-MiniLM-L6-v2, empty cache): $embed_line (runs: $(listed "${embed_times[@]}") s)"
  echo "  $st_line"
} | tee "$tmp/summary.txt"
if [ "$readme" = 1 ]; then
  python3 scripts/bench_readme.py trainer "$tmp/summary.txt" docs/speed.md
fi
