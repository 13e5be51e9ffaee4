#!/usr/bin/env bash
# extrapolation-check.sh - how far `annosat extrapolate` can be trusted: the dense sets (ChaosNLI
# SNLI, MNLI and αNLI, KonIQ-10k when present, CIFAR-10H, Pavlick & Kwiatkowski's NLI) cut to 3, 5,
# 10, 20 and 40 votes with 5 seeds, extrapolated back and compared with their own 90% points
# (scripts/extrapolation_check.py).
#
#   scripts/extrapolation-check.sh               print the check table
#   scripts/extrapolation-check.sh --calibrate   also write the identification margins it measures
#                                                into core/src/extrapolate/calibration.rs
#   scripts/extrapolation-check.sh --docs        also write the table into docs/intervals.md
#                                                (run after --calibrate and a rebuild: the table
#                                                shows the intervals of the binary it ran)
#   scripts/extrapolation-check.sh --calibrate --docs   both from one run (the table shows the
#                                                intervals the new margins give)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-cli.sh
case "${1:-} ${2:-}" in
  "--calibrate --docs") python3 scripts/extrapolation_check.py "$bin" "$ANNOSAT_DATA" --calibrate core/src/extrapolate/calibration.rs --docs docs/intervals.md ;;
  "--calibrate "*) python3 scripts/extrapolation_check.py "$bin" "$ANNOSAT_DATA" --calibrate core/src/extrapolate/calibration.rs ;;
  "--docs "*) python3 scripts/extrapolation_check.py "$bin" "$ANNOSAT_DATA" --docs docs/intervals.md ;;
  *) python3 scripts/extrapolation_check.py "$bin" "$ANNOSAT_DATA" ;;
esac
echo "extrapolation-check: $(( $(date +%s) - start )) s" >&2
