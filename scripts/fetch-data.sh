#!/usr/bin/env bash
# fetch-data.sh - make the datasets available to tests and to the app, without committing them.
#
#   scripts/fetch-data.sh            ensure a data directory exists; print its path
#   scripts/fetch-data.sh --app      also bundle every dataset into public/data/ for the app (Trunk hook)
#
# Where data comes from, in order:
#   1. $ANNOSAT_DATA, if set;
#   2. ../shared/data beside the clone (the project's machines have it);
#   3. ~/.cache/annosat/data, filled on first use by downloading ChaosNLI v1.0 from its public
#      re-host (github jsbaan/calibration-on-disagreement-data, which includes ChaosNLI verbatim;
#      license CC BY-NC 4.0, Nie et al. 2020) and converting it with scripts/chaosnli_to_votes.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

find_data() {
  if [ -n "${ANNOSAT_DATA:-}" ]; then echo "$ANNOSAT_DATA"; return; fi
  if [ -f "$root/../shared/data/chaosnli_snli/votes.csv" ]; then (cd "$root/../shared/data" && pwd); return; fi
  local cache="$HOME/.cache/annosat/data"
  if [ ! -f "$cache/chaosnli_snli/votes.csv" ]; then
    local commit=990e81cacadac5d0268160d1c02bad19d4ddb9a3
    local base="https://raw.githubusercontent.com/jsbaan/calibration-on-disagreement-data/$commit/data/chaosNLI_v1.0"
    local tmp; tmp=$(mktemp -d)
    echo "fetch-data: downloading ChaosNLI v1.0 into $cache" >&2
    for f in chaosNLI_snli.jsonl chaosNLI_mnli_m.jsonl chaosNLI_alphanli.jsonl; do
      curl -fsSL --retry 3 -o "$tmp/$f" "$base/$f" || {
        echo "fetch-data: cannot download $base/$f; put the datasets in ../shared/data or set ANNOSAT_DATA" >&2
        exit 1
      }
    done
    python3 "$root/scripts/chaosnli_to_votes.py" "$tmp" "$cache"
    rm -rf "$tmp"
  fi
  echo "$cache"
}

data=$(find_data)
if [ "${1:-}" = "--app" ]; then
  # The app fetches compact per-dataset files and an index from data/; public/data/ is git-ignored.
  # `annosat bundle` builds them with the same core the app runs (statistics computed, not typed).
  cargo run -q --release --locked -p annosat-trainer -- bundle --data "$data" --out "$root/public/data" >&2
fi
echo "$data"
