#!/usr/bin/env bash
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
(cd .gpu/build && ctest -L gpu -R "coo|hyb" -j8 --timeout 300 --output-on-failure) > $OUT/ctest-gpu-coo.log 2>&1; echo "ctest: $?"; grep -E "tests passed|Failed|Timeout" $OUT/ctest-gpu-coo.log | head
M=/tmp/m; mkdir -p $M
$B gen uniform --n 500000 --k 32 -o $M/uniform-k32.mtx >/dev/null &
$B gen uniform --n 2000000 --k 8 -o $M/uniform-k8.mtx >/dev/null &
$B gen rmat --scale 22 --edge_factor 4 -o $M/rmat-s22-ef4.mtx >/dev/null &
$B gen rmat --scale 20 --edge_factor 8 --undirected 1 -o $M/rmat-s20-ef8-sym.mtx >/dev/null &
$B gen mixed --n 2000000 --short_len 2 --medium_len 16 --long_len 256 --short_frac 0.8 --medium_frac 0.19 -o $M/mixed-2m.mtx >/dev/null &
$B gen blocks --block_rows 20000 --bpr 20 --r 6 --c 6 --spread 1000 -o $M/blocks-6x6.mtx >/dev/null &
$B gen stencil2d5 --n 2000 -o $M/stencil2d5-2000.mtx >/dev/null &
wait; ls -la $M
$B run -c docs/perf/ini/2026-11-24-coo-loads-f64.ini data $M/*.mtx --reps 20 --time-budget-ms 100 -o $OUT/cooloads.csv > $OUT/cooloads.log 2>&1; echo "run: $?"
for m in uniform-k32 rmat-s22-ef4; do
for spec in "cusparse --set cusparse.format=coo" "coo --set coo.zero=memset --set coo.kernel=blocked" "coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=stream"; do
  label=$(echo $spec | tr ' =' '__' | cut -c1-60)
  timeout 240 ncu --clock-control none -k "regex:[Cc]oo|COO|kernel" --launch-skip 3 --launch-count 1 --set detailed \
    $B run -p $spec $M/$m.mtx --reps 3 --warmup 3 --time-budget-ms 0 > $OUT/ncu-$m-$label.txt 2>&1
  echo "$m $label: $?"
done; done
for m in rmat-s22-ef4 mixed-2m; do
  timeout 200 ncu --clock-control none --launch-skip 0 --launch-count 60 --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread \
    $B run -p dasp $M/$m.mtx --reps 3 --warmup 3 --time-budget-ms 0 > $OUT/ncu-dasp-$m.txt 2>&1; echo "dasp $m: $?"
  timeout 200 ncu --clock-control none --launch-skip 0 --launch-count 40 --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size \
    $B run -p cusparse $M/$m.mtx --reps 3 --warmup 3 --time-budget-ms 0 > $OUT/ncu-cusparse-$m.txt 2>&1; echo "cusparse $m: $?"
done
python3 - <<'PY'
import csv,os
t={}
for r in csv.DictReader(open(os.environ['OUT']+'/cooloads.csv')):
    if r['status']=='ok': t.setdefault(r['matrix'],{})[r['instance']]=float(r['ms'])*1000
for m,d in sorted(t.items()):
    print(m.ljust(18), ' '.join(f"{k}={v:.1f}" for k,v in sorted(d.items())))
PY
