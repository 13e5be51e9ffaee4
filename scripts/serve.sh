#!/usr/bin/env bash
# serve.sh - serve the annosat app on http://127.0.0.1:8080 with ChaosNLI-SNLI as the default dataset.
#
# Installs the wasm toolchain if missing (setup.sh serve: no browser, numpy or candle), bundles the
# datasets into public/data/ (the CLI built without candle), then runs `trunk serve` on the page and
# its curve worker only. The model worker (candle and tokenizers: most of a cold build) is built
# after the first page is up, in the background, by `trunk build` of its own small page into
# ~/.cache/annosat/model-worker-site/, and served under /model-worker/ through trunk's proxy; the
# page reads where it is from a <meta name="annosat-model-worker"> tag. So a brand-new machine shows
# the explorer as soon as the page is built, and training works once this script says "model worker
# ready". Trunk rebuilds and reloads the page only when a source of the app changes (Trunk.toml
# [watch]); bundling happens here, once, not in a build hook, so serving never rebuilds by itself.
# (The generated .serve.html is index.html without the model worker: rerun serve.sh after editing
# index.html.) Extra arguments go to `trunk serve` (e.g. --port 9000). scripts/build-site.sh builds
# everything into one static site instead.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
t0=$(date +%s)
bash scripts/setup.sh serve
. scripts/env.sh
bash scripts/fetch-data.sh --app >/dev/null
echo "serve.sh: toolchain and data ready after $(($(date +%s) - t0)) s; building the page" >&2

port=8080 prev=""
for a in "$@"; do
  [ "$prev" = "--port" ] && port=$a
  case $a in --port=*) port=${a#--port=} ;; esac
  prev=$a
done
mw_site=${ANNOSAT_MODEL_WORKER_SITE:-$HOME/.cache/annosat/model-worker-site}
mkdir -p "$mw_site"
mw_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# The page: index.html without the model worker's link, told where the model worker is served.
grep -v 'annosat-model-worker\|The model worker (candle)\|-O1: -O3 took' index.html |
  sed 's|<meta charset="utf-8" />|<meta charset="utf-8" />\n    <meta name="annosat-model-worker" content="model-worker/" />|' >.serve.html
# The model worker's own page: its link, as in the full site, so Trunk builds it exactly so. Trunk
# insists on a main app; the page's own (built already, and not optimised again here) costs nothing.
{
  echo '<!DOCTYPE html><html><head><meta charset="utf-8" />'
  grep 'data-bin="annosat-app"' index.html | sed 's/data-wasm-opt="[0-9]*"/data-wasm-opt="0"/'
  grep 'data-bin="annosat-model-worker"' index.html
  echo '</head><body></body></html>'
} >.model-worker.html

python3 -m http.server --bind 127.0.0.1 --directory "$mw_site" "$mw_port" >/dev/null 2>&1 &

# After the first page is served: the model worker, unless the one built last time is current.
(
  until curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; do sleep 2; done
  tm=$(date +%s)
  log=$HOME/.cache/annosat/model-worker-build.log
  wasm=$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/annosat-model-worker.wasm
  if cargo build --quiet --release --target wasm32-unknown-unknown --manifest-path model-worker/Cargo.toml \
       --features worker --bin annosat-model-worker >"$log" 2>&1 &&
     { [ "$mw_site/annosat-model-worker_bg.wasm" -nt "$wasm" ] ||
       trunk build .model-worker.html --release --dist "$mw_site" >>"$log" 2>&1; }; then
    echo "serve.sh: model worker ready after $(($(date +%s) - tm)) s more (training in the tab works now)" >&2
  else
    echo "serve.sh: the model worker failed to build (see $log); the explorer works, training does not" >&2
  fi
) &

# Trunk's live-reload script is injected after the CSP hook: the served page allows inline scripts.
export ANNOSAT_CSP_SERVE=1
exec trunk serve .serve.html --release --proxy-backend="http://127.0.0.1:$mw_port/" --proxy-rewrite=/model-worker/ "$@"
