#!/usr/bin/env bash
# Every GPU test, then the three sets with edges = auto (chunk edges at row
# starts only where no row is longer than a chunk) against edges = even and
# cuSPARSE (cooedges2.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu.log
sets
$B run -c docs/perf/ini/2026-11-24-coo-edges-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/cooedges2.csv > $OUT/cooedges2.log 2>&1; echo "run: $?"
python3 tools/perf-levels.py $OUT/cooedges2.csv --sets docs/perf/2026-11-23-h100/sets.txt 2>&1 | head -8
table cooedges2
