#!/usr/bin/env bash
# bench-bootstrap.sh - what the item bootstrap costs: `annosat curves` (every N to 100, 50 repeats)
# on a generated wide file (scripts/make-big-votes.py) with --bootstrap 0 and with --bootstrap 200,
# wall time and peak memory of each and their ratio, measured in one run.
#   scripts/bench-bootstrap.sh [--docs] [ITEMS]   default 1,000,000 items (past 6,000 items on 100 N
#                                                 the bootstrap resamples blocks of items); --docs
#                                                 writes the result into docs/intervals.md
set -euo pipefail
docs=0
if [ "${1:-}" = --docs ]; then docs=1; shift; fi
items=${1:-1000000}
. "$(dirname "$0")/big-votes.sh"
big_votes "$items"
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
bin="$CARGO_TARGET_DIR/native/annosat"
for b in 0 200; do
  /usr/bin/time -f '%e %M' -o "$dir/time-$b" "$bin" curves --votes "$dir/votes.csv" --bootstrap "$b" \
    --no-extrapolate --format json >"$dir/out-$b.json" 2>/dev/null
done
read -r s0 k0 <"$dir/time-0"
read -r s1 k1 <"$dir/time-200"
python3 - "$items" "$s0" "$k0" "$s1" "$k1" "$dir/out-200.json" >"$dir/summary.txt" <<'PY'
import json, sys
items, s0, k0, s1, k1, out = int(sys.argv[1]), *map(float, sys.argv[2:6]), sys.argv[6]
b = json.load(open(out))["bootstrap"]
how = f"{b['units']} blocks of items" if b["blocks"] else "single items"
print(f"annosat curves on {items} items: --bootstrap 0 {s0:.1f} s, {k0 / 1024:.0f} MiB; --bootstrap 200 "
      f"{s1:.1f} s, {k1 / 1024:.0f} MiB ({how}): time ×{s1 / s0:.2f}, memory ×{k1 / k0:.2f}")
PY
cat "$dir/summary.txt"
if [ "$docs" = 1 ]; then
  { echo "Written by \`scripts/bench-bootstrap.sh --docs\` from its run ($(nproc) cores):"; echo; cat "$dir/summary.txt"; } >"$dir/block.md"
  python3 "$root/scripts/bench_readme.py" --block bench-bootstrap "$dir/block.md" "$root/docs/intervals.md"
fi
