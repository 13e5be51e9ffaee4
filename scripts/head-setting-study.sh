#!/usr/bin/env bash
# head-setting-study.sh - choose the heads' training setting on validation: for ChaosNLI SNLI and
# MNLI on the feature set docs/feature-study.md chose, train hard and soft heads under four settings
# (hidden width × learning rate; N ∈ {1, 10, 100}, split seeds 42–43, model seeds 0–1) and write
# docs/head-setting.md: each setting's validation KL against the validation items' own N votes, the
# test metrics beside it, and the setting the validation KL chooses by the one-standard-error rule
# (scripts/sweep-all.sh reads it).
# Prints each step's duration.
#   scripts/head-setting-study.sh [DATA_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
data=${1:-${ANNOSAT_DATA:-$root/../shared/data}}
study=${ANNOSAT_CACHE:-$HOME/.cache/annosat}/head-setting-study
mkdir -p "$study"
t_all=$(date +%s)
cargo build --locked --profile native -p annosat-trainer
a="$CARGO_TARGET_DIR/native/annosat"
features=$(grep -o 'Chosen by .*\*\*[a-z+]*\*\*' docs/feature-study.md | grep -o '\*\*[a-z+]*\*\*' | tr -d '*')
settings="64:0.001 256:0.001 64:0.0003 256:0.0003"
for s in $settings; do
  t0=$(date +%s)
  hidden=${s%%:*} lr=${s##*:}
  "$a" sweep --data "$data/chaosnli_snli" "$data/chaosnli_mnli" --out "$study/out/h$hidden-lr$lr" \
    --work "$study/work" --features "$features" --hidden "$hidden" --lr "$lr" \
    --arms hard,soft --n 1,10,100 --split-seed 42,43 --model-seeds 2 >/dev/null
  printf 'hidden %-4s lr %-7s %4d s\n' "$hidden" "$lr" $(($(date +%s) - t0))
done
python3 scripts/head_setting_report.py "$study/out" "$settings" "$features" > docs/head-setting.md
printf 'wrote docs/head-setting.md in %d s\n' $(($(date +%s) - t_all))
