#!/usr/bin/env bash
# hyb's ELL lanes per row over the large set (hyblanes-large.csv), beside
# run66.sh's random columns: which matrices want more than one lane.
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
sets
$B run -v -c docs/perf/ini/2026-11-24-hyb-lanes-f64.ini --set large --reps 30 --time-budget-ms 150 -o $OUT/hyblanes-large.csv > $OUT/hyblanes-large.log 2>&1; echo "run: $?"
table hyblanes-large
