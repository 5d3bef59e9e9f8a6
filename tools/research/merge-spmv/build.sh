#!/bin/sh
# Builds the merge-spmv GPU program (dumerrill/merge-spmv) for sm_90 from
# an upstream tree given on the command line, into OUT (default
# .research/bin/merge_spmv), patched for CUDA 13 in a copy of the tree.
#   tools/research/merge-spmv/build.sh /path/to/merge-spmv [OUT]
set -eu
src=${1:?usage: build.sh UPSTREAM_TREE [OUT]}
out=${2:-.research/bin/merge_spmv}
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$src/gpu_spmv.cu" ] || { echo "build.sh: $src has no gpu_spmv.cu (not a merge-spmv tree)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$src"/. "$work"
(cd "$work" && patch -p1 --quiet < "$here/merge-spmv-cuda13.patch")
mkdir -p "$(dirname "$out")"
# The Makefile's flags (-O3, -ffloat-store, the tree's own CUB first) for sm_90.
nvcc -arch=sm_90 -O3 -Xcompiler -ffloat-store -I"$work" -o "$out" "$work/gpu_spmv.cu" -lcusparse
echo "built $out"
