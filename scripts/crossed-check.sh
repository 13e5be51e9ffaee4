#!/usr/bin/env bash
# crossed-check.sh - item-only against crossed (items × annotators) intervals on real files with
# annotator ids (scripts/crossed_check.py); --docs writes the curves' table into docs/intervals.md
# and worth's and the annotator ranking's into docs/worth.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-cli.sh
tests=$(mktemp)
wtests=$(mktemp)
trap 'rm -f "$tests" "$wtests"' EXIT
cargo test -q --locked --profile native -p annosat-core --test crossed -- --nocapture 2>&1 \
  | grep 'held by the item interval' > "$tests"
cargo test -q --locked --profile native -p annosat-core --test crossed_worth -- --nocapture 2>&1 \
  | grep 'held by the item-and-split interval' > "$wtests"
if [ "${1:-}" = --docs ]; then
  python3 scripts/crossed_check.py "$bin" "$ANNOSAT_DATA" --tests "$tests" --docs docs/intervals.md \
    --worth-tests "$wtests" --worth-docs docs/worth.md
else
  python3 scripts/crossed_check.py "$bin" "$ANNOSAT_DATA" --tests "$tests"
fi
echo "crossed-check: $(( $(date +%s) - start )) s" >&2
