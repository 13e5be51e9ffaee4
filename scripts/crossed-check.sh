#!/usr/bin/env bash
# crossed-check.sh - item-only against crossed (items × annotators) intervals on real files with
# annotator ids (scripts/crossed_check.py); --docs writes the table into docs/intervals.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
command -v cargo >/dev/null || bash scripts/setup.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh)
start=$(date +%s)
tests=$(mktemp)
trap 'rm -f "$tests"' EXIT
cargo test -q --locked --profile native -p annosat-core --test crossed -- --nocapture 2>&1 \
  | grep 'held by the item interval' > "$tests"
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
bin="$CARGO_TARGET_DIR/native/annosat"
if [ "${1:-}" = --docs ]; then
  python3 scripts/crossed_check.py "$bin" "$ANNOSAT_DATA" --tests "$tests" --docs docs/intervals.md
else
  python3 scripts/crossed_check.py "$bin" "$ANNOSAT_DATA" --tests "$tests"
fi
echo "crossed-check: $(( $(date +%s) - start )) s" >&2
