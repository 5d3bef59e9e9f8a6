#!/usr/bin/env bash
# Rebuilds the original research programs for sm_90 from the sources under
# .research/ (fetched here at a pinned commit, never committed), with the
# smallest patches CUDA 13, a current g++ and sm_70+ need:
#   .research/DASP   SuperScientificSoftwareLaboratory/DASP -> .research/bin/dasp_f64, dasp_f16,
#                    and dasp_f64_y_* (y under spmvlab's contract, dasp-y-rows.patch)
#   .research/CSR5   weifengliu-ssslab/Benchmark_SpMV_using_CSR5 -> .research/bin/csr5_f64
#   .research/merge-spmv  dumerrill/merge-spmv -> .research/bin/merge_spmv, merge_spmv_f64, _f32
#                    (merge-spmv/build.sh, merge-spmv/README.md)
# Each with the flags of its own Makefile (DASP: -O3, -fopenmp-simd,
# cuSPARSE and cuBLAS for its cuSPARSE baseline; CSR5: -O3, NUM_RUN=1000),
# the architecture set to sm_90 and the CUDA runtime linked statically.
# Needs the network only the first time, to fetch the sources.
# Usage: tools/research/build.sh [ARCH, default sm_90]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tools/research"
src="$root/.research"
arch=${1:-sm_90}
nvcc=${NVCC:-nvcc}
mkdir -p "$src/bin"

# The commits the patches were written against: a newer tree may not take them.
DASP_URL=https://github.com/SuperScientificSoftwareLaboratory/DASP
DASP_COMMIT=8ce8363599464c92b141366dd2d87014fc266bea
CSR5_URL=https://github.com/weifengliu-ssslab/Benchmark_SpMV_using_CSR5
CSR5_COMMIT=4b06ce35e45c3c61a51e249e12e1c4954af443fa

# fetch DIR URL COMMIT: the tree of URL at COMMIT into DIR, unless DIR exists.
fetch() {
  [ -d "$1" ] && return 0
  git init -q "$1.tmp" &&
    git -C "$1.tmp" fetch -q --depth 1 "$2" "$3" &&
    git -C "$1.tmp" checkout -q FETCH_HEAD &&
    mv "$1.tmp" "$1" ||
    { echo "cannot fetch $2 at $3 into $1" >&2; rm -rf "$1.tmp"; return 1; }
}
fetch "$src/DASP" "$DASP_URL" "$DASP_COMMIT"
fetch "$src/CSR5" "$CSR5_URL" "$CSR5_COMMIT"

# apply PATCH DIR: applies a patch once (a second run finds it applied);
# stops when it neither applies nor is applied (sources edited by hand).
apply() {
  if patch -p1 -R -s -f --dry-run -d "$2" < "$1" > /dev/null 2>&1; then return 0; fi
  if ! patch -p1 -s -f --dry-run -d "$2" < "$1" > /dev/null 2>&1; then
    echo "$(basename "$1") does not apply to $2: extract the sources afresh (README.md)" >&2
    return 1
  fi
  patch -p1 -s -f -d "$2" < "$1"
}

if [ -d "$src/DASP/src" ]; then
  # DASP compiles unchanged with CUDA 13; its Makefile's compiler paths
  # (/usr/local/cuda-12.0, gcc-12.2) and sm_80 target are replaced here.
  (cd "$src/DASP" &&
    "$nvcc" -O3 -m64 -arch="$arch" -cudart static src/main_f64.cu -o "$src/bin/dasp_f64" -D f64 \
      -Xcompiler -fopenmp-simd -lineinfo -lcusparse -lcublas -w &&
    "$nvcc" -O3 -m64 -arch="$arch" -cudart static src/main_f16.cu -o "$src/bin/dasp_f16" \
      -Xcompiler -fopenmp-simd -lineinfo -lcusparse -lcublas -w)
  echo "built $src/bin/dasp_f64 $src/bin/dasp_f16"
  # The same program under spmvlab's contract for y (dasp-y-rows.patch, on a
  # copy): y_rows stores y in A's row order and zeroes the empty rows on every
  # call; y_sorted_zero only zeroes them, y_rows_only only reorders.
  rm -rf "$src/DASP-y" && mkdir -p "$src/DASP-y" && cp -r "$src/DASP/src" "$src/DASP-y/"
  apply "$here/dasp-y-rows.patch" "$src/DASP-y"
  for v in "y_rows:-DDASP_Y_ROWS -DDASP_Y_ZERO" "y_sorted_zero:-DDASP_Y_ZERO" "y_rows_only:-DDASP_Y_ROWS"; do
    (cd "$src/DASP-y" &&
      "$nvcc" -O3 -m64 -arch="$arch" -cudart static src/main_f64.cu -o "$src/bin/dasp_f64_${v%%:*}" -D f64 ${v#*:} \
        -Xcompiler -fopenmp-simd -lineinfo -lcusparse -lcublas -w)
  done
  echo "built $src/bin/dasp_f64_y_rows dasp_f64_y_sorted_zero dasp_f64_y_rows_only"
else
  echo "no $src/DASP: the fetch above failed" >&2
fi

if [ -d "$src/CSR5/CSR5_cuda" ]; then
  apply "$here/csr5-cuda13.patch" "$src/CSR5"     # builds with CUDA 13
  apply "$here/csr5-cuda13-run.patch" "$src/CSR5" # runs: two returns, __syncwarp
  (cd "$src/CSR5/CSR5_cuda" &&
    "$nvcc" -O3 -w -m64 -arch="$arch" -cudart static main.cu -o "$src/bin/csr5_f64" \
      -D VALUE_TYPE=double -D NUM_RUN=1000)
  echo "built $src/bin/csr5_f64"
else
  echo "no $src/CSR5: the fetch above failed" >&2
fi

if [ -f "$src/merge-spmv/gpu_spmv.cu" ]; then
  "$here/merge-spmv/build.sh" "$src/merge-spmv" "$src/bin/merge_spmv" "$arch"
else
  echo "no $src/merge-spmv: fetch it first (tools/research/merge-spmv/README.md)" >&2
fi
