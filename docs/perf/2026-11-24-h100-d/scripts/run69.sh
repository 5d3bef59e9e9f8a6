#!/usr/bin/env bash
# Every GPU test at this commit; then coo and hyb by their defaults against
# cuSPARSE over the bundled, small and large sets, the shared SuiteSparse
# matrices not bundled and four uniform matrices (levels-final.csv), as
# run62.sh, after hyb's lanes rule.
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu.log
sets
rm -rf /tmp/shared-rest /tmp/mtx2; mkdir -p /tmp/shared-rest /tmp/mtx2
for f in /work/shared/matrices/*.mtx.gz; do [ -e "data/$(basename "$f")" ] || ln -sfn "$f" /tmp/shared-rest/; done
for k in 4 16 24 64; do [ -e /tmp/mtx2/uniform-k$k.mtx ] || "$B" gen uniform --n $((16000000 / k)) --k $k -o /tmp/mtx2/uniform-k$k.mtx > /dev/null & done; wait
$B run -c docs/perf/ini/2026-11-24-coo-levels-f64.ini data /tmp/shared-rest /tmp/mtx2 --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/levels-final.csv > $OUT/levels-final.log 2>&1; echo "run: $?"
python3 tools/perf-levels.py $OUT/levels-final.csv --sets docs/perf/2026-11-23-h100/sets.txt 2>&1 | head -12
