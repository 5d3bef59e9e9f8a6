#!/usr/bin/env bash
# The zero and chunk sweep on launch-bound matrices (the bundled set, the
# small set and the shared SuiteSparse matrices; coozero.csv) and the chunk
# sweep on the large set (coochunk.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
sets
$B run -c docs/perf/ini/2026-11-24-coo-zero-small-f64.ini data /work/shared/matrices --set small --reps 30 --time-budget-ms 100 -o $OUT/coozero.csv > $OUT/coozero.log 2>&1; echo "run: $?"
$B run -c docs/perf/ini/2026-11-24-coo-chunk-large-f64.ini --set large --reps 30 --time-budget-ms 150 -o $OUT/coochunk.csv > $OUT/coochunk.log 2>&1; echo "run: $?"
table coochunk | head -30
