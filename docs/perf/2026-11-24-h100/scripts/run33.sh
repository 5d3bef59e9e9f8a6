#!/usr/bin/env bash
# The GPU tests of the plugins changed since run30.sh, every format over the three sets
# (levels-final2.csv), then the original DASP and CSR5 programs beside dasp, csr5 and cuSPARSE.
. "$(dirname "$0")/session.sh"
gputest ctest-gpu.log "dasp|coo|hyb"
sets
$B run -c docs/perf/ini/2026-11-24-levels-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/levels-final2.csv > $OUT/levels-final2.log 2>&1; echo "levels: $?"
research_files
PROGRAMS="csr5_f64 dasp_f64" tools/research/run.sh $OUT/research2.csv $F > $OUT/research2.log 2>&1; echo "research: $?"
$B run -p csr5,dasp,cusparse $F --reps 30 --time-budget-ms 150 -o $OUT/research2-ours.csv > $OUT/research2-ours.log 2>&1; echo "ours: $?"
cat $OUT/research2.csv
table research2-ours
