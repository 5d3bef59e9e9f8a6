#!/usr/bin/env bash
# The whole GPU suite, then every in-tree format over the bundled, small and large sets (levels.csv).
. "$(dirname "$0")/session.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/device.txt
gputest ctest-gpu.log
sets
$B run -c docs/perf/ini/2026-11-24-levels-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/levels.csv > $OUT/levels.log 2>&1; echo "levels: $?"
tail -2 $OUT/levels.log
