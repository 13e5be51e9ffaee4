#!/usr/bin/env bash
# submit.sh - submits a sharded sweep to Slurm: an array of SHARDS tasks (sweep.sbatch) and the
# merge (merge.sbatch) that starts only when every task succeeded (--dependency=afterok).
#
#   scripts/slurm/submit.sh SHARDS [sbatch options…] -- --data DIR… --out OUT --work SHARED_WORK [sweep flags…]
#
# Prints the two job ids. Options before `--` go to both sbatch calls (e.g. --partition=gpu,
# --output=logs/%x-%A_%a.out); ANNOSAT_BIN is passed through to the jobs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=${1:?usage: submit.sh SHARDS [sbatch options…] -- <sweep flags>}
shift
opts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
[ "${1:-}" = "--" ] || { echo "submit.sh: put the sweep's flags after --" >&2; exit 2; }
shift
array=$(sbatch --parsable "${opts[@]}" --array="0-$((shards - 1))" "$here/sweep.sbatch" "$@")
array=${array%%;*}
merge=$(sbatch --parsable "${opts[@]}" --dependency="afterok:$array" "$here/merge.sbatch" "$@")
echo "sweep array job $array ($shards shards), merge job ${merge%%;*} (after every shard succeeded)"
