#!/usr/bin/env bash
# cuda-toolchain.sh - a CUDA toolchain for building `annosat-trainer --features cuda` on a machine
# with no GPU and no CUDA install, from PyPI wheels only. Idempotent: installs only what is missing.
#
#   scripts/cuda-toolchain.sh            install if missing, then self-test (nvcc --version, a probe .cu)
#   scripts/cuda-toolchain.sh --env      install if missing, print `export ...` lines for cargo (eval them)
#   . scripts/cuda-toolchain.sh          install if missing, export the same variables into this shell
#
#   eval "$(scripts/cuda-toolchain.sh --env)"
#   cargo build --locked --profile native -p annosat-trainer --features cuda
#
# Why CUDA 13: NVIDIA's cu12 wheels (nvidia-cuda-nvcc-cu12, 12.0 .. 12.9) ship only ptxas and
# libnvvm, no nvcc/cicc/cudafe++/fatbinary, so no 12.x nvcc can be assembled from PyPI. The CUDA 13
# wheels are a complete toolchain laid out as one tree, <prefix>/nvidia/cu13/{bin,include,lib,nvvm},
# which is exactly the layout nvcc.profile, cudaforge (candle-kernels' build script: root = nvcc/..,
# include = root/include) and cudarc (link search root/lib, root/lib/stubs) expect.
# The version must be one cudarc (0.19.10: 11.4 .. 13.4) knows, or its build script panics.
# Consequence for the GPU machine: the binary needs CUDA 13 user-space libraries (libcudart.so.13,
# libcublas.so.13, libcublasLt.so.13, libnvrtc.so.13, libcurand.so.10) and an R580+ driver
# (libcuda.so.1; the PTX is ISA 9.0, which only a CUDA 13 driver can JIT).
#
# Linking without a GPU: candle-core 0.11.1 builds cudarc with `dynamic-linking` (not dlopen), so the
# final link needs -lcuda -lnvrtc -lcublas -lcublasLt -lcurand, and candle-kernels adds -lcudart.
# libcudart is real (from the runtime wheel). The others are link-time stubs generated here, like the
# toolkit's own lib64/stubs: a shared object with the right SONAME that defines every function cudarc
# declares (names taken from cudarc's src/*/sys/mod.rs). They sit in lib/stubs under a name
# (libcuda.so) the loader never looks for, so at run time the real libcuda.so.1 etc. are used.
#
# Size: about 105 MB of wheels, about 280 MB installed (nvcc 37 MB, nvvm/cicc 62 MB, runtime 2 MB,
# crt 0.1 MB, cccl 3 MB wheels). Host compiler: the system gcc (Debian 12: gcc 12), which CUDA 13.0
# supports, so NVCC_CCBIN is left unset (setting it makes cudaforge add -allow-unsupported-compiler).
# Build time: candle-kernels' nvcc step (11 PTX files; 15 objects for libmoe.a, the mmq_gguf
# instances the slowest) took about 15 minutes on an older 2-core machine with one nvcc at a time;
# `cargo check --features cuda` with CUDAFORGE_THREADS=2 took 206 s in all on the 2-core AMD EPYC
# of docs/tests.md's CI timing. The binary built this way does not
# start without libcuda.so.1 (it is a load-time dependency), so CI can build it but not run it.

_cuda_tc_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Pinned, mutually consistent CUDA 13.0 wheels (override all five together, if at all).
: "${ANNOSAT_CUDA_NVCC:=nvidia-cuda-nvcc==13.0.88}"       # bin/: nvcc, cudafe++, ptxas, fatbinary, nvlink, nvcc.profile
: "${ANNOSAT_CUDA_NVVM:=nvidia-nvvm==13.0.88}"            # nvvm/bin/cicc (the CUDA C++ -> PTX front end), libnvvm, libdevice
: "${ANNOSAT_CUDA_CRT:=nvidia-cuda-crt==13.0.88}"         # include/crt/*.h: host_config.h etc., nvcc includes them for every .cu
: "${ANNOSAT_CUDA_RUNTIME:=nvidia-cuda-runtime==13.0.96}" # include/: cuda.h, cuda_runtime.h, cuda_fp16/bf16/fp8.h; lib/libcudart.so.13
: "${ANNOSAT_CUDA_CCCL:=nvidia-cuda-cccl==13.0.85}"       # include/cccl: cub, thrust, libcu++ (<cuda/std/limits> in candle's sort.cu)
: "${ANNOSAT_CUDA_MAJOR:=13}"                              # the wheels' tree is nvidia/cu$MAJOR; also the SONAME of the stubs
: "${ANNOSAT_CUDARC_CUDA_VERSION:=13000}"                  # cudarc's name for 13.0 (also what it reads from nvcc --version)
# Where it goes: one folder per pin set, so changing the pins never mixes two versions.
: "${ANNOSAT_CUDA_PREFIX:=$HOME/.cache/annosat/cuda/${ANNOSAT_CUDA_NVCC##*==}}"
ANNOSAT_CUDA_ROOT="$ANNOSAT_CUDA_PREFIX/nvidia/cu$ANNOSAT_CUDA_MAJOR"

