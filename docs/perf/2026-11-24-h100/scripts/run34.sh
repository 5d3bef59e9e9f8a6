#!/usr/bin/env bash
# dasp at the final commit: its GPU tests, the three sets (dasp-final.csv), and the original DASP program beside it.
. "$(dirname "$0")/session.sh"
gputest ctest-gpu.log dasp
sets
$B run -c docs/perf/ini/2026-11-24-dasp-final-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/dasp-final.csv > $OUT/dasp-final.log 2>&1; echo "levels: $?"
research_files
PROGRAMS="dasp_f64" tools/research/run.sh $OUT/research3.csv $F > /dev/null 2>&1; echo "research: $?"
$B run -p dasp,cusparse $F --reps 30 --time-budget-ms 150 -o $OUT/research3-ours.csv > /dev/null 2>&1; echo "ours: $?"
cat $OUT/research3.csv
table research3-ours
