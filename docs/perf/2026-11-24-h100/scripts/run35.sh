#!/usr/bin/env bash
# coo and hyb with loads = auto: their GPU tests, then the three sets.
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
(cd .gpu/build && ctest -L gpu -R "coo|hyb" -j8 --timeout 300 --output-on-failure) > $OUT/ctest-gpu.log 2>&1; echo "ctest: $?"; grep -E "tests passed|Failed|Timeout" $OUT/ctest-gpu.log | head
$B gen --set large > /dev/null 2>&1; $B gen --set small > /dev/null 2>&1
$B run -c docs/perf/ini/2026-11-24-coo-loads-auto-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/cooauto.csv > $OUT/cooauto.log 2>&1; echo "run: $?"
