#!/usr/bin/env bash
# hyb's ELL lanes per row on uniform matrices of random columns, 8 to 64 a
# row, 16 M non-zeros each (hyblanes.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
mkdir -p /tmp/mtx2
for k in 8 16 24 32 64; do [ -e /tmp/mtx2/uniform-k$k.mtx ] || "$B" gen uniform --n $((16000000 / k)) --k $k -o /tmp/mtx2/uniform-k$k.mtx > /dev/null & done; wait
$B run -v -c docs/perf/ini/2026-11-24-hyb-lanes-f64.ini /tmp/mtx2 --reps 30 --time-budget-ms 150 -o $OUT/hyblanes.csv > $OUT/hyblanes.log 2>&1; echo "run: $?"
table hyblanes
grep -E "^uniform.* hyb  |facts: ell" $OUT/hyblanes.log | head -12
