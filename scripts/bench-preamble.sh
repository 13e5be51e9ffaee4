# bench-preamble.sh - sourced by the benchmarks that run the app as well as the CLI (bench.sh,
# bench-answer.sh): installs what is missing, sets the toolchain and ANNOSAT_DATA (the datasets
# and the app's bundles), and defines `stamp WHAT` (a timing line on stderr, named after
# $bench_name), and `bench_report` (below). Set bench_name before sourcing.
bash scripts/setup.sh
. scripts/env.sh
ANNOSAT_DATA=$(bash scripts/fetch-data.sh --app)
export ANNOSAT_DATA
t0=$(date +%s)
stamp() { printf '== %s: %s (%d s)\n' "$bench_name" "$*" "$(($(date +%s) - t0))" >&2; }
# bench_report KIND CMD…: runs CMD under the benchmark's header line (cores, CPU, date), shows and
# keeps its output, and when the script was given --docs ($1 passed as DOCS) writes it into
# docs/speed.md's KIND block (scripts/bench_readme.py).
bench_report() {
  local kind=$1 out
  shift
  out=$(mktemp)
  {
    echo "annosat $bench_name.sh: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -n 1)), $(date -u +%Y-%m-%d)"
    "$@"
  } | tee "$out"
  stamp "done"
  if [ "${DOCS:-}" = --docs ]; then
    python3 scripts/bench_readme.py "$kind" "$out" docs/speed.md
  fi
  rm -f "$out"
}
