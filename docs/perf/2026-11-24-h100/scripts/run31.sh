#!/usr/bin/env bash
# The original DASP and CSR5 programs (tools/research/build.sh), then spmvlab's dasp, csr5 and cuSPARSE, on the same .mtx files (research.csv, research-ours.csv).
. "$(dirname "$0")/session.sh"
research_files
mkdir -p $OUT/logs
LOGS=$OUT/logs PROGRAMS="csr5_f64 dasp_f64" tools/research/run.sh $OUT/research.csv $F > $OUT/research.log 2>&1; echo "research: $?"
$B run -p csr5,dasp,cusparse $F --reps 30 --time-budget-ms 150 -o $OUT/research-ours.csv > $OUT/research-ours.log 2>&1; echo "ours: $?"
cat $OUT/research.csv
table research-ours
