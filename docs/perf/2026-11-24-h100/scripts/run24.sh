#!/usr/bin/env bash
# Nsight Compute metrics of dasp and cuSPARSE CSR (ncu-dasp-metrics.txt), then dasp max_len (daspmaxlen.csv).
. "$(dirname "$0")/session.sh"
M=/tmp/m; gen_mtx $M rmat-s22-ef4 mixed-2m
MET=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct
for m in rmat-s22-ef4 mixed-2m; do
  for spec in "dasp" "cusparse"; do
    timeout 200 ncu --clock-control none -k "regex:dasp|csrmv" --launch-skip 4 --launch-count 1 --metrics $MET $B run -p $spec $M/$m.mtx --reps 3 --warmup 3 --time-budget-ms 0 > $OUT/w-$m-$spec.txt 2>&1; echo "$m $spec $?"
  done
done
grep -hE "^  [a-zA-Z_].*\(|__" $OUT/w-*.txt | cut -c1-120
sets
$B run -c docs/perf/ini/2026-11-24-dasp-maxlen-f64.ini data --set small --set large --reps 20 --time-budget-ms 100 -o $OUT/daspmaxlen.csv > $OUT/daspmaxlen.log 2>&1; echo "run: $?"
table daspmaxlen
