#!/usr/bin/env bash
# coo's owner write with the carry pass in the last block (cooowner.csv), dasp options (daspsweep.csv).
. "$(dirname "$0")/session.sh"
gputest ctest-gpu-coo.log "coo|hyb"
M=/tmp/m; gen_mtx $M uniform-k32 uniform-k8 rmat-s22-ef4 rmat-s20-ef8-sym mixed-2m blocks-6x6 stencil2d5-2000 banded-bw4
$B gen --set small > /dev/null 2>&1
$B run -c docs/perf/ini/2026-11-24-coo-owner-f64.ini data --set small $M/*.mtx --reps 20 --time-budget-ms 100 -o $OUT/cooowner.csv > $OUT/cooowner.log 2>&1; echo "coo run: $?"
$B run -c docs/perf/ini/2026-11-24-dasp-sweep-f64.ini $M/rmat-s22-ef4.mtx $M/mixed-2m.mtx $M/banded-bw4.mtx $M/rmat-s20-ef8-sym.mtx --reps 20 --time-budget-ms 100 -o $OUT/daspsweep.csv > $OUT/daspsweep.log 2>&1; echo "dasp run: $?"
table cooowner daspsweep
