#!/usr/bin/env bash
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache SPMVLAB_COMMIT=$(cat .gpu/COMMIT) PATH=$PATH:/usr/local/cuda/bin
B=/work/gpuwt/.gpu/build/host/spmvlab; cd /work/gpuwt
M=/tmp/m; mkdir -p $M; ls $M | head -3
[ -e $M/rmat-s22-ef4.mtx ] || $B gen rmat --scale 22 --edge_factor 4 -o $M/rmat-s22-ef4.mtx >/dev/null &
[ -e $M/mixed-2m.mtx ] || $B gen mixed --n 2000000 --short_len 2 --medium_len 16 --long_len 256 --short_frac 0.8 --medium_frac 0.19 -o $M/mixed-2m.mtx >/dev/null &
wait
MET=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct
for m in rmat-s22-ef4 mixed-2m; do
  for spec in "dasp" "cusparse"; do
    timeout 200 ncu --clock-control none -k "regex:dasp|csrmv" --launch-skip 4 --launch-count 1 --metrics $MET $B run -p $spec $M/$m.mtx --reps 3 --warmup 3 --time-budget-ms 0 > $OUT/w-$m-$spec.txt 2>&1; echo "$m $spec $?"
  done
done
grep -hE "^  [a-zA-Z_].*\(|__" $OUT/w-*.txt | cut -c1-120
( time $B gen --set large > /dev/null 2>&1 ) 2>&1 | grep real
$B run -c docs/perf/ini/2026-11-24-dasp-maxlen-f64.ini data --set small --set large --reps 20 --time-budget-ms 100 -o $OUT/daspmaxlen.csv > $OUT/daspmaxlen.log 2>&1; echo "run: $?"
python3 - <<'PY'
import csv,os
t={}
for r in csv.DictReader(open(os.environ['OUT']+'/daspmaxlen.csv')):
  if r['status']=='ok': t.setdefault(r['matrix'],{})[r['instance']]=float(r['ms'])*1000
  else: print(r['matrix'], r['instance'], r['status'], r['message'][:100])
for m,d in sorted(t.items()):
  print(m[:16].ljust(16), ' '.join(f"{k}={v:.2f}" for k,v in sorted(d.items())))
PY
