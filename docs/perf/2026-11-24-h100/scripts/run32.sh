#!/usr/bin/env bash
# dasp regs = 40 and empty_rows = memset (dasp-regs.csv).
. "$(dirname "$0")/session.sh"
gputest ctest-gpu-dasp.log dasp
sets
$B run -c docs/perf/ini/2026-11-24-dasp-regs-f64.ini data --set small --set large --reps 20 --time-budget-ms 100 -o $OUT/regs.csv > $OUT/regs.log 2>&1; echo "run: $?"
table regs
