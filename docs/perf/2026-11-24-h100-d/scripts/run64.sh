#!/usr/bin/env bash
# coo on nh2010 and three graphs like it (coocensus.csv): the segmented
# kernel by chunk, chunk edges and write of y, and the atomic kernel.
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
rm -rf /tmp/census; mkdir -p /tmp/census
for m in nh2010 vt2010 ct2010 de2010 delaunay_n16 rgg_n_2_15_s0; do ln -sfn /work/shared/matrices/$m.mtx.gz /tmp/census/; done
$B run -v -c docs/perf/ini/2026-11-24-coo-census-f64.ini /tmp/census --reps 50 --time-budget-ms 150 -o $OUT/coocensus.csv > $OUT/coocensus.log 2>&1; echo "run: $?"
table coocensus
grep -E "^(nh2010|vt2010|ct2010)|facts: kernel" $OUT/coocensus.log | head -30
