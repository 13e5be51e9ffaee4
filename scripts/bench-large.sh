#!/usr/bin/env bash
# bench-large.sh - the CLI on a big vote file: wall time and peak memory of `annosat curves` (every
# N from 1 to 100, 50 repeats) on a generated wide file (scripts/make-big-votes.py).
#   scripts/bench-large.sh [--readme] [ITEMS]   default 9,800,000 items (about 212 MB); --readme
#                                               also rewrites docs/limits.md's block from this run
# Needs the CLI built (cargo build --profile native -p annosat-trainer) and GNU time.
set -euo pipefail
readme=0
if [ "${1:-}" = --readme ]; then readme=1; shift; fi
items=${1:-9800000}
. "$(dirname "$0")/big-votes.sh"
big_votes "$items"
size=$(stat -c %s "$dir/votes.csv")
/usr/bin/time -f '%e %M' -o "$dir/time" "$CARGO_TARGET_DIR/native/annosat" curves --votes "$dir/votes.csv" >"$dir/curves.csv"
read -r secs kb <"$dir/time"
echo "annosat curves on $items items ($((size / 1000000)) MB), $(nproc) cores: ${secs} s, peak memory $((kb / 1024)) MiB;" \
  "$(($(wc -l <"$dir/curves.csv") - 1)) curve rows written" | tee "$dir/summary.txt"
if [ "$readme" = 1 ]; then
  python3 "$root/scripts/bench_readme.py" large "$dir/summary.txt" "$root/docs/limits.md"
fi