_cuda_tc_log() { printf '== cuda-toolchain: %s\n' "$*" >&2; }

# cudarc's version, from Cargo.lock (the stubs must cover the functions it links).
_cuda_tc_cudarc_version() {
  awk '/^name = "cudarc"$/{getline; gsub(/[^0-9.]/,""); print; exit}' "$_cuda_tc_root/Cargo.lock"
}

# A directory holding cudarc's sources: cargo's registry copy, else the crate from crates.io,
# checked against Cargo.lock's sha256.
_cuda_tc_cudarc_src() {
  local v=$1 d sum crate
  for d in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/cudarc-"$v"; do
    [ -f "$d/src/driver/sys/mod.rs" ] && { echo "$d"; return 0; }
  done
  d="$ANNOSAT_CUDA_PREFIX/src/cudarc-$v"
  [ -f "$d/src/driver/sys/mod.rs" ] && { echo "$d"; return 0; }
  sum=$(awk -v v="$v" '/^name = "cudarc"$/{getline; if ($0 ~ "\"" v "\"") {getline; getline; gsub(/.*= "|"/,""); print; exit}}' "$_cuda_tc_root/Cargo.lock")
  crate="$ANNOSAT_CUDA_PREFIX/src/cudarc-$v.crate"
  mkdir -p "$ANNOSAT_CUDA_PREFIX/src"
  _cuda_tc_log "downloading cudarc $v from crates.io (for the link stubs' symbol lists)"
  curl -sSfL -o "$crate" "https://static.crates.io/crates/cudarc/cudarc-$v.crate"
  echo "$sum  $crate" | sha256sum -c --quiet - >&2 || { _cuda_tc_log "cudarc-$v.crate: checksum mismatch"; return 1; }
  tar -xzf "$crate" -C "$ANNOSAT_CUDA_PREFIX/src"
  echo "$d"
}

# Link-time stub libraries: libX.so with SONAME libX.so.N, defining every `pub unsafe fn` of
# cudarc's sys module for X. Never loaded at run time (the loader asks for the SONAME, not libX.so).
_cuda_tc_stubs() {
  local v src stubs m lib soname tmp
  v=$(_cuda_tc_cudarc_version)
  [ -n "$v" ] || { _cuda_tc_log "no cudarc in Cargo.lock"; return 1; }
  stubs="$ANNOSAT_CUDA_ROOT/lib/stubs"
  [ -f "$stubs/.cudarc-$v" ] && return 0
  src=$(_cuda_tc_cudarc_src "$v") || return 1
  _cuda_tc_log "generating link stubs in $stubs (symbols of cudarc $v)"
  rm -rf "$stubs"; mkdir -p "$stubs"
  tmp=$(mktemp -d)
  # module  library   SONAME (CUDA 13: the toolkit libraries carry the major; curand stays at 10)
  while read -r m lib soname; do
    grep -oE '^pub unsafe fn [A-Za-z_][A-Za-z0-9_]*' "$src/src/$m/sys/mod.rs" | awk '{print $4}' | sort -u |
      awk '{print "void " $1 "(void) {}"}' > "$tmp/$lib.c"
    [ -s "$tmp/$lib.c" ] || { _cuda_tc_log "no symbols for $m in $src"; rm -rf "$tmp"; return 1; }
    gcc -shared -fPIC -nostdlib -Wl,-soname,"$soname" -o "$stubs/$lib.so" "$tmp/$lib.c"
  done <<EOF
driver   libcuda     libcuda.so.1
nvrtc    libnvrtc    libnvrtc.so.$ANNOSAT_CUDA_MAJOR
cublas   libcublas   libcublas.so.$ANNOSAT_CUDA_MAJOR
cublaslt libcublasLt libcublasLt.so.$ANNOSAT_CUDA_MAJOR
curand   libcurand   libcurand.so.10
EOF
  rm -rf "$tmp"
  touch "$stubs/.cudarc-$v"
}

_cuda_tc_install() {
  local pins="$ANNOSAT_CUDA_NVCC $ANNOSAT_CUDA_NVVM $ANNOSAT_CUDA_CRT $ANNOSAT_CUDA_RUNTIME $ANNOSAT_CUDA_CCCL"
  if [ "$(cat "$ANNOSAT_CUDA_PREFIX/.pins" 2>/dev/null)" != "$pins" ] || [ ! -x "$ANNOSAT_CUDA_ROOT/bin/nvcc" ]; then
    command -v gcc >/dev/null || { _cuda_tc_log "gcc is missing (nvcc's host compiler)"; return 1; }
    python3 -m pip --version >/dev/null 2>&1 || { _cuda_tc_log "python3 -m pip is missing (apt-get install python3-pip)"; return 1; }
    _cuda_tc_log "pip install $pins -> $ANNOSAT_CUDA_PREFIX (about 105 MB download)"
    rm -rf "$ANNOSAT_CUDA_PREFIX.tmp"
    # --no-deps: the wheels' own requirements are unpinned (nvidia-cuda-nvcc 13.0 would pull the
    # newest nvidia-nvvm); --target: a plain folder, no venv, and no PEP 668 conflict.
    # shellcheck disable=SC2086
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps --target "$ANNOSAT_CUDA_PREFIX.tmp" $pins >&2 || return 1
    rm -rf "$ANNOSAT_CUDA_PREFIX"
    mv "$ANNOSAT_CUDA_PREFIX.tmp" "$ANNOSAT_CUDA_PREFIX"
    # -lcudart needs the unversioned name; the wheel ships only libcudart.so.13.
    ln -sf "libcudart.so.$ANNOSAT_CUDA_MAJOR" "$ANNOSAT_CUDA_ROOT/lib/libcudart.so"
    echo "$pins" > "$ANNOSAT_CUDA_PREFIX/.pins"
  fi
  [ -e "$ANNOSAT_CUDA_ROOT/lib/libcudart.so" ] || ln -sf "libcudart.so.$ANNOSAT_CUDA_MAJOR" "$ANNOSAT_CUDA_ROOT/lib/libcudart.so"
  _cuda_tc_stubs
}

