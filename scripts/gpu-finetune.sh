#!/usr/bin/env bash
# gpu-finetune.sh - the one prepared GPU check: fine-tune MiniLM + head for one arm at N = 1, 10, 100
# on ChaosNLI-SNLI and print samples/s and the test metrics. The GPU machine has no cargo and no
# network, so everything it needs is prepared here and carried in gpu/ (git-ignored, < 64 MiB):
#
#   scripts/gpu-finetune.sh --prepare     # here: CUDA build, stripped + xz binary, F16 weights, data
#   bash scripts/gpu-finetune.sh          # there (the device tool: carry ["gpu"]), under 10 minutes
#
# The binary needs CUDA 13 user-space libraries and an R580+ driver (see scripts/cuda-toolchain.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
ARM=${ARM:-soft}
if [ "${1:-}" = "--prepare" ]; then
  eval "$(bash scripts/cuda-toolchain.sh --env)"
  . scripts/env.sh
  cargo build --locked --profile native -p annosat-trainer --features cuda
  rm -rf gpu && mkdir -p gpu/model gpu/data
  strip -o gpu/annosat "$CARGO_TARGET_DIR/native/annosat"
  xz -T0 -9 gpu/annosat
  model=$(bash scripts/fetch-model.sh)
  cp "$model"/{config.json,tokenizer.json,modules.json} gpu/model/
  # F16 halves the weights (90 -> 45 MB); the trainer converts them back to F32 on load.
  python3 - "$model/model.safetensors" gpu/model/model.safetensors <<'PY'
import json, struct, sys
import numpy as np
src, dst = sys.argv[1], sys.argv[2]
raw = open(src, "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
header = json.loads(raw[8:8 + n]); body = raw[8 + n:]
out_header, chunks, off = {}, [], 0
for name, info in header.items():
    if name == "__metadata__":
        out_header[name] = info; continue
    a, b = info["data_offsets"]
    arr = np.frombuffer(body[a:b], dtype=np.float32).astype(np.float16)
    chunks.append(arr.tobytes())
    out_header[name] = {"dtype": "F16", "shape": info["shape"], "data_offsets": [off, off + len(chunks[-1])]}
    off += len(chunks[-1])
h = json.dumps(out_header).encode(); h += b" " * (-len(h) % 8)
with open(dst, "wb") as f:
    f.write(struct.pack("<Q", len(h))); f.write(h)
    for c in chunks: f.write(c)
PY
  data=$(bash scripts/fetch-data.sh)
  mkdir -p gpu/data/chaosnli_snli
  cp "$data"/chaosnli_snli/{votes.csv,items.jsonl} gpu/data/chaosnli_snli/
  du -sh gpu; du -sb gpu | awk '{ if ($1 > 64*1024*1024) { print "gpu/ is over the 64 MiB carry limit" > "/dev/stderr"; exit 1 } }'
  exit 0
fi
[ -f gpu/annosat.xz ] || { echo "gpu/ is missing: run scripts/gpu-finetune.sh --prepare first and carry gpu" >&2; exit 1; }
xz -dk gpu/annosat.xz 2>/dev/null || true
chmod +x gpu/annosat
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
out=${OUT:-/tmp}
time gpu/annosat finetune --device cuda --data gpu/data/chaosnli_snli --model-dir gpu/model \
  --arm "$ARM" --n 1,10,100 --epochs 3 --batch 32 --out "$out/finetune-$ARM.json"
