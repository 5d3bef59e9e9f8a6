#!/usr/bin/env bash
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
(cd .gpu/build && ctest -L gpu -R "coo|hyb" -j8 --timeout 300 --output-on-failure) > $OUT/ctest-gpu-coo.log 2>&1; echo "ctest: $?"; grep -E "tests passed|Failed|Timeout" $OUT/ctest-gpu-coo.log | head
M=/tmp/m; mkdir -p $M
[ -e $M/uniform-k32.mtx ] || $B gen uniform --n 500000 --k 32 -o $M/uniform-k32.mtx >/dev/null &
[ -e $M/uniform-k8.mtx ] || $B gen uniform --n 2000000 --k 8 -o $M/uniform-k8.mtx >/dev/null &
[ -e $M/rmat-s22-ef4.mtx ] || $B gen rmat --scale 22 --edge_factor 4 -o $M/rmat-s22-ef4.mtx >/dev/null &
[ -e $M/rmat-s20-ef8-sym.mtx ] || $B gen rmat --scale 20 --edge_factor 8 --undirected 1 -o $M/rmat-s20-ef8-sym.mtx >/dev/null &
[ -e $M/mixed-2m.mtx ] || $B gen mixed --n 2000000 --short_len 2 --medium_len 16 --long_len 256 --short_frac 0.8 --medium_frac 0.19 -o $M/mixed-2m.mtx >/dev/null &
[ -e $M/blocks-6x6.mtx ] || $B gen blocks --block_rows 20000 --bpr 20 --r 6 --c 6 --spread 1000 -o $M/blocks-6x6.mtx >/dev/null &
[ -e $M/stencil2d5-2000.mtx ] || $B gen stencil2d5 --n 2000 -o $M/stencil2d5-2000.mtx >/dev/null &
$B gen banded --n 2000000 --bandwidth 4 -o $M/banded-bw4.mtx >/dev/null &
$B gen --set small > /dev/null 2>&1 &
wait
$B run -c docs/perf/ini/2026-11-24-coo-owner-f64.ini data --set small $M/*.mtx --reps 20 --time-budget-ms 100 -o $OUT/cooowner.csv > $OUT/cooowner.log 2>&1; echo "coo run: $?"
$B run -c docs/perf/ini/2026-11-24-dasp-sweep-f64.ini $M/rmat-s22-ef4.mtx $M/mixed-2m.mtx $M/banded-bw4.mtx $M/rmat-s20-ef8-sym.mtx --reps 20 --time-budget-ms 100 -o $OUT/daspsweep.csv > $OUT/daspsweep.log 2>&1; echo "dasp run: $?"
python3 - <<'PY'
import csv,os
for f in ('cooowner','daspsweep'):
  t={}
  for r in csv.DictReader(open(os.environ['OUT']+'/'+f+'.csv')):
    if r['status']=='ok': t.setdefault(r['matrix'],{})[r['instance']]=float(r['ms'])*1000
    else: print(r['matrix'], r['instance'], r['status'], r['message'][:100])
  for m,d in sorted(t.items()):
    print(m[:16].ljust(16), ' '.join(f"{k}={v:.2f}" for k,v in sorted(d.items())))
PY
