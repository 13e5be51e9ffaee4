#!/usr/bin/env bash
# worth-example.sh - rewrites docs/worth.md's example block from a run of `annosat worth` on
# ChaosNLI-SNLI: what the original SNLI crowd's 5 votes per item (votes_old5.csv) are worth in
# ChaosNLI's 100 annotators, per metric, so the numbers there are this run's, never typed.
#   scripts/worth-example.sh      (needs the CLI: cargo build --profile native -p annosat-trainer)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
bin=${ANNOSAT_BIN:-$CARGO_TARGET_DIR/native/annosat}
data="$(bash scripts/fetch-data.sh)/chaosnli_snli"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmd="annosat worth --votes chaosnli_snli/votes.csv --source chaosnli_snli/votes_old5.csv"
t0=$(date +%s.%N)
"$bin" worth --votes "$data/votes.csv" --source "$data/votes_old5.csv" --format csv >"$tmp/out.csv" 2>"$tmp/err.txt"
t1=$(date +%s.%N)
{
  echo "\`$cmd\` ($(python3 -c "print(f'{$t1 - $t0:.1f}')") s on $(nproc) cores here) printed:"
  echo
  echo '```'
  grep -v '^\s*$' "$tmp/err.txt" | grep -v 'INFO'
  echo
  cat "$tmp/out.csv"
  echo '```'
} >"$tmp/block.md"
python3 scripts/bench_readme.py --block worth-example "$tmp/block.md" docs/worth.md
echo "docs/worth.md's example rewritten"
