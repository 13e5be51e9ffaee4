#!/usr/bin/env bash
# soak.sh - keeps the page open MINUTES minutes (30 by default) in headless Chromium while it is
# used, sampling the page's JS heap and the curve workers' wasm memory every minute
# (tests/browser/soak.mjs). A benchmark, not a CI test. --docs writes the result into
# docs/limits.md.
#   scripts/soak.sh [minutes] [--docs]     (builds dist/ with trunk first if it is missing;
#   ANNOSAT_DIST serves another build)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-cli.sh
minutes=30
docs=
for a in "$@"; do
  case $a in
    --docs) docs=1 ;;
    *) minutes=$a ;;
  esac
done
[ -n "${ANNOSAT_DIST:-}" ] || [ -f dist/index.html ] || trunk build --release --public-url ./
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd tests/browser && ANNOSAT_DATA="$ANNOSAT_DATA" node soak.mjs "$minutes" --json "$tmp/soak.json") | tee "$tmp/log.txt"
if [ -n "$docs" ]; then
  python3 - "$tmp/soak.json" "$tmp/log.txt" "$minutes" <<'PY'
import json, sys
sys.path.insert(0, "scripts")
from bench_readme import write_block
r = json.load(open(sys.argv[1]))
log = [l for l in open(sys.argv[2]).read().splitlines() if l.startswith(("minute", "soak:"))]
lines = [f"`scripts/soak.sh {sys.argv[3]} --docs` (headless Chromium, this machine) printed:", "", "```text", *log, "```"]
write_block("docs/limits.md", "soak", lines)
PY
fi
echo "soak: $(( $(date +%s) - start )) s" >&2
