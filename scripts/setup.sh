#!/usr/bin/env bash
# setup.sh - install what annosat's build and tests need on a fresh Debian machine. Idempotent:
# each step checks first and skips what is already in place. Run as root (or with sudo).
#
# Installs: Debian chromium + chromium-driver (browser tests), fonts, python3 numpy + scipy (the
# independent reference), the wasm32 target (rustup), wasm-opt from npm binaryen (Debian's binaryen
# breaks wasm-bindgen's tables), trunk and wasm-bindgen-cli pinned to Cargo.lock, and the node
# packages of tests/browser (playwright-core; it drives Debian's chromium, never a downloaded one).
# Afterwards: . scripts/env.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
TOOLS=${ANNOSAT_TOOLS:-$HOME/.cache/annosat/tools}
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive PATH="$HOME/.cargo/bin:$PATH"
log() { printf '== setup: %s\n' "$*" >&2; }

# wasm-bindgen-cli must equal the wasm-bindgen the app links (Cargo.lock), or the JS glue breaks.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/[^0-9.]/,""); print; exit}' "$root/Cargo.lock" 2>/dev/null || true)
WASM_BINDGEN_VERSION=${WASM_BINDGEN_VERSION:-0.2.130}

apt_updated=0
apt_install() {
  local missing=() p
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated = 0 ]; then $SUDO apt-get update -q >&2; apt_updated=1; fi
  log "apt-get install ${missing[*]}"
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

apt_install chromium chromium-driver fonts-dejavu-core ca-certificates curl
command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm

if ! python3 -c 'import numpy, scipy' 2>/dev/null; then
  log "pip install numpy scipy"
  python3 -m pip install -q numpy scipy >&2 || python3 -m pip install -q --break-system-packages numpy scipy >&2
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown >&2
fi

mkdir -p "$TOOLS/bin"
if [ "$(node -p "try{require('$TOOLS/binaryen/node_modules/binaryen/package.json').version}catch(e){''}")" != "$BINARYEN_VERSION" ]; then
  log "npm install binaryen@$BINARYEN_VERSION (wasm-opt)"
  mkdir -p "$TOOLS/binaryen"
  npm install --prefix "$TOOLS/binaryen" --no-audit --no-fund "binaryen@$BINARYEN_VERSION" >&2
fi
ln -sf "$TOOLS/binaryen/node_modules/.bin/wasm-opt" "$TOOLS/bin/wasm-opt"

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  log "cargo install trunk $TRUNK_VERSION (about 12 minutes on 2 cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features --features rustls >&2
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --force >&2 ||
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force >&2
fi

if [ ! -d "$root/tests/browser/node_modules/playwright-core" ]; then
  log "npm ci (tests/browser: playwright-core)"
  (cd "$root/tests/browser" && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; } >&2)
fi
log "done"
