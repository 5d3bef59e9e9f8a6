#!/usr/bin/env bash
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
$B gen --set small > /dev/null 2>&1
$B run -c docs/perf/ini/2026-11-24-coo-small-f64.ini data --set small --reps 30 --time-budget-ms 150 -o $OUT/coosmall.csv > $OUT/coosmall.log 2>&1; echo "run: $?"
python3 - <<'PY'
import csv,os
t={};nz={}
for r in csv.DictReader(open(os.environ['OUT']+'/coosmall.csv')):
  if r['status']=='ok': t.setdefault(r['matrix'],{})[r['instance']]=float(r['ms'])*1000; nz[r['matrix']]=r['nnz']
for m,d in sorted(t.items()):
  print(m[:14].ljust(14), nz[m].rjust(7), ' '.join(f"{k}={v:.2f}" for k,v in sorted(d.items())))
PY
