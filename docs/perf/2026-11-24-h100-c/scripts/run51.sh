#!/usr/bin/env bash
# The coo and hyb GPU tests; the zero and chunk sweep on launch-bound
# matrices (the bundled set, the small set and the shared SuiteSparse
# matrices not bundled; coozero.csv); the kernel sweep on the large set and
# four uniform matrices of random columns, 16 M non-zeros each (cookernel.csv).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu-coo-hyb.log "coo|hyb"
sets
mkdir -p /tmp/shared-rest
for f in /work/shared/matrices/*.mtx.gz; do [ -e "data/$(basename "$f")" ] || ln -sfn "$f" /tmp/shared-rest/; done
$B run -c docs/perf/ini/2026-11-24-coo-zero-small-f64.ini data /tmp/shared-rest --set small --reps 30 --time-budget-ms 100 -o $OUT/coozero.csv > $OUT/coozero.log 2>&1; echo "run: $?"
mkdir -p /tmp/mtx2
for k in 4 16 24 64; do "$B" gen uniform --n $((16000000 / k)) --k $k -o /tmp/mtx2/uniform-k$k.mtx > /dev/null & done; wait
$B run -c docs/perf/ini/2026-11-24-coo-kernel-large-f64.ini /tmp/mtx2 --set large --reps 30 --time-budget-ms 150 -o $OUT/cookernel.csv > $OUT/cookernel.log 2>&1; echo "run: $?"
table cookernel | head -40
