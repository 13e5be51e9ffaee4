# Source me: the environment annosat's scripts build and test in.
export PATH="${ANNOSAT_TOOLS:-$HOME/.cache/annosat/tools}/bin:$HOME/.cargo/bin:$PATH"
# Build outputs stay outside the clone, so fresh clones (CI) reuse them.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/annosat/target}"
# Trunk must use the local wasm-opt (npm binaryen 132), never download one.
export TRUNK_TOOLS_WASM_OPT=version_132
export TRUNK_SKIP_VERSION_CHECK=true
