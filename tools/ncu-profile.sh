#!/usr/bin/env bash
# Nsight Compute readings of the SpMV kernels on a lent GPU machine, after
# tools/gpu-session.sh gen has filled the cache (same .gpu/ build and paths):
#   tools/ncu-profile.sh MATRIX PLUGIN[:OPTION=VALUE...]...
# MATRIX is a .mtx[.gz] path or a matrix of sets/large.ini; one report per
# plugin goes to OUT/ncu-MATRIX-PLUGIN.txt: speed of light, memory workload,
# warp states, occupancy and launch statistics, and the L2 throughput broken
# into its units with read/write/atomic sector counts.
set -u
export PATH="$PATH:/usr/local/cuda/bin"
export SPMVLAB_CACHE_DIR=${SPMVLAB_CACHE_DIR:-/tmp/spmvlab-cache}
src=${SRC:-/work/main}
bin="$src/.gpu/build/host/spmvlab"
out=${OUT:?}
matrix=$1; shift
cd "$src"
if [ -f "$matrix" ]; then
  input=$matrix; name=$(basename "$matrix" | sed 's/\.mtx.*//')
else # one section of the large set as a set of its own
  name=$matrix; input="--matrix-set /tmp/ncu-$matrix.ini"
  { echo "[set]"; echo "root = $src"
    awk -v s="[$matrix]" '$0==s{p=1;print;next} /^\[/{p=0} p' sets/large.ini; } > "/tmp/ncu-$matrix.ini"
fi
# SpMV kernels only (not the conversions'); KERNELS overrides the pattern.
kernels=${KERNELS:-'csr5_main|csr5_calibrate|dasp_kernel|csrmv_v3|ell_kernel|coo_|csr_scalar|csr_vector|hyb_|jds_|sell_'}
metrics="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
smsp__inst_executed.sum,gpu__time_duration.sum"
for spec in "$@"; do
  plugin=${spec%%:*}; sets=()
  [ "$spec" = "$plugin" ] || for kv in $(echo "${spec#*:}" | tr : ' '); do sets+=(--option "$plugin.$kv"); done
  label=$(echo "$spec" | tr ':=' '-_')
  # Skip the warm-up and verification launches; two timed ones are read.
  ncu --clock-control none -k "regex:$kernels" --launch-skip 6 --launch-count 2 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --metrics "$metrics" \
    "$bin" run -p "$plugin" "${sets[@]}" $input --reps 3 --warmup 3 --time-budget-ms 0 \
    > "$out/ncu-$name-$label.txt" 2>&1
  echo "ncu $name $spec: exit $?"
done
