#!/usr/bin/env bash
# The coo and hyb GPU tests with the chunk edges at row starts, then the three
# sets with edges = auto against edges = even and cuSPARSE (cooedges.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu-coo-hyb.log "coo|hyb"
sets
$B run -c docs/perf/ini/2026-11-24-coo-edges-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/cooedges.csv > $OUT/cooedges.log 2>&1; echo "run: $?"
python3 tools/perf-levels.py $OUT/cooedges.csv --sets docs/perf/2026-11-23-h100/sets.txt 2>&1 | head -8
table cooedges
