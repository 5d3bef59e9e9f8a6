#!/usr/bin/env bash
# coo's kernels on the launch-bound matrices (coosmall.csv).
. "$(dirname "$0")/session.sh"
$B gen --set small > /dev/null 2>&1
$B run -c docs/perf/ini/2026-11-24-coo-small-f64.ini data --set small --reps 30 --time-budget-ms 150 -o $OUT/coosmall.csv > $OUT/coosmall.log 2>&1; echo "run: $?"
table coosmall
