#!/bin/bash
# Submits a collection run: the array of shards (at most CAP at once, one
# GPU each) and the merge job that waits for all of them (afterok).
#   MATRICES=/data/ssget/MM PLUGINS=csr,cusparse,csr5 SHARDS=32 CAP=8 ./submit.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SHARDS=${SHARDS:-16}
CAP=${CAP:-4}
export SHARDS RESULTS=${RESULTS:-$PWD/results}
: "${MATRICES:?set MATRICES to the matrix folder, archive or list file}"
export MATRICES
array=$(sbatch --parsable --export=ALL --array=0-$((SHARDS - 1))%"$CAP" "$here/spmvlab-array.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL --dependency=afterok:"$array" "$here/spmvlab-merge.sbatch")
echo "array job $array ($SHARDS shards, $CAP at once), merge job $merge; results in $RESULTS/results.csv"
