#!/bin/bash
# Submits a collection run: the array of shards (at most CAP at once, one
# GPU and CPUS_PER_TASK CPUs each) and the merge job that waits for all of
# them (afterok).
#   MATRICES=/data/ssget/MM PLUGINS=csr,cusparse,csr5 SHARDS=32 CAP=8 ./submit.sh
# CPUS_PER_TASK (default 4) must fit a node of the partition, or the array
# pends with reason PartitionConfig; SBATCH_ARGS adds sbatch options to both
# jobs (e.g. "--partition=gpu --account=me").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SHARDS=${SHARDS:-16}
CAP=${CAP:-4}
CPUS_PER_TASK=${CPUS_PER_TASK:-4}
export SHARDS RESULTS=${RESULTS:-$PWD/results}
: "${MATRICES:?set MATRICES to the matrix folder, archive or list file}"
export MATRICES
read -r -a sbatch_args <<< "${SBATCH_ARGS:-}"
array=$(sbatch --parsable --export=ALL "${sbatch_args[@]}" --array=0-$((SHARDS - 1))%"$CAP" \
    --cpus-per-task="$CPUS_PER_TASK" "$here/spmvlab-array.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL "${sbatch_args[@]}" --dependency=afterok:"$array" "$here/spmvlab-merge.sbatch")
echo "array job $array ($SHARDS shards, $CAP at once), merge job $merge; results in $RESULTS/results.csv"
