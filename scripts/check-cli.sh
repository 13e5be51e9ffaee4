# check-cli.sh - sourced by the check scripts that run the candle-free CLI on the datasets
# (extrapolation-check.sh, pilot-check.sh, crossed-check.sh): the toolchain, the data, the CLI.
# Sets ANNOSAT_DATA, bin (the annosat binary) and start (for the script's own timing line).
. scripts/env.sh
command -v cargo >/dev/null || bash scripts/setup.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh)
start=$(date +%s)
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
bin="$CARGO_TARGET_DIR/native/annosat"
