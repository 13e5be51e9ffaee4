#!/usr/bin/env bash
# feature-study.sh - choose head features on validation: for ChaosNLI SNLI and MNLI, build each
# feature set with `annosat features` (pair, joint, lexical, token alignment and combinations), train
# the soft arm and the kNN baseline on it (N ∈ {1, 10, 100}, split seeds 42–44, model seeds 0–1) and
# write docs/feature-study.md: validation and test metrics of every set, and the set chosen by the
# validation entropy correlation of soft at N=100. Prints each step's duration.
#   scripts/feature-study.sh [DATA_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
data=${1:-${ANNOSAT_DATA:-$root/../shared/data}}
study=${ANNOSAT_CACHE:-$HOME/.cache/annosat}/feature-study
mkdir -p "$study"
t_all=$(date +%s)
cargo build --locked --profile native -p annosat-trainer
a="$CARGO_TARGET_DIR/native/annosat"
sets="pair pair+lexical pair+align joint joint+lexical+align pair+joint+lexical+align"
for ds in chaosnli_snli chaosnli_mnli; do
  for set in $sets; do
    t0=$(date +%s)
    f="$study/features/$ds/$set.safetensors"
    mkdir -p "$(dirname "$f")"
    [ -f "$f" ] || "$a" features --data "$data/$ds" --set "$set" --out "$f" >/dev/null
    "$a" sweep --data "$data/$ds" --out "$study/out/$set" --work "$study/work" --head-features "$f" \
      --pca 0 --arms soft,knn --n 1,10,100 --split-seed 42,43,44 --model-seeds 2 >/dev/null
    printf '%-8s %-28s %4d s\n' "$ds" "$set" $(($(date +%s) - t0))
  done
done
python3 scripts/feature_study_report.py "$study/out" "$sets" > docs/feature-study.md
printf 'wrote docs/feature-study.md in %d s\n' $(($(date +%s) - t_all))
