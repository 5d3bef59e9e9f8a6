#!/usr/bin/env bash
# Nsight Compute metrics (ncu-metrics.txt): coo's kernels and cuSPARSE COO on uniform-k32 and rmat-s22-ef4.
. "$(dirname "$0")/session.sh"
M=/tmp/m; gen_mtx $M uniform-k32 rmat-s22-ef4
MET=lts__t_requests_srcunit_tex.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_tag_requests.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,lts__d_sectors.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct
prof() { local label=$1 m=$2 k=$3; shift 3
  timeout 240 ncu --clock-control none -k "regex:$k" --launch-skip 4 --launch-count 1 --section SpeedOfLight --print-details all --metrics $MET \
    $B run -p "$@" $M/$m.mtx --reps 3 --warmup 3 --time-budget-ms 0 > $OUT/$label.txt 2>&1; echo "$label: $?"; }
prof u32-cusp uniform-k32 "coomv" cusparse --set cusparse.format=coo
prof u32-blk8 uniform-k32 "^kernel" coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=stream --set coo.items=8
prof u32-blk8c uniform-k32 "^kernel" coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=cached --set coo.items=8
prof u32-blk4 uniform-k32 "^kernel" coo --set coo.zero=memset --set coo.kernel=blocked --set coo.loads=stream --set coo.items=4
prof u32-seg uniform-k32 "^kernel" coo --set coo.zero=memset --set coo.kernel=segmented --set coo.loads=stream
prof r22-cusp rmat-s22-ef4 "coomv" cusparse --set cusparse.format=coo
prof r22-seg rmat-s22-ef4 "^kernel" coo --set coo.zero=memset --set coo.kernel=segmented --set coo.loads=stream
python3 - <<'PY'
import os,re,glob
rows={}
for f in sorted(glob.glob(os.environ['OUT']+'/*.txt')):
    lab=os.path.basename(f)[:-4]
    for l in open(f):
        m=re.match(r'\s+(\S+)\s+(\S*)\s+([\d,\.]+)\s*$', l)
        if m and ('__' in m.group(1)): rows.setdefault(m.group(1),{})[lab]=m.group(3)
labs=sorted({l for d in rows.values() for l in d})
print('metric'.ljust(62),' '.join(l.rjust(12) for l in labs))
for k,d in rows.items(): print(k[:62].ljust(62),' '.join(d.get(l,'-').rjust(12) for l in labs))
PY
