#!/usr/bin/env bash
# The coo and hyb GPU tests with loads = staged, the three sets with the staged
# kernels beside the defaults and cuSPARSE (coostaged.csv), and Nsight Compute
# on uniform-k32 (ncu.txt).
. "$(dirname "$0")/../../2026-11-24-h100/scripts/session.sh"
gputest ctest-gpu-coo-hyb.log "coo|hyb"
sets
$B run -c docs/perf/ini/2026-11-24-coo-staged-f64.ini data --set small --set large --reps 30 --time-budget-ms 150 -o $OUT/coostaged.csv > $OUT/coostaged.log 2>&1; echo "run: $?"
python3 tools/perf-levels.py $OUT/coostaged.csv --sets docs/perf/2026-11-23-h100/sets.txt 2>&1 | head -60
table coostaged
M=/tmp/m; gen_mtx $M uniform-k32
MET=gpu__time_duration.sum,lts__t_tag_requests.sum,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum
prof() { local label=$1 k=$2; shift 2
  timeout 120 ncu --clock-control none -k "regex:$k" --launch-skip 4 --launch-count 1 --metrics $MET \
    $B run -p "$@" $M/uniform-k32.mtx --reps 3 --warmup 3 --time-budget-ms 0 2>&1 | grep -E "^\s+(gpu__|lts__|l1tex__|smsp__|dram__)" | sed "s/^/$label /"; }
{ prof cusp coomv cusparse --set cusparse.format=coo
  prof stg4 "^kernel" coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=staged --set coo.items=4
  prof stg8 "^kernel" coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=staged --set coo.items=8
  prof blk4 "^kernel" coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=stream --set coo.items=4; } > $OUT/ncu.txt
cat $OUT/ncu.txt
