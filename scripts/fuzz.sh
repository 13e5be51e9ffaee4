#!/usr/bin/env bash
# fuzz.sh - run annosat's coverage-guided fuzz targets (cargo-fuzz / libFuzzer, tests/fuzz).
#   scripts/fuzz.sh [SECONDS_EACH] [TARGET…]     default: 20 s each, every target
#   scripts/fuzz.sh --merge [TARGET…]             fold the grown corpus into the committed one
# Targets: import_csv (CSV vote import, wide and long, every delimiter; texts files), bundle_decode
# (the app's dataset files), manifest (model-export manifest, exports index, reproduction table).
# Each starts from tests/fuzz/seeds/<target> (hand-written), tests/fuzz/corpus/<target> (the found
# corpus, committed, minimised with --merge) and what it grew before in
# ~/.cache/annosat/fuzz-corpus/<target> (new inputs go there, never into the clone), and stops at the first crash, leak
# or hang (an input over 10 s); a crash's input is left in tests/fuzz/artifacts/<target>/ and the
# script fails. Copy such an input into tests/fuzz/regressions/ so the test suite keeps it.
# Prints, per target, the time run, the executions and the coverage reached.
# Builds on stable Rust with `--sanitizer none` (the machine's one toolchain): libFuzzer's coverage
# guidance needs no sanitizer, and Rust's own checks (bounds, overflow with debug assertions, which
# cargo-fuzz turns on) are the crash detectors.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
merge=false
if [ "${1:-}" = --merge ]; then merge=true; shift; secs=0; else secs=${1:-20}; shift || true; fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(import_csv bundle_decode manifest)
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz@0.13.2
fuzz_dir=tests/fuzz
t0=$(date +%s)
blog=$(mktemp)
cargo fuzz build --fuzz-dir "$fuzz_dir" -s none -O --debug-assertions >"$blog" 2>&1 || { cat "$blog"; exit 1; }
rm -f "$blog"
echo "built in $(($(date +%s) - t0)) s"
corpus_root=${ANNOSAT_FUZZ_CORPUS:-$HOME/.cache/annosat/fuzz-corpus}
if $merge; then
  for t in "${targets[@]}"; do
    mkdir -p "$fuzz_dir/corpus/$t"
    cargo fuzz run --fuzz-dir "$fuzz_dir" -s none -O --debug-assertions "$t" "$fuzz_dir/corpus/$t" \
      "$corpus_root/$t" -- -set_cover_merge=1 -max_len=4096 -timeout=10 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new' || true
    echo "corpus $t: $(ls "$fuzz_dir/corpus/$t" | wc -l) inputs, $(du -sh "$fuzz_dir/corpus/$t" | cut -f1)"
  done
  exit 0
fi
for t in "${targets[@]}"; do
  mkdir -p "$corpus_root/$t" "$fuzz_dir/artifacts/$t" "$fuzz_dir/corpus/$t"
  log=$(mktemp)
  start=$(date +%s)
  if ! cargo fuzz run --fuzz-dir "$fuzz_dir" -s none -O --debug-assertions "$t" \
      "$corpus_root/$t" "$fuzz_dir/corpus/$t" "$fuzz_dir/seeds/$t" -- \
      -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
      -artifact_prefix="$fuzz_dir/artifacts/$t/" -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log"
    echo "FUZZ FAILURE: $t (input in $fuzz_dir/artifacts/$t/)" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  corpus=$(ls "$corpus_root/$t" | wc -l)
  printf 'fuzz %-14s %6d s  %10s executions  coverage %s edges  corpus %s inputs  no crash, no hang\n' \
    "$t" $(($(date +%s) - start)) "$runs" "$cov" "$corpus"
  rm -f "$log"
done
