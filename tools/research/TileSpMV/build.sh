#!/usr/bin/env bash
# Rebuilds TileSpMV (Niu et al., IPDPS'21) for one architecture from its
# upstream source tree, given on the command line (never part of this
# repository): a copy of the tree is patched for CUDA 13 in the build folder,
# the source stays as it was. Flags of its own Makefile (-O3, -fopenmp,
# MAT_VAL_TYPE), the architecture replaced, the CUDA runtime linked
# statically. No network access.
#   tools/research/TileSpMV/build.sh SRC [OUT_DIR, default .research/bin] [ARCH, default sm_90]
# SRC is the repository's root (holding src/main.cu). Builds tilespmv_f64
# and tilespmv_f32 in OUT_DIR.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/src/main.cu" ]; then
  echo "usage: $0 SRC [OUT_DIR] [ARCH]: SRC must be the TileSpMV repository's root, with src/main.cu" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
src=$(cd "$1" && pwd)
out=${2:-$root/.research/bin}
arch=${3:-sm_90}
nvcc=${NVCC:-nvcc}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/src" "$work/src"
# tilespmv-cuda13.patch: builds (no CUDA samples headers, _sync shuffles,
# no cudaDeviceProp::clockRate); csr5-cuda13-run.patch (tools/research, the
# same bundled CSR5): the warm-up functions return, warps synchronise.
patch -p1 -s -d "$work/src" < "$here/tilespmv-cuda13.patch"
patch -p1 -s -d "$work/src/external" < "$here/../csr5-cuda13-run.patch"
for t in double:f64 float:f32; do
  (cd "$work/src" &&
    "$nvcc" -O3 -w -m64 -arch="$arch" -cudart static main.cu -o "$out/tilespmv_${t#*:}" \
      -Xcompiler -fopenmp -D MAT_VAL_TYPE="${t%%:*}")
done
echo "built $out/tilespmv_f64 $out/tilespmv_f32"
