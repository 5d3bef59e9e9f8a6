#!/usr/bin/env bash
# dasp's balanced path against its row classes and cuSPARSE over the large
# set (daspbal.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
sets
$B run -c docs/perf/ini/2026-11-24-dasp-balanced-f64.ini --set large --reps 30 --time-budget-ms 150 -o $OUT/daspbal.csv > $OUT/daspbal.log 2>&1; echo "run: $?"
table daspbal
