#!/usr/bin/env bash
# dasp by its defaults against cuSPARSE over the bundled, small and large
# sets at this commit (dasp-levels.csv), as run34.sh of 2026-11-24-h100.
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
sets
$B run -c docs/perf/ini/2026-11-24-dasp-final-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/dasp-levels.csv > $OUT/dasp-levels.log 2>&1; echo "levels: $?"
python3 tools/perf-levels.py $OUT/dasp-levels.csv --sets docs/perf/2026-11-23-h100/sets.txt 2>&1 | head -12
