#!/usr/bin/env bash
# pilot-check.sh - the pilot's closed loop on real votes (scripts/pilot_check.py): dense sets cut
# to 5 votes, the recommended pilots' real votes added, answered again.
#
#   scripts/pilot-check.sh          print the table
#   scripts/pilot-check.sh --docs   also write it into docs/intervals.md
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-cli.sh
if [ "${1:-}" = --docs ]; then
  python3 scripts/pilot_check.py "$bin" "$ANNOSAT_DATA" --docs docs/intervals.md
else
  python3 scripts/pilot_check.py "$bin" "$ANNOSAT_DATA"
fi
echo "pilot-check: $(( $(date +%s) - start )) s" >&2
