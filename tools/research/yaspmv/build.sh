#!/bin/sh
# Builds yaSpMV's OpenCL test program (byzhang/yaspmv, nvidia/spmv) from an
# upstream tree given on the command line, into OUT (default
# .research/bin/yaspmv), against the system OpenCL headers and the
# driver's libOpenCL.
#   tools/research/yaspmv/build.sh /path/to/yaspmv [OUT]
set -eu
src=${1:?usage: build.sh UPSTREAM_TREE [OUT]}
out=${2:-.research/bin/yaspmv}
[ -f "$src/nvidia/spmv/test.cpp" ] || { echo "build.sh: $src has no nvidia/spmv/test.cpp (not a yaspmv tree)" >&2; exit 2; }
[ -f /usr/include/CL/cl.h ] || { echo "build.sh: no OpenCL headers in /usr/include/CL (apt-get install opencl-headers ocl-icd-opencl-dev)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
# The Makefile's command (g++ -O3, init.cpp and test.cpp) with the system headers.
g++ -O3 -w -DCL_TARGET_OPENCL_VERSION=120 -I"$src/nvidia/spmv" -I"$src/nvidia" -o "$out" "$src/nvidia/init.cpp" "$src/nvidia/spmv/test.cpp" -lOpenCL
echo "built $out (run it from $src/nvidia/spmv: it reads kernel/*.cl there)"
