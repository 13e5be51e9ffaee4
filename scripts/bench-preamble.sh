# bench-preamble.sh - sourced by the benchmarks that run the app as well as the CLI (bench.sh,
# bench-answer.sh): installs what is missing, sets the toolchain and ANNOSAT_DATA (the datasets
# and the app's bundles), and defines `stamp WHAT` (a timing line on stderr, named after
# $bench_name). Set bench_name before sourcing.
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
t0=$(date +%s)
stamp() { printf '== %s: %s (%d s)\n' "$bench_name" "$*" "$(($(date +%s) - t0))" >&2; }
