#!/usr/bin/env bash
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
M=/tmp/m; mkdir -p $M; ls $M
[ -e $M/uniform-k32.mtx ] || $B gen uniform --n 500000 --k 32 -o $M/uniform-k32.mtx >/dev/null
[ -e $M/rmat-s22-ef4.mtx ] || $B gen rmat --scale 22 --edge_factor 4 -o $M/rmat-s22-ef4.mtx >/dev/null
n=0
prof() { # label matrix kernel-regex spec...
  local label=$1 m=$2 k=$3; shift 3
  timeout 240 ncu --clock-control none -k "regex:$k" --launch-skip 4 --launch-count 1 --set detailed \
    $B run -p "$@" $M/$m.mtx --reps 3 --warmup 3 --time-budget-ms 0 > $OUT/$label.txt 2>&1
  echo "$label: $?"
}
prof u32-cusp uniform-k32 "coomv|[Cc]oo" cusparse --set cusparse.format=coo
prof u32-blk uniform-k32 "^kernel" coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=stream
prof u32-seg uniform-k32 "^kernel" coo --set coo.zero=memset --set coo.kernel=segmented --set coo.loads=stream
prof r22-cusp rmat-s22-ef4 "coomv|[Cc]oo" cusparse --set cusparse.format=coo
prof r22-seg rmat-s22-ef4 "^kernel" coo --set coo.zero=memset --set coo.kernel=segmented --set coo.loads=stream
prof r22-dasp rmat-s22-ef4 "dasp" dasp
prof r22-csr rmat-s22-ef4 "csrmv" cusparse
for f in $OUT/*.txt; do echo "== $f"; grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|Registers Per|Achieved Occ|Theoretical Occ|Mem Busy|Max Bandwidth|Static Shared|Memory Throughput" $f | head -20; done
