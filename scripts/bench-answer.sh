#!/usr/bin/env bash
# bench-answer.sh - speed of the whole answer (curves, item intervals, extrapolation with its
# bootstrap, pilots) on KonIQ-10k's 10,073 images: cut to 5 ratings each (seeded), and with all
# their 93–157; natively on one thread and in the app (tests/browser/bench-answer.mjs).
#   scripts/bench-answer.sh [--docs]   --docs also writes the run into docs/speed.md
set -euo pipefail
cd "$(dirname "$0")/.."
bench_name=bench-answer
. scripts/bench-preamble.sh
koniq="$ANNOSAT_DATA/../incoming/koniq10k/votes.csv"
[ -f "$koniq" ] || { echo "bench-answer: KonIQ-10k's votes.csv not found beside the data folder (incoming/koniq10k)" >&2; exit 1; }
cargo build -q --locked --profile native -p annosat-trainer --no-default-features
export ANNOSAT_CLI="$CARGO_TARGET_DIR/native/annosat"
trunk build --release >/dev/null
stamp "built"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$koniq" "$dir/koniq10k-5-votes.csv" <<'PY'
import csv, random, sys
rng = random.Random(5)
rows = list(csv.reader(open(sys.argv[1])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(rows[0])
    for r in rows[1:]:
        pool = [k for k, c in enumerate(map(int, r[1:])) for _ in range(c)]
        got = [0] * (len(r) - 1)
        for k in rng.sample(pool, 5):
            got[k] += 1
        w.writerow([r[0]] + got)
PY
cp "$koniq" "$dir/koniq10k-all-votes.csv"
DOCS=${1:-} bench_report answer node tests/browser/bench-answer.mjs "$dir/koniq10k-5-votes.csv" "$dir/koniq10k-all-votes.csv"
