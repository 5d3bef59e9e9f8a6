#!/usr/bin/env bash
# dasp's GPU tests with the staged y, and the staged y against the empty-row
# modes over the bundled, small and large sets (daspstage.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu-dasp.log dasp
sets
$B run -c docs/perf/ini/2026-11-24-dasp-stage-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/daspstage.csv > $OUT/daspstage.log 2>&1; echo "run: $?"
table daspstage