# The variables cargo's build scripts read. ${VAR:-default} keeps a caller's choice.
_cuda_tc_env() {
  cat <<EOF
export PATH='$ANNOSAT_CUDA_ROOT/bin':"\$PATH"
export NVCC='$ANNOSAT_CUDA_ROOT/bin/nvcc'
export CUDA_HOME='$ANNOSAT_CUDA_ROOT'
export CUDA_PATH='$ANNOSAT_CUDA_ROOT'
export CUDA_ROOT='$ANNOSAT_CUDA_ROOT'
export CUDA_COMPUTE_CAP="\${CUDA_COMPUTE_CAP:-90}"
export CUDARC_CUDA_VERSION='$ANNOSAT_CUDARC_CUDA_VERSION'
export CUDAFORGE_THREADS="\${CUDAFORGE_THREADS:-\$(nproc)}"
EOF
}
# PATH, NVCC: cudaforge (candle-kernels) runs \$NVCC, else nvcc from PATH; cudarc runs `nvcc --version`.
# CUDA_HOME/CUDA_PATH/CUDA_ROOT: cudarc adds <root>/lib and <root>/lib/stubs to the link search path.
# CUDA_COMPUTE_CAP=90: the H200 (sm_90); without it cudaforge asks nvidia-smi and fails here.
# CUDAFORGE_THREADS: cudaforge runs nvcc on half the cores by default (one, on these machines); all
# cores build candle's kernels about twice as fast here.
# CUDARC_CUDA_VERSION: pins cudarc's bindings to the installed toolkit instead of parsing nvcc.

_cuda_tc_selftest() {
  local tmp; tmp=$(mktemp -d)
  "$ANNOSAT_CUDA_ROOT/bin/nvcc" --version >&2 || return 1
  cat > "$tmp/probe.cu" <<'EOF'
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <cuda/std/limits>
__global__ void probe(const __nv_bfloat16 *x, __half *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2half(__bfloat162float(x[i]) + cuda::std::numeric_limits<float>::epsilon());
}
EOF
  # The flags candle-kernels' build script (cudaforge) uses for its PTX and for its static library.
  "$ANNOSAT_CUDA_ROOT/bin/nvcc" -gencode=arch=compute_${CUDA_COMPUTE_CAP:-90},code=sm_${CUDA_COMPUTE_CAP:-90} --ptx \
    --default-stream per-thread --output-directory "$tmp" --expt-relaxed-constexpr -std=c++17 -O3 "$tmp/probe.cu" &&
  "$ANNOSAT_CUDA_ROOT/bin/nvcc" -gencode=arch=compute_${CUDA_COMPUTE_CAP:-90},code=sm_${CUDA_COMPUTE_CAP:-90} -c -o "$tmp/probe.o" \
    --default-stream per-thread --expt-relaxed-constexpr -std=c++17 -O3 -Xcompiler -fPIC "$tmp/probe.cu" &&
  gcc -o "$tmp/probe" -x c - -x none "$tmp/probe.o" -L"$ANNOSAT_CUDA_ROOT/lib" -L"$ANNOSAT_CUDA_ROOT/lib/stubs" \
    -lcudart -lcuda -lnvrtc -lcublas -lcublasLt -lcurand -lstdc++ <<<'int main(void){return 0;}' || { rm -rf "$tmp"; return 1; }
  _cuda_tc_log "self-test ok: $(grep -m1 '^\.version' "$tmp/probe.ptx") $(grep -m1 '^\.target' "$tmp/probe.ptx"), object + link ok"
  rm -rf "$tmp"
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
  # Sourced: install (in a subshell, so `set -e` never leaks into the caller), then export.
  if ( set -euo pipefail; _cuda_tc_install ); then eval "$(_cuda_tc_env)"; else _cuda_tc_log "install failed"; fi
else
  set -euo pipefail
  _cuda_tc_install
  case "${1:-}" in
    --env) _cuda_tc_env ;;
    "") eval "$(_cuda_tc_env)"; _cuda_tc_selftest; _cuda_tc_env >&2 ;;
    *) echo "usage: $0 [--env]" >&2; exit 2 ;;
  esac
fi
