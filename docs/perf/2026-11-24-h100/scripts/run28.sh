#!/usr/bin/env bash
# coo step = 4 and dasp window = N (stepwindow.csv).
. "$(dirname "$0")/session.sh"
gputest ctest-gpu-coo-dasp.log "coo|dasp"
sets
$B run -c docs/perf/ini/2026-11-24-step-window-f64.ini data --set small --set large --reps 20 --time-budget-ms 100 -o $OUT/stepwindow.csv > $OUT/stepwindow.log 2>&1; echo "run: $?"
table stepwindow
