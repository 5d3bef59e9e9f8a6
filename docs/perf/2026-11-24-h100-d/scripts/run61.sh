#!/usr/bin/env bash
# The original DASP program beside dasp on the nine matrices of run34.sh, and
# the same program under spmvlab's contract for y (tools/research/build.sh:
# dasp_f64_y_rows stores y in A's row order and zeroes the empty rows on
# every call; y_sorted_zero and y_rows_only take one of the two each):
# research4.csv, research4-ours.csv.
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
mkdir -p .research/bin && cp .gpu/research-bin/* .research/bin/
research_files
F=$(for f in $F; do [ -e "$f" ] && echo "$f"; done) # G3_circuit only where carried
LOGS=$OUT/research-logs PROGRAMS="dasp_f64 dasp_f64_y_rows" tools/research/run.sh $OUT/research4.csv $F > /dev/null 2>&1; echo "research: $?"
LOGS=$OUT/research-logs PROGRAMS="dasp_f64_y_sorted_zero dasp_f64_y_rows_only" tools/research/run.sh $OUT/research4.csv \
  /tmp/mtx/rmat-s22-ef4.mtx /tmp/mtx/rmat-s20-ef8-sym.mtx > /dev/null 2>&1; echo "research: $?"
$B run -p dasp,cusparse $F --reps 30 --time-budget-ms 150 -o $OUT/research4-ours.csv > /dev/null 2>&1; echo "ours: $?"
cat $OUT/research4.csv
table research4-ours
