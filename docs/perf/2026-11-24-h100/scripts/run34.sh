#!/usr/bin/env bash
# dasp at the final commit: its GPU tests, the three sets, and the original DASP program beside it.
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
(cd .gpu/build && ctest -L gpu -R "dasp" -j8 --timeout 300 --output-on-failure) > $OUT/ctest-gpu.log 2>&1; echo "ctest: $?"; grep -E "tests passed|Failed|Timeout" $OUT/ctest-gpu.log | head
$B gen --set large > /dev/null 2>&1; $B gen --set small > /dev/null 2>&1
$B run -c docs/perf/ini/2026-11-24-dasp-final-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/dasp-final.csv > $OUT/dasp-final.log 2>&1; echo "levels: $?"
M=/tmp/mtx; mkdir -p $M
[ -e $M/stencil2d5-2000.mtx ] || $B gen stencil2d5 --n 2000 -o $M/stencil2d5-2000.mtx >/dev/null &
[ -e $M/stencil3d7-128.mtx ] || $B gen stencil3d7 --n 128 -o $M/stencil3d7-128.mtx >/dev/null &
[ -e $M/banded-bw4.mtx ] || $B gen banded --n 2000000 --bandwidth 4 -o $M/banded-bw4.mtx >/dev/null &
[ -e $M/blocks-3x3.mtx ] || $B gen blocks --block_rows 120000 --bpr 20 --r 3 --c 3 --spread 200 -o $M/blocks-3x3.mtx >/dev/null &
[ -e $M/rmat-s20-ef8-sym.mtx ] || $B gen rmat --scale 20 --edge_factor 8 --undirected 1 -o $M/rmat-s20-ef8-sym.mtx >/dev/null &
[ -e $M/mixed-1m.mtx ] || $B gen mixed --n 1000000 --short_len 4 --medium_len 64 --long_len 1024 --short_frac 0.9 --medium_frac 0.09 -o $M/mixed-1m.mtx >/dev/null &
[ -e $M/rmat-s22-ef4.mtx ] || $B gen rmat --scale 22 --edge_factor 4 -o $M/rmat-s22-ef4.mtx >/dev/null &
wait
F="data/1138_bus.mtx.gz /work/shared/matrices/G3_circuit.mtx.gz $M/stencil2d5-2000.mtx $M/stencil3d7-128.mtx $M/banded-bw4.mtx $M/blocks-3x3.mtx $M/rmat-s20-ef8-sym.mtx $M/mixed-1m.mtx $M/rmat-s22-ef4.mtx"
PROGRAMS="dasp_f64" tools/research/run.sh $OUT/research3.csv $F > /dev/null 2>&1; echo "research: $?"
$B run -p dasp,cusparse $F --reps 30 --time-budget-ms 150 -o $OUT/research3-ours.csv > /dev/null 2>&1; echo "ours: $?"
cat $OUT/research3.csv
python3 - <<'PY'
import csv,os
for r in csv.DictReader(open(os.environ['OUT']+'/research3-ours.csv')):
    print(r['matrix'], r['instance'], r['status'], round(float(r['ms'] or 0)*1000,1))
PY
