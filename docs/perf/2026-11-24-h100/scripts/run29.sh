#!/usr/bin/env bash
# dasp block_warps 8 / 4 / 2 / 1 (blockwarps.csv).
. "$(dirname "$0")/session.sh"
gputest ctest-gpu-dasp.log dasp
sets
$B run -c docs/perf/ini/2026-11-24-dasp-blockwarps-f64.ini data --set small --set large --reps 20 --time-budget-ms 100 -o $OUT/blockwarps.csv > $OUT/blockwarps.log 2>&1; echo "run: $?"
table blockwarps
