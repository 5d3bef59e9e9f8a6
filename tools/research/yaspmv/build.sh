#!/bin/sh
# Builds yaSpMV's OpenCL test program (byzhang/yaspmv, nvidia/spmv) from an
# upstream tree given on the command line, into OUT (default
# .research/bin/yaspmv), against the system OpenCL headers and the ICD
# loader. A copy of nvidia/ is patched in a temporary folder; the source
# stays as it was.
#   tools/research/yaspmv/build.sh /path/to/yaspmv [OUT]
set -eu
src=${1:?usage: build.sh UPSTREAM_TREE [OUT]}
out=${2:-.research/bin/yaspmv}
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$src/nvidia/spmv/test.cpp" ] || { echo "build.sh: $src has no nvidia/spmv/test.cpp (not a yaspmv tree)" >&2; exit 2; }
[ -f /usr/include/CL/cl.h ] || { echo "build.sh: no OpenCL headers in /usr/include/CL (apt-get install opencl-headers ocl-icd-opencl-dev)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/nvidia" "$work/nvidia"
# yaspmv-gpu-platform.patch: the first OpenCL platform with a GPU, not
# platform 0 (a machine that also lists a CPU platform puts it first).
patch -p1 -s -d "$work" < "$here/yaspmv-gpu-platform.patch"
mkdir -p "$(dirname "$out")"
# The Makefile's command (g++ -O3, init.cpp and test.cpp) with the system headers.
g++ -O3 -w -DCL_TARGET_OPENCL_VERSION=120 -I"$work/nvidia/spmv" -I"$work/nvidia" -o "$out" \
    "$work/nvidia/init.cpp" "$work/nvidia/spmv/test.cpp" -lOpenCL
echo "built $out (run it from $src/nvidia/spmv: it reads kernel/*.cl there)"
