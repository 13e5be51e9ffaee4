#!/usr/bin/env bash
# compare-docs.sh - writes docs/compare.md's generated example from `annosat compare` on two arms
# of the bundled ChaosNLI-SNLI export (scripts/compare_docs.py).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-cli.sh
python3 scripts/compare_docs.py "$bin" "$ANNOSAT_DATA" docs/compare.md
echo "compare-docs: $(( $(date +%s) - start )) s" >&2
