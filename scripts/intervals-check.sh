#!/usr/bin/env bash
# intervals-check.sh - the item intervals against known answers (core/tests/item_intervals.rs:
# bootstrap standard error vs sd/√I, the squared distance's closed form, coverage of the
# population's 90% point on synthetic data), and `annosat curves` on a dataset with 100 votes per
# item and on one with 10 (its headline extrapolated). --docs writes both into docs/intervals.md,
# between <!-- intervals-check:begin --> and <!-- intervals-check:end -->.
#
#   scripts/intervals-check.sh [--docs]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
command -v cargo >/dev/null || bash scripts/setup.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh)
export ANNOSAT_DATA
start=$(date +%s)
out=$(mktemp)
trap 'rm -f "$out" "$out".*' EXIT
cargo test -q --locked --profile native -p annosat-core --test item_intervals -- --nocapture --test-threads 1 \
  2>&1 | grep -E 'ratio|closed form|covered by' | sed 's/^\.*//' > "$out.tests"
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
bin="$CARGO_TARGET_DIR/native/annosat"
"$bin" curves --votes "$ANNOSAT_DATA/chaosnli_snli/votes.csv" 2>&1 >/dev/null | grep -E '^(answer| )' > "$out.snli"
"$bin" curves --votes "$ANNOSAT_DATA/snow2008_rte/votes.csv" 2>&1 >/dev/null | grep -E '^(answer| |note: points)' > "$out.rte"
{
  echo 'Written by `scripts/intervals-check.sh --docs` from its run.'
  echo
  echo '`cargo test -p annosat-core --test item_intervals -- --nocapture` (bootstrap standard error against sd/√I; the engine'"'"'s draws against the closed form; coverage on synthetic data):'
  echo
  echo '```text'
  cat "$out.tests"
  echo '```'
  echo
  echo '`annosat curves --votes chaosnli_snli/votes.csv` (100 votes per item; stderr):'
  echo
  echo '```text'
  cat "$out.snli"
  echo '```'
  echo
  echo '`annosat curves --votes snow2008_rte/votes.csv` (10 votes per item; stderr):'
  echo
  echo '```text'
  cat "$out.rte"
  echo '```'
} > "$out.block"
cat "$out.block"
if [ "${1:-}" = --docs ]; then
  python3 scripts/bench_readme.py --block intervals-check "$out.block" docs/intervals.md
fi
echo "intervals-check: $(( $(date +%s) - start )) s" >&2
