#!/usr/bin/env bash
# setup.sh - install what annosat needs on a fresh Debian machine. Idempotent: each step checks
# first and skips what is already in place. Run as root (or with sudo).
#
#   scripts/setup.sh serve   the wasm toolchain only (what scripts/serve.sh and build-site.sh need):
#                            the wasm32 target (rustup), wasm-opt from npm binaryen (Debian's binaryen
#                            breaks wasm-bindgen's tables), trunk and wasm-bindgen-cli pinned to
#                            Cargo.lock
#   scripts/setup.sh         everything the tests need as well: Debian chromium + chromium-driver,
#                            fonts, python3 numpy + scipy + krippendorff + crowd-kit + irrCAC + pingouin (the independent
#                            references; crowd-kit without its text/learning dependencies), and the node
#                            packages of tests/browser (playwright-core; it drives Debian's chromium,
#                            never a downloaded one). The downloads run while trunk compiles.
#
# trunk and wasm-bindgen-cli are compiled from crates.io (their prebuilt binaries live on GitHub,
# which these machines cannot reach). trunk's own release profile asks for fat LTO with one codegen
# unit (about 12 minutes on 2 cores); a build tool does not need that, so both are built with
# opt-level 2, no LTO and 16 codegen units instead (ANNOSAT_TOOLS_PROFILE=upstream keeps theirs).
# Afterwards: . scripts/env.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-all}
case "$mode" in serve | all) ;; *) echo "usage: setup.sh [serve]" >&2; exit 2 ;; esac
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132.0.0
TOOLS=${ANNOSAT_TOOLS:-$HOME/.cache/annosat/tools}
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive PATH="$TOOLS/bin:$HOME/.cargo/bin:$PATH"
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

# The test-only downloads (network-bound) run in the background while the tools compile.
pip_install() {
  python3 -m pip install -q "$@" >&2 || python3 -m pip install -q --break-system-packages "$@" >&2
}
test_deps() {
  apt_install chromium chromium-driver fonts-dejavu-core ca-certificates curl
  if ! python3 -c 'import numpy, scipy, krippendorff' 2>/dev/null; then
    log "pip install numpy scipy krippendorff"
    pip_install numpy scipy krippendorff==0.9.0
  fi
  # crowd-kit's aggregation needs pandas, attrs, scikit-learn, tqdm and nltk; its declared
  # transformers/pyarrow dependencies serve other modules, so it goes in with --no-deps.
  if ! python3 -c 'from crowdkit.aggregation import DawidSkene' 2>/dev/null; then
    log "pip install crowd-kit (and the packages its aggregation imports)"
    pip_install pandas attrs scikit-learn tqdm nltk
    pip_install --no-deps crowd-kit==1.4.2
  fi
  # irrCAC (Gwet's AC1/AC2, the reference of trainer/tests/gwet.rs) needs only pandas and scipy.
  if ! python3 -c 'from irrCAC.raw import CAC' 2>/dev/null; then
    log "pip install irrCAC"
    pip_install pandas
    pip_install --no-deps irrCAC==0.4.4
  fi
  # pingouin (ICC, the reference of trainer/tests/ratings.rs) with the packages it imports; without
  # its pins, so numpy, scipy and pandas stay as the other references have them.
  if ! python3 -c 'import pingouin' 2>/dev/null; then
    log "pip install pingouin (and the packages it imports)"
    pip_install tabulate pandas_flavor matplotlib seaborn statsmodels
    pip_install --no-deps pingouin==0.5.5
  fi
  if [ ! -d "$root/tests/browser/node_modules/playwright-core" ]; then
    log "npm ci (tests/browser: playwright-core)"
    (cd "$root/tests/browser" && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; } >&2)
  fi
}

command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
mkdir -p "$TOOLS/bin"
bg=""
if [ "$mode" = all ]; then
  test_deps > "$TOOLS/test-deps.log" 2>&1 &
  bg=$!
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown >&2
fi

if [ "$(node -p "try{require('$TOOLS/binaryen/node_modules/binaryen/package.json').version}catch(e){''}")" != "$BINARYEN_VERSION" ]; then
  log "npm install binaryen@$BINARYEN_VERSION (wasm-opt)"
  mkdir -p "$TOOLS/binaryen"
  npm install --prefix "$TOOLS/binaryen" --no-audit --no-fund "binaryen@$BINARYEN_VERSION" >&2
fi
ln -sf "$TOOLS/binaryen/node_modules/.bin/wasm-opt" "$TOOLS/bin/wasm-opt"

tool_profile=()
if [ "${ANNOSAT_TOOLS_PROFILE:-fast}" != upstream ]; then
  tool_profile=(env CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
    CARGO_PROFILE_RELEASE_OPT_LEVEL=2 CARGO_PROFILE_RELEASE_DEBUG=false)
fi
# The tools build in their own target folder, so installing them never touches the project's builds.
export CARGO_TARGET_DIR="$TOOLS/target"
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  log "cargo install trunk $TRUNK_VERSION"
  "${tool_profile[@]}" cargo install --root "$TOOLS" trunk --version "$TRUNK_VERSION" --locked --no-default-features --features rustls >&2
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  "${tool_profile[@]}" cargo install --root "$TOOLS" wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --force >&2 ||
    "${tool_profile[@]}" cargo install --root "$TOOLS" wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force >&2
fi
rm -rf "$TOOLS/target"

if [ -n "$bg" ]; then
  if ! wait "$bg"; then
    cat "$TOOLS/test-deps.log" >&2
    log "installing the test dependencies failed (log above)"
    exit 1
  fi
  cat "$TOOLS/test-deps.log" >&2
fi
log "done ($mode)"
