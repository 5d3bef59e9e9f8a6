#!/usr/bin/env bash
# coo and hyb with the final rules against cuSPARSE COO (coohyb.csv).
. "$(dirname "$0")/session.sh"
gputest ctest-gpu-coo.log "coo|hyb"
sets
$B run -c docs/perf/ini/2026-11-24-coo-hyb-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/coohyb.csv > $OUT/coohyb.log 2>&1; echo "run: $?"
