#!/usr/bin/env bash
# Nsight Compute, detailed sections: coo and cuSPARSE COO on uniform-k32 and rmat-s22-ef4, dasp and cuSPARSE CSR on rmat-s22-ef4.
. "$(dirname "$0")/session.sh"
M=/tmp/m; gen_mtx $M uniform-k32 rmat-s22-ef4
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
