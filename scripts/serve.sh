#!/usr/bin/env bash
# serve.sh - serve the annosat app on http://127.0.0.1:8080 with ChaosNLI-SNLI as the default dataset.
# Installs what is missing first (see setup.sh). Extra arguments go to `trunk serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
trunk serve --release "$@"
