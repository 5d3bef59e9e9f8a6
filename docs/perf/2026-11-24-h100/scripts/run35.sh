#!/usr/bin/env bash
# coo and hyb with loads = auto: their GPU tests, then the three sets (cooauto.csv).
. "$(dirname "$0")/session.sh"
gputest ctest-gpu.log "coo|hyb"
sets
$B run -c docs/perf/ini/2026-11-24-coo-loads-auto-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/cooauto.csv > $OUT/cooauto.log 2>&1; echo "run: $?"
