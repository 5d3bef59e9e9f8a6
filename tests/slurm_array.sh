#!/bin/sh
# The Slurm example without Slurm: the array body once for every task id,
# as sbatch would run it, then the merge job. The merged results must hold
# exactly the cells of one unsharded run.
# Arguments: the spmvlab binary, the examples/slurm folder, the data folder.
set -eu
host=$1 slurm=$2 data=$3
work=$(mktemp -d /tmp/spmvlab-slurm-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/m"
for m in lp_e226 1138_bus bcspwr10 dw8192; do cp "$data/$m.mtx.gz" "$work/m/"; done
export SPMVLAB="$host" RESULTS="$work/results" MATRICES="$work/m" PLUGINS=csr SPMVLAB_ARGS="--dtype f64,f32"
export SPMVLAB_CACHE_DIR="$work/cache" SHARDS=3
for task in 0 1 2; do
    SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=3 bash "$slurm/spmvlab-array.sbatch" > "$work/task-$task.log" 2>&1 ||
        { cat "$work/task-$task.log"; exit 1; }
done
bash "$slurm/spmvlab-merge.sbatch" > "$work/merge.log" 2>&1 || { cat "$work/merge.log"; exit 1; }
"$host" run -p csr --dtype f64,f32 -o "$work/whole.csv" "$work/m" > /dev/null 2>&1
merged=$(wc -l < "$work/results/results.csv")
whole=$(wc -l < "$work/whole.csv")
echo "merged $merged lines, unsharded $whole lines"
test "$merged" -eq "$whole" && test "$merged" -eq 9
test -s "$work/results/results-summary.csv"
# a task rerun (a requeue) resumes its part: nothing is measured twice
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 bash "$slurm/spmvlab-array.sbatch" > /dev/null 2>&1
bash "$slurm/spmvlab-merge.sbatch" > /dev/null 2>&1
test "$(wc -l < "$work/results/results.csv")" -eq "$merged"
echo "slurm array: ok"
