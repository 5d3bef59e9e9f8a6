#!/usr/bin/env bash
# coo on launch-bound matrices (coomid.csv: the blocked against the
# segmented kernel, docs/perf/ini/2026-11-24-coo-mid-kernel-f64.ini), and
# Nsight Compute's kernel list of cuSPARSE COO and coo on the matrices
# where coo is behind (ncu-coo-MATRIX.csv: every kernel of a run, its
# duration and launch shape).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
sets
rm -rf /tmp/mid; mkdir -p /tmp/mid
for m in fe_4elt2 cs4 epb1 cti de2010 vt2010 nh2010 wing EX5 rgg_n_2_15_s0 ct2010 Andrews; do # cage10, bcsstk16, delaunay_n16: in data/ (the small set)
  ln -sfn /work/shared/matrices/$m.mtx.gz /tmp/mid/
done
$B run -c docs/perf/ini/2026-11-24-coo-mid-kernel-f64.ini /tmp/mid --set small --reps 30 --time-budget-ms 100 -o $OUT/coomid.csv > $OUT/coomid.log 2>&1; echo "run: $?"
table coomid
MET=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
for m in nh2010 ct2010 cage10 delaunay_n16; do
  for p in cusparse-coo coo; do
    timeout 120 /usr/local/cuda/bin/ncu --clock-control none --cache-control none --csv --metrics $MET -k "regex:^(kernel|add_carries|coomv_kernel)$" --launch-count 40 \
      $B run -c docs/perf/ini/2026-11-24-coo-mid-kernel-f64.ini -p $p --baseline $p /work/shared/matrices/$m.mtx.gz --reps 2 --warmup 2 --time-budget-ms 0 -o /tmp/ncu.csv \
      > $OUT/ncu-coo-$m-$p.csv 2>&1
    echo "ncu $m $p: $?"
  done
done
python3 - <<'PY'
import csv, glob, io, os, statistics
for f in sorted(glob.glob(os.environ['OUT'] + '/ncu-coo-*.csv')):
    text = open(f).read()
    start = text.find('"ID"')
    if start < 0: print(os.path.basename(f), 'no rows'); continue
    k = {}
    for r in csv.DictReader(io.StringIO(text[start:])):
        k.setdefault((r['Kernel Name'][:60], r['Metric Name']), []).append(r['Metric Value'])
    print(os.path.basename(f))
    for (name, metric), v in sorted(k.items()):
        if metric == 'gpu__time_duration.sum':
            print(f"  {name:60s} n={len(v):3d} median {statistics.median(float(x.replace(',', '')) for x in v):.0f} ns")
PY
