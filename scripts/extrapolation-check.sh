#!/usr/bin/env bash
# extrapolation-check.sh - how far `annosat extrapolate` can be trusted: ChaosNLI SNLI, MNLI and
# αNLI (100 votes per item) cut to 5, 10 and 20 votes, extrapolated back to 100 and compared with
# their own curves (scripts/extrapolation_check.py). --readme writes the table into docs/plan.md,
# between <!-- extrapolation:begin --> and <!-- extrapolation:end -->.
#
#   scripts/extrapolation-check.sh [--readme]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
command -v cargo >/dev/null || bash scripts/setup.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh)
start=$(date +%s)
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
bin="$CARGO_TARGET_DIR/native/annosat"
if [ "${1:-}" = --readme ]; then
  python3 scripts/extrapolation_check.py "$bin" "$ANNOSAT_DATA" --readme docs/plan.md
else
  python3 scripts/extrapolation_check.py "$bin" "$ANNOSAT_DATA"
fi
echo "extrapolation-check: $(( $(date +%s) - start )) s" >&2
