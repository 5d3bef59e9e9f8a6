#!/usr/bin/env bash
# hyb's ELL lanes per row on the launch-bound matrices: the small set and
# the bundled ones (hyblanes-small.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
sets
$B run -v -c docs/perf/ini/2026-11-24-hyb-lanes-f64.ini data --set small --reps 30 --time-budget-ms 100 -o $OUT/hyblanes-small.csv > $OUT/hyblanes-small.log 2>&1; echo "run: $?"
table hyblanes-small
