#!/usr/bin/env bash
# build-site.sh - write the app as a static site that works from any static host, at the root or
# under a sub-path (e.g. https://user.github.io/annosat/): every asset, worker and data URL in it is
# relative.
#
#   scripts/build-site.sh [DIR]     (default: dist/)
#
# Then copy DIR anywhere and serve it as plain files, e.g.
#   python3 -m http.server -d DIR 8000      → http://127.0.0.1:8000/
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
bash scripts/setup.sh serve
. scripts/env.sh
bash scripts/fetch-data.sh --app >/dev/null
trunk build --release --public-url ./ --dist "$out"
echo "build-site.sh: static site in $out ($(du -sh "$out" | cut -f1))" >&2
