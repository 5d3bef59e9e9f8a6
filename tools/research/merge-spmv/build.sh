#!/bin/sh
# Builds the merge-spmv GPU program (dumerrill/merge-spmv, gpu_spmv.cu) from
# an upstream tree given on the command line, patched for CUDA 13 in a copy
# of the tree (the tree itself is left as it is), into OUT (default
# .research/bin/merge_spmv), for ARCH (default sm_90). Beside OUT it writes
# OUT_f64 and OUT_f32, which take the .mtx file as their only argument, as
# tools/research/run.sh calls every program.
#   tools/research/merge-spmv/build.sh UPSTREAM_TREE [OUT [ARCH]]
set -eu
src=${1:?usage: build.sh UPSTREAM_TREE [OUT [ARCH]]}
out=${2:-.research/bin/merge_spmv}
arch=${3:-sm_90}
nvcc=${NVCC:-nvcc}
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$src/gpu_spmv.cu" ] || { echo "build.sh: $src has no gpu_spmv.cu (not a merge-spmv tree)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$src"/. "$work"
(cd "$work" && patch -p1 --quiet < "$here/merge-spmv-cuda13.patch") ||
  { echo "build.sh: merge-spmv-cuda13.patch does not apply to $src: extract commit 18895571 afresh (README.md)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
# The Makefile's flags (-O3, -ffloat-store, the tree's own CUB first) for
# ARCH; no cuSPARSE (its comparisons are compiled out by the patch) and the
# CUDA runtime linked statically, so the binary needs only the driver.
"$nvcc" -arch="$arch" -O3 -Xcompiler -ffloat-store -cudart static -I"$work" \
  -o "$out" "$work/gpu_spmv.cu" -w
# wrap NAME FLAGS: NAME FILE.mtx runs OUT FLAGS --mtx=FILE.mtx, as run.sh
# calls every program (fp64 unless --fp32). The wrapper expands $0 and $1.
# shellcheck disable=SC2016
wrap() { printf '#!/bin/sh\nexec "$(dirname "$0")/%s" %s--mtx="$1"\n' "$(basename "$out")" "$2" > "$1" && chmod +x "$1"; }
wrap "${out}_f64" ""
wrap "${out}_f32" "--fp32 "
echo "built $out ${out}_f64 ${out}_f32"
