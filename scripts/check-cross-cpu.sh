#!/usr/bin/env bash
# check-cross-cpu.sh - docs/bit-identity.md's "bit-identical on any x86-64 CPU" claim, checked on a second CPU
# model without a second machine: qemu-x86_64 (user mode, Debian's qemu-user) runs the same binary
# as a Haswell (AVX2 + FMA, no AVX-512). It re-trains the committed ChaosNLI-SNLI group (fold 0,
# model seed 0: every arm × N) from the committed head features, natively and under qemu, and
# compares every run's metrics, best epoch and predictions with the committed exports (expected:
# all identical). qemu passes the host's cache geometry through, so this checks independence from
# the SIMD width, not from the caches (that part rests on gemm's code; docs/bit-identity.md).
# Slow under emulation: 4 s natively; under qemu the 10-fold group's fold 0 took over an hour
# on a 2-core Intel Xeon. Not part of scripts/test.sh.
#   scripts/check-cross-cpu.sh [qemu cpu model]     (default Haswell)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cpu=${1:-Haswell}
command -v qemu-x86_64 >/dev/null || { apt-get update -q && apt-get install -y -q --no-install-recommends qemu-user; }
. scripts/env.sh
data=$(bash scripts/fetch-data.sh)/chaosnli_snli
export ANNOSAT_MODEL=${ANNOSAT_MODEL:-$(bash scripts/fetch-model.sh)}
cargo build -q --locked --profile native -p annosat-trainer
bin="$CARGO_TARGET_DIR/native/annosat"
committed=public/models/chaosnli_snli
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The committed sweep's configuration (k-fold): its fold 0, model seed 0, as
# trainer/tests/sweep.rs's committed_exports_regenerate_bit_identically retrains it.
args=$(python3 - "$committed/manifest.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["config"]; h = c["head"]
j = lambda v: ",".join(str(x) for x in v)
print(f"--n {j(c['ns'])} --arms {j(c['arms'])} --folds {c['folds']} --model-seeds 1 --shard 0/{c['folds']}"
      f" --pca {c['pca']} --hidden {h['hidden']} --lr {h['lr']} --weight-decay {h['weight_decay']}"
      f" --batch {h['batch']} --epochs {h['epochs']} --patience {h['patience']}")
PY
)

sweep() { # $1: label, rest: command prefix
  local label=$1; shift
  local t0=$SECONDS
  # shellcheck disable=SC2086
  "$@" "$bin" sweep --data "$data" --out "$tmp/$label" --work "$tmp/w-$label" $args \
    --head-features "$committed/features.safetensors" >/dev/null 2>&1
  python3 - "$committed" "$tmp/w-$label/chaosnli_snli" "$label" $((SECONDS - t0)) <<'PY'
import glob, json, sys
committed, work, label, secs = sys.argv[1:]
m = json.load(open(f"{committed}/manifest.json"))
g = json.load(open(glob.glob(f"{work}/*/split0-seed0.json")[0]))
pc = open(f"{committed}/predictions.bin", "rb").read()
per = len(m["splits"][0]["test_items"]) * len(m["classes"]) * 2
same = differ = 0
for r in g["runs"]:
    o = next(o for o in m["runs"] if (o["arm"], o["n"], o["split"], o["seed"]) == (r["arm"], r["n"], 0, 0))
    fresh = b"".join(int(p).to_bytes(2, "little") for p in r["probs"])
    ok = (o["metrics"] == r["metrics"] and o["best_epoch"] == r["best_epoch"]
          and pc[o["offset"] * 2:o["offset"] * 2 + per] == fresh)
    same += ok; differ += not ok
print(f"{label}: {same} runs identical to the committed exports, {differ} differ ({secs} s)")
PY
}

echo "CPU here: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); emulated: qemu -cpu $cpu"
sweep native
sweep "qemu-$cpu" qemu-x86_64 -cpu "$cpu"
