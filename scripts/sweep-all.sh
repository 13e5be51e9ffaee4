#!/usr/bin/env bash
# sweep-all.sh - regenerate every committed model export under public/models/ and the reproduction
# table, printing each step's duration. Resumable: finished groups are reused (~/.cache/annosat/sweep).
#
#   scripts/sweep-all.sh [DATA_DIR]     DATA_DIR defaults to $ANNOSAT_DATA or ../shared/data
#
# Head features for the NLI sets: the set scripts/feature-study.sh chose on validation
# (docs/feature-study.md, "Chosen by …: **SET**"); αNLI keeps the default embeddings (the other
# blocks need premise/hypothesis pairs). Head setting: the one scripts/head-setting-study.sh chose on
# validation (docs/head-setting.md, "**--hidden H --lr L**"). Every export is k-fold (10 folds), so
# every item is tested once per model seed and the verdicts' intervals cover all items:
# 1. ChaosNLI SNLI and MNLI: every arm × N ∈ {1…100} × 5 model seeds; αNLI: 3 model seeds
# 2. ChaosNLI-SNLI against held-out annotators (targets from 80 votes: N up to 80), nine arms, 2 seeds
# 3. ChaosNLI SNLI + MNLI pooled (annosat pool, 3,113 items), nine arms, 5 model seeds; its verdicts
#    are also given within each source
# 4. the synthetic controls (annosat synth, 2,000 items, 100 votes, α = 1, scored against the truth):
#    linear features (a map of the truth plus noise σ = 0.25 and 4) and twins (pairs sharing a
#    truth, features a random code per pair plus noise σ = 0.1 and 3, and σ = 0.1 with α = 3, where
#    an ideal memoriser's KL saturates before its entropy correlation: scripts/memoriser-control.py);
#    nine arms, 2 model seeds
# 5. annosat repro: reproduction.json and docs/models.md's generated section
# The run's output is also kept in ~/.cache/annosat/sweep-all.log: `python3 scripts/sweep_timing.py
# LOG docs/models.md` writes its step durations into docs/models.md (run after a cold run, by hand).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
data=${1:-${ANNOSAT_DATA:-$root/../shared/data}}
cache=${ANNOSAT_CACHE:-$HOME/.cache/annosat}
t_all=$(date +%s)
mkdir -p "$cache"
exec > >(tee "$cache/sweep-all.log") 2>&1
printf '# machine: %s; %s cores\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(nproc)"
step() { printf '\n==== %s\n' "$1"; t0=$(date +%s); }
took() { printf '==== %d s\n' $(($(date +%s) - t0)); }

step "build the trainer"
if [ -n "${ANNOSAT_BIN:-}" ]; then
  a=$ANNOSAT_BIN  # a binary built before (e.g. copied, so rebuilding during the run cannot swap it)
else
  cargo build --locked --profile native -p annosat-trainer
  a="$CARGO_TARGET_DIR/native/annosat"
fi
took

arms9=hard,ls0.1,soft,dirichlet,sls,multipass,temp_hard,constant,knn
features=$(grep -o 'Chosen by .*\*\*[a-z+]*\*\*' docs/feature-study.md | grep -o '\*\*[a-z+]*\*\*' | tr -d '*')
echo "head features for the NLI sets: ${features:?docs/feature-study.md names no chosen set}"
head=$(grep -o '\*\*--hidden [0-9]* --lr [0-9.e-]*\*\*' docs/head-setting.md | tr -d '*')
echo "head setting: ${head:?docs/head-setting.md names no chosen setting}"
kfold="--folds 10"
# Every export is regenerated: one no longer produced must not linger in index.json.
find public/models -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +

step "1. ChaosNLI SNLI, MNLI, αNLI (10-fold)"
"$a" sweep --out public/models $kfold $head --model-seeds 5 --features "$features" --data "$data/chaosnli_snli" "$data/chaosnli_mnli"
"$a" sweep --out public/models $kfold $head --model-seeds 3 --data "$data/chaosnli_alphanli"
took
step "2. ChaosNLI-SNLI, held-out annotators (10-fold)"
"$a" sweep --out public/models --heldout $kfold $head --model-seeds 2 --arms "$arms9" --n 1,2,3,5,7,10,15,20,30,50,80 --features "$features" --data "$data/chaosnli_snli"
took
step "3. SNLI + MNLI pooled (10-fold)"
"$a" pool --data "$data/chaosnli_snli" "$data/chaosnli_mnli" --out "$cache/pooled/chaosnli_nli_pooled"
"$a" sweep --out public/models $kfold $head --model-seeds 5 --arms "$arms9" --features "$features" --data "$cache/pooled/chaosnli_nli_pooled"
took
step "4. synthetic controls (10-fold, scored against the truth)"
for spec in linear_noise0.25:--feature-noise=0.25 linear_noise4:--feature-noise=4 \
            twins_noise0.1:--twins,--dim=32,--feature-noise=0.1 twins_noise3:--twins,--dim=32,--feature-noise=3 \
            twins_alpha3:--twins,--dim=32,--feature-noise=0.1,--concentration=3; do
  name=synthetic_${spec%%:*}
  flags=$(echo "${spec#*:}" | tr ',=' '  ')
  "$a" synth --out "$cache/synth/$name" --items 2000 $flags
  "$a" sweep --out public/models $kfold $head --model-seeds 2 --truth --arms "$arms9" --data "$cache/synth/$name"
done
took
step "5. reproduction table and docs/models.md's generated section"
"$a" repro --models public/models --readme docs/models.md
took
printf '\n==== all exports in %d s; public/models is %s\n' $(($(date +%s) - t_all)) "$(du -sh public/models | cut -f1)"
