#!/usr/bin/env bash
# sweep-all.sh - regenerate every committed model export under public/models/ and the reproduction
# table, printing each step's duration. Resumable: finished groups are reused (~/.cache/annosat/sweep).
#
#   scripts/sweep-all.sh [DATA_DIR]     DATA_DIR defaults to $ANNOSAT_DATA or ../shared/data
#
# Head features for the NLI sets: the set scripts/feature-study.sh chose on validation
# (docs/feature-study.md, "Chosen by …: **SET**"); αNLI keeps the default embeddings (the other
# blocks need premise/hypothesis pairs).
# 1. the three ChaosNLI sets: every arm × N ∈ {1…100} × model seeds 0–4 × split seeds 42/43/44
# 2. ChaosNLI-SNLI against held-out annotators (targets from 80 votes: N up to 80)
# 3. ChaosNLI SNLI + MNLI pooled (annosat pool, 3,113 items), 5-fold cross-validation, 2 model seeds,
#    nine arms: every item is tested once per seed, so entropy correlation has a usable interval
# 4. the synthetic control (annosat synth, 1,000 items, 100 votes, α = 1): features with noise
#    σ = 0.25, 1 and 4, nine arms, split 42, 3 model seeds
# 5. annosat repro: reproduction.json and the README's generated section
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
data=${1:-${ANNOSAT_DATA:-$root/../shared/data}}
cache=${ANNOSAT_CACHE:-$HOME/.cache/annosat}
t_all=$(date +%s)
step() { printf '\n==== %s\n' "$1"; t0=$(date +%s); }
took() { printf '==== %d s\n' $(($(date +%s) - t0)); }

step "build the trainer"
cargo build --locked --profile native -p annosat-trainer
a="$CARGO_TARGET_DIR/native/annosat"
took

arms9=hard,ls0.1,soft,dirichlet,sls,multipass,temp_hard,constant,knn
features=$(grep -o 'Chosen by .*\*\*[a-z+]*\*\*' docs/feature-study.md | grep -o '\*\*[a-z+]*\*\*' | tr -d '*')
echo "head features for the NLI sets: ${features:?docs/feature-study.md names no chosen set}"

step "1. ChaosNLI SNLI, MNLI, αNLI"
"$a" sweep --out public/models --features "$features" --data "$data/chaosnli_snli" "$data/chaosnli_mnli"
"$a" sweep --out public/models --data "$data/chaosnli_alphanli"
took
step "2. ChaosNLI-SNLI, held-out annotators"
"$a" sweep --out public/models --heldout --ns 1,2,3,5,7,10,15,20,30,50,80 --features "$features" --data "$data/chaosnli_snli"
took
step "3. SNLI + MNLI pooled, 5-fold"
"$a" pool --data "$data/chaosnli_snli" "$data/chaosnli_mnli" --out "$cache/pooled/chaosnli_nli_pooled"
"$a" sweep --out public/models --folds 5 --seeds 2 --arms "$arms9" --features "$features" --data "$cache/pooled/chaosnli_nli_pooled"
took
step "4. synthetic control"
for s in 0.25 1 4; do
  "$a" synth --out "$cache/synth/synthetic_noise$s" --feature-noise "$s"
  "$a" sweep --out public/models --splits 42 --seeds 3 --arms "$arms9" --data "$cache/synth/synthetic_noise$s"
done
took
step "5. reproduction table and the README's generated section"
"$a" repro --models public/models --readme README.md
took
printf '\n==== all exports in %d s; public/models is %s\n' $(($(date +%s) - t_all)) "$(du -sh public/models | cut -f1)"
