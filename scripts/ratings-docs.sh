#!/usr/bin/env bash
# ratings-docs.sh - writes docs/ratings.md's generated example from `annosat ratings` and
# `annosat agree` on the rating sets (scripts/ratings_docs.py).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-cli.sh
truth=$(mktemp)
trap 'rm -f "$truth"' EXIT
cargo test -q --locked --profile native -p annosat-core --test rating_answers -- --nocapture 2>&1 \
  | grep -oE '(population|KonIQ-10k cut|KonIQ-10k from|rating curves at N).*' > "$truth"
python3 scripts/ratings_docs.py "$bin" "$ANNOSAT_DATA" docs/ratings.md "$truth"
echo "ratings-docs: $(( $(date +%s) - start )) s" >&2
