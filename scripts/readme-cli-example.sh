#!/usr/bin/env bash
# readme-cli-example.sh - rewrites docs/cli.md's CLI example block from a run of `annosat curves` on
# ChaosNLI-SNLI: the CSV it prints at N = 1, 10, 100, and the target-side 90% points (every N, with
# and without --heldout 0.2), so the numbers there are this run's, never typed. Run it after any
# change to the curves' sampling.
#   scripts/readme-cli-example.sh      (needs the CLI: cargo build --profile native -p annosat-trainer)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
bin="$CARGO_TARGET_DIR/native/annosat"
votes="$(bash scripts/fetch-data.sh)/chaosnli_snli/votes.csv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" curves --votes "$votes" --n 1,10,100 --format csv >"$tmp/example.csv" 2>/dev/null
"$bin" curves --votes "$votes" --format json --target 0.9 >"$tmp/full.json" 2>/dev/null
"$bin" curves --votes "$votes" --format json --target 0.9 --heldout 0.2 >"$tmp/heldout.json" 2>/dev/null
python3 - "$tmp" >"$tmp/block.md" <<'PY'
import json, sys
tmp = sys.argv[1]
def points(name):
    s = json.load(open(f"{tmp}/{name}.json"))["saturation"]
    return s["kl"], s["entropy_corr"]
(kl, ec), (hkl, hec) = points("full"), points("heldout")
def fmt(p):
    it = p.get("items") or {}
    bounded = "; bounded by the votes" if p.get("bounded_by_votes") else ""
    return f"N={p['n']} (95% over items {it.get('lo')}–{it.get('hi')}, over repeats {p['lo']}–{p['hi']}{bounded})"
fmt_short = fmt
print("```")
print(open(f"{tmp}/example.csv").read().strip())
print("```\n")
print("From the JSON output of the same CLI (every N, `--target 0.9`), target-side 90% points on ChaosNLI-SNLI:")
print(f"`kl` {fmt(kl)}, `entropy_corr` {fmt_short(ec)}; with `--heldout 0.2`: `kl` {fmt_short(hkl)}, "
      f"`entropy_corr` {fmt_short(hec)}. These are properties of the labels alone, not of a model; "
      "docs/intervals.md says what each interval means and when a point is bounded by the votes.")
PY
python3 scripts/bench_readme.py --block cli-example "$tmp/block.md" docs/cli.md
echo "docs/cli.md's CLI example rewritten"
