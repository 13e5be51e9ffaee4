#!/usr/bin/env bash
# pilot-check.sh - the pilot's closed loop on real votes (scripts/pilot_check.py): dense sets cut
# to 5 votes, the recommended pilots' real votes added, answered again.
#
#   scripts/pilot-check.sh          print the table
#   scripts/pilot-check.sh --docs   also write it into docs/intervals.md
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
command -v cargo >/dev/null || bash scripts/setup.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh)
start=$(date +%s)
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
bin="$CARGO_TARGET_DIR/native/annosat"
if [ "${1:-}" = --docs ]; then
  python3 scripts/pilot_check.py "$bin" "$ANNOSAT_DATA" --docs docs/intervals.md
else
  python3 scripts/pilot_check.py "$bin" "$ANNOSAT_DATA"
fi
echo "pilot-check: $(( $(date +%s) - start )) s" >&2
