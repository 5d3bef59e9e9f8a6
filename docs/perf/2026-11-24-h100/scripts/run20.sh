#!/usr/bin/env bash
# coo loads = cached against stream (cooloads.csv), then Nsight Compute on coo, cuSPARSE COO and dasp.
. "$(dirname "$0")/session.sh"
gputest ctest-gpu-coo.log "coo|hyb"
M=/tmp/m; gen_mtx $M uniform-k32 uniform-k8 rmat-s22-ef4 rmat-s20-ef8-sym mixed-2m blocks-6x6 stencil2d5-2000
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
table cooloads
