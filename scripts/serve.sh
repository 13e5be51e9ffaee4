#!/usr/bin/env bash
# serve.sh - serve the annosat app on http://127.0.0.1:8080 with ChaosNLI-SNLI as the default dataset.
#
# Installs the wasm toolchain if missing (setup.sh serve: no browser, numpy or candle), bundles the
# datasets into public/data/ (the CLI built without candle), then runs `trunk serve`. Trunk rebuilds
# and reloads the page only when a source of the app changes (Trunk.toml [watch]); bundling happens
# here, once, not in a build hook, so serving never rebuilds by itself. Extra arguments go to
# `trunk serve` (e.g. --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
bash scripts/setup.sh serve
. scripts/env.sh
bash scripts/fetch-data.sh --app >/dev/null
echo "serve.sh: toolchain and data ready after $(($(date +%s) - t0)) s; building the app" >&2
exec trunk serve --release "$@"
