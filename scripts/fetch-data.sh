#!/usr/bin/env bash
# fetch-data.sh - make the datasets available to tests and to the app, without committing them.
#
#   scripts/fetch-data.sh            ensure a data directory exists; print its path
#   scripts/fetch-data.sh --app      also bundle every dataset into public/data/ for the app, and
#                                    put the encoder's F16 copy into public/encoder/
#                                    (scripts/fetch-model.sh --app; serve.sh, build-site.sh and
#                                    test.sh call this before trunk)
#
# Where data comes from, in order:
#   1. $ANNOSAT_DATA, if set;
#   2. ../shared/data beside the clone (the project's machines have it);
#   3. ~/.cache/annosat/data, filled on first use by scripts/download/fetch.py: it downloads each of
#      the 19 datasets' original files from its public GitHub repository at a pinned commit
#      (raw.githubusercontent.com; table in scripts/download/sources.py), checks their hashes and
#      converts them into the same votes.csv / annotations.csv / items.jsonl as ../shared/data.
#      A dataset that cannot be downloaded is reported and skipped; only ChaosNLI-SNLI (the default
#      dataset) is required. `python3 scripts/download/fetch.py ~/.cache/annosat/data` retries.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

find_data() {
  if [ -n "${ANNOSAT_DATA:-}" ]; then echo "$ANNOSAT_DATA"; return; fi
  if [ -f "$root/../shared/data/chaosnli_snli/votes.csv" ]; then (cd "$root/../shared/data" && pwd); return; fi
  local cache="$HOME/.cache/annosat/data"
  # The stamp marks a finished download run, so failed datasets are not retried on every call.
  if [ ! -f "$cache/chaosnli_snli/votes.csv" ] || [ ! -f "$cache/.fetched" ]; then
    echo "fetch-data: downloading the datasets' public sources into $cache" >&2
    python3 "$root/scripts/download/fetch.py" "$cache" >&2 || {
      echo "fetch-data: cannot download ChaosNLI-SNLI (the default dataset); put the datasets in ../shared/data or set ANNOSAT_DATA" >&2
      exit 1
    }
    touch "$cache/.fetched"
  fi
  echo "$cache"
}

data=$(find_data)
if [ "${1:-}" = "--app" ]; then
  # The app fetches compact per-dataset files and an index from data/; public/data/ is git-ignored.
  # `annosat bundle` builds them with the same core the app runs (statistics computed, not typed).
  # The CLI without its `models` feature: no candle, so this compiles in about a minute.
  # A dataset of the downloads table that the data folder lacks but ../shared/incoming holds (data
  # an issue brought in, kept there until it moves beside the others) is converted from its
  # originals there (hashes checked, as a download) into the cache and bundled with the rest.
  more=()
  if [ -d "$root/../shared/incoming" ]; then
    extra="$HOME/.cache/annosat/incoming"
    python3 "$root/scripts/download/fetch.py" "$extra" --from "$root/../shared/incoming" \
      --missing-from "$data" >&2 || echo "fetch-data: a dataset in ../shared/incoming did not convert" >&2
    [ -d "$extra" ] && more=(--data "$extra")
  fi
  cargo run -q --profile native --locked -p annosat-trainer --no-default-features -- \
    bundle --data "$data" "${more[@]}" --out "$root/public/data" >&2
  # The encoder the model worker runs on uploaded texts. Without it the app still works; its
  # "embed your texts" step says how to add the encoder.
  if ! bash "$root/scripts/fetch-model.sh" --app >/dev/null; then
    echo "fetch-data: no encoder for the app (scripts/fetch-model.sh --app failed); uploads with texts cannot be embedded" >&2
    mkdir -p "$root/public/encoder"
  fi
fi
echo "$data"
