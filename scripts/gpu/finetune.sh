#!/usr/bin/env bash
# gpu/finetune.sh - full fine-tuning of the encoder (every transformer layer) and a head on
# ChaosNLI-SNLI at N ∈ {1, 3, 10, 30, 100} × {hard, ls0.1, soft} × 3 model seeds on split 42,
# written as a model export the Models room lists (<OUT>/models/chaosnli_snli_finetune, with
# verdicts) and the runs' JSON. Meant as one prepared command on a lent GPU (≤ 8 minutes on one
# large GPU): the machine has CUDA but no Rust toolchain and no network, so the binary (built here
# with `cargo build --profile native -p annosat-trainer --features cuda`, candle's CUDA libraries
# loaded at run time), the encoder and the data travel with it.
#
#   scripts/gpu/finetune.sh [--tiny] OUT
#
#   ANNOSAT_BIN   the annosat binary (default: the native build)
#   ANNOSAT_DATA  the datasets (default: ../shared/data); ANNOSAT_MODEL the encoder folder
#   --tiny        CPU, 80 items, 2 N × 2 arms × 1 seed × 1 epoch: the test command's guard that the
#                 script and the export it writes keep working where no GPU is lent
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tiny=0
if [ "${1:-}" = "--tiny" ]; then tiny=1; shift; fi
out=${1:?usage: scripts/gpu/finetune.sh [--tiny] OUT}
bin=${ANNOSAT_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/annosat/target}/native/annosat}
data=${ANNOSAT_DATA:-$root/../shared/data}
model=${ANNOSAT_MODEL:-$HOME/.cache/annosat/models/all-MiniLM-L6-v2}
mkdir -p "$out/models"
t0=$(date +%s)
if [ "$tiny" = 1 ]; then
  flags=(--device cpu --limit 80 --n 1,3 --arms hard,soft --model-seeds 1 --epochs 1 --batch 8)
else
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  flags=(--device cuda --n 1,3,10,30,100 --arms hard,ls0.1,soft --model-seeds 3 --epochs 3 --batch 32)
fi
"$bin" finetune --data "$data/chaosnli_snli" --model-dir "$model" --split-seed 42 "${flags[@]}" \
  --out "$out/finetune.json" --export "$out/models"
printf 'fine-tuned in %d s; export in %s/models/chaosnli_snli_finetune\n' $(($(date +%s) - t0)) "$out"
