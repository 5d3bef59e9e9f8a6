#!/usr/bin/env bash
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
(cd .gpu/build && ctest -L gpu -R "dasp" -j8 --timeout 300 --output-on-failure) > $OUT/ctest-gpu-dasp.log 2>&1; echo "ctest: $?"; grep -E "tests passed|Failed|Timeout" $OUT/ctest-gpu-dasp.log | head
$B gen --set large > /dev/null 2>&1; $B gen --set small > /dev/null 2>&1
$B run -c docs/perf/ini/2026-11-24-dasp-regs-f64.ini data --set small --set large --reps 20 --time-budget-ms 100 -o $OUT/regs.csv > $OUT/regs.log 2>&1; echo "run: $?"
python3 - <<'PY'
import csv,os
t={}
for r in csv.DictReader(open(os.environ['OUT']+'/regs.csv')):
  if r['status']=='ok': t.setdefault(r['matrix'],{})[r['instance']]=float(r['ms'])*1000
  else: print(r['matrix'], r['instance'], r['status'], r['message'][:100])
for m,d in sorted(t.items()):
  print(m[:16].ljust(16), ' '.join(f"{k}={v:.1f}" for k,v in sorted(d.items())))
PY
