#!/usr/bin/env bash
# ratings-docs.sh - writes docs/ratings.md's generated example from `annosat ratings` and
# `annosat agree` on the rating sets (scripts/ratings_docs.py).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-cli.sh
python3 scripts/ratings_docs.py "$bin" "$ANNOSAT_DATA" docs/ratings.md
echo "ratings-docs: $(( $(date +%s) - start )) s" >&2
