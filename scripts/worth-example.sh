#!/usr/bin/env bash
# worth-example.sh - rewrites docs/worth.md's example block from runs of `annosat worth`: what the
# original SNLI crowd's 5 votes per item (votes_old5.csv) are worth in ChaosNLI's 100 annotators,
# and what the expert gold label of RTE (snow2008_rte/gold.csv) is worth in its 10 crowd workers,
# per metric, so the numbers there are these runs', never typed.
#   scripts/worth-example.sh      (needs the CLI: cargo build --profile native -p annosat-trainer)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
bin=${ANNOSAT_BIN:-$CARGO_TARGET_DIR/native/annosat}
data="$(bash scripts/fetch-data.sh)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {  # run VOTES SOURCE: the command, its time, what it printed
  local cmd="annosat worth --votes $1 --source $2"
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" worth --votes "$data/$1" --source "$data/$2" --format csv >"$tmp/out.csv" 2>"$tmp/err.txt"
  t1=$(date +%s.%N)
  echo "\`$cmd\` ($(python3 -c "print(f'{$t1 - $t0:.1f}')") s on $(nproc) cores here) printed:"
  echo
  echo '```'
  grep -v '^\s*$' "$tmp/err.txt" | grep -v 'INFO'
  echo
  cat "$tmp/out.csv"
  echo '```'
}
{
  run chaosnli_snli/votes.csv chaosnli_snli/votes_old5.csv
  echo
  run snow2008_rte/votes.csv snow2008_rte/gold.csv
} >"$tmp/block.md"
python3 scripts/bench_readme.py --block worth-example "$tmp/block.md" docs/worth.md
echo "docs/worth.md's example rewritten"
