#!/usr/bin/env bash
# Every GPU test with the staged y as dasp's rule; dasp against cuSPARSE over
# the bundled, small and large sets (dasp-levels-final.csv); the original
# DASP program and its contract variant beside dasp once more on the nine
# matrices of run61.sh (research5.csv, research5-ours.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu.log
sets
$B run -c docs/perf/ini/2026-11-24-dasp-final-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/dasp-levels-final.csv > $OUT/dasp-levels-final.log 2>&1; echo "levels: $?"
python3 tools/perf-levels.py $OUT/dasp-levels-final.csv --sets docs/perf/2026-11-23-h100/sets.txt 2>&1 | head -5
mkdir -p .research/bin && cp .gpu/research-bin/* .research/bin/
research_files
F=$(for f in $F; do [ -e "$f" ] && echo "$f"; done) # G3_circuit only where carried
PROGRAMS="dasp_f64 dasp_f64_y_rows" tools/research/run.sh $OUT/research5.csv $F > /dev/null 2>&1; echo "research: $?"
$B run -p dasp,cusparse $F --reps 30 --time-budget-ms 150 -o $OUT/research5-ours.csv > /dev/null 2>&1; echo "ours: $?"
cat $OUT/research5.csv
table research5-ours
