#!/bin/bash
# The Slurm example under a real scheduler: a single-node cluster of this
# machine (munged, slurmctld, slurmd; select/cons_tres, a node of 2 CPUs
# with Gres=gpu:2 backed by two placeholder files), started here with
# private ports, sockets and folders; examples/slurm/submit.sh submits the
# array and the merge job; the merged results must hold the cells of one
# unsharded run of the same plugins and matrices: same cells, statuses and
# deterministic values (no timings without a GPU), the same summary counts,
# and every job, like the unsharded run, ending with exit status 0.
#
# Needs root (the daemons run as root); installs Debian's slurm-wlm and
# munge when missing. Run by .ci/run, not by ctest.
#   tests/slurm_cluster.sh SPMVLAB EXAMPLES_SLURM_DIR DATA_DIR
# SLURM_TEST_TIMEOUT: seconds the jobs may take in all (default 900).
set -euo pipefail
if [ $# -ne 3 ]; then
    echo "usage: $0 SPMVLAB EXAMPLES_SLURM_DIR DATA_DIR" >&2
    exit 2
fi
host=$(realpath "$1") slurm=$(realpath "$2") data=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
timeout_s=${SLURM_TEST_TIMEOUT:-900}
say() { echo "slurm cluster: $*"; }
fail() { echo "slurm cluster: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "must run as root: the test starts munged, slurmctld and slurmd itself"
[ -x "$host" ] || fail "$host is not an executable spmvlab"
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    say "installing slurm-wlm and munge"
    install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge > /dev/null; }
    install || { apt-get update -qq && install; } || fail "apt-get could not install slurm-wlm and munge"
fi

work=$(mktemp -d /tmp/spmvlab-slurm-cluster-XXXXXX)
chmod 700 "$work"
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/m" "$work/submit"
export SLURM_CONF=$work/slurm.conf
jobs_submitted=""

# ---- teardown: what this script started, by its pid files ---------------
stop_pidfile() {
    local f=$1 pid i
    [ -s "$f" ] || return 0
    pid=$(cat "$f")
    kill "$pid" 2> /dev/null || return 0
    for i in $(seq 50); do
        kill -0 "$pid" 2> /dev/null || return 0
        sleep 0.2
    done
    kill -9 "$pid" 2> /dev/null || true
}
show_logs() {
    local f
    for f in "$work"/slurmctld.log "$work"/slurmd.log "$work"/munged.log "$work"/submit/*.log; do
        [ -s "$f" ] || continue
        echo "---- ${f#"$work"/} (last 40 lines)" >&2
        tail -n 40 "$f" >&2
    done
}
cleanup() {
    local rc=$?
    trap - EXIT
    if [ "$rc" -ne 0 ]; then
        for j in $jobs_submitted; do scontrol show job "$j" >&2 2> /dev/null || true; done
        show_logs
    fi
    [ -n "$jobs_submitted" ] && scancel $jobs_submitted 2> /dev/null || true
    stop_pidfile "$work/slurmd.pid"
    stop_pidfile "$work/slurmctld.pid"
    stop_pidfile "$work/munged.pid"
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT

# ---- the cluster ---------------------------------------------------------
port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
ctld_port=16817
while ! port_free "$ctld_port" || ! port_free $((ctld_port + 1)); do
    ctld_port=$((ctld_port + 2))
    [ "$ctld_port" -lt 16917 ] || fail "no two free ports from 16817 to 16917 for slurmctld and slurmd"
done
node=$(hostname -s)

dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
    --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/munge.seed" ||
    fail "munged did not start"

touch "$work/gpu0" "$work/gpu1"
cat > "$work/gres.conf" << EOF
NodeName=$node Name=gpu File=$work/gpu[0-1]
EOF
cat > "$SLURM_CONF" << EOF
ClusterName=spmvlabci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=3600
MpiDefault=none
MailProg=/bin/true
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 Gres=gpu:2 State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"

start=$SECONDS
until [ "$(sinfo -h -N -o %T 2> /dev/null)" = idle ]; do
    [ $((SECONDS - start)) -lt 60 ] ||
        fail "the node is not idle after 60 s (state: $(sinfo -h -N -o '%T %E' 2> /dev/null || echo 'no answer from slurmctld'))"
    sleep 1
done
say "node $node idle (slurmctld port $ctld_port)"

# ---- the collection: four matrices, two plugins (dia refuses some), two dtypes
for m in lp_e226 1138_bus bcspwr10 dw8192; do cp "$data/$m.mtx.gz" "$work/m/"; done
plugins=csr,dia dtypes=f64,f32
cd "$work/submit"
out=$(SPMVLAB="$host" MATRICES="$work/m" PLUGINS=$plugins SPMVLAB_ARGS="--dtype $dtypes" RESULTS="$work/results" \
    SPMVLAB_CACHE_DIR="$work/cache" SHARDS=3 CAP=2 CPUS_PER_TASK=1 bash "$slurm/submit.sh") ||
    fail "submit.sh failed: $out"
say "$out"
array=$(sed -n 's/^array job \([0-9]*\).*/\1/p' <<< "$out")
merge=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' <<< "$out")
[ -n "$array" ] && [ -n "$merge" ] || fail "no job ids in submit.sh's output"
jobs_submitted="$array $merge"

# Pending reasons that never clear on their own end the wait at once.
stuck='PartitionConfig|PartitionNodeLimit|PartitionTimeLimit|BadConstraints|ReqNodeNotAvail|DependencyNeverSatisfied|InvalidQOS|InvalidAccount|JobHeldAdmin|launch failed'
start=$SECONDS
while :; do
    queue=$(squeue -h -j "$array,$merge" -o '%i %T %r' 2> /dev/null || true)
    [ -n "$queue" ] || break
    if grep -Eq "$stuck" <<< "$queue"; then
        fail "a job cannot start: $(grep -E "$stuck" <<< "$queue" | head -n 1)"
    fi
    [ $((SECONDS - start)) -lt "$timeout_s" ] ||
        fail "the jobs did not finish in $timeout_s s (SLURM_TEST_TIMEOUT); queue: $queue"
    sleep 2
done
states=$( (scontrol -o show job "$array" && scontrol -o show job "$merge") | sed -n 's/^JobId=\([0-9]*\) .*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\).*/\1 \2 \3/p')
say "jobs done after $((SECONDS - start)) s:"$'\n'"$states"
tasks=$(grep -c . <<< "$states")
[ "$tasks" -eq 4 ] || fail "expected 3 array tasks and the merge job, found $tasks jobs"
if grep -v ' COMPLETED 0:0$' <<< "$states" > /dev/null; then
    fail "a job did not complete with exit code 0"
fi

# ---- the merged results against one unsharded run -------------------------
whole_rc=0
SPMVLAB_CACHE_DIR="$work/cache" "$host" run -p $plugins --dtype $dtypes -o "$work/whole.csv" "$work/m" \
    > "$work/whole.log" 2>&1 || whole_rc=$?
[ "$whole_rc" -eq 0 ] || { cat "$work/whole.log" >&2; fail "the unsharded run exited with $whole_rc"; }
merged=$work/results/results.csv
[ -s "$merged" ] || fail "the merge job wrote no $merged"
[ -s "$work/results/results-summary.csv" ] || fail "the merge job wrote no summary"
cols=matrix,instance,plugin,options,dtype,value_storage,status,rows,cols,nnz,min_bytes,device_bytes,csr_bytes,error_ratio,describe,message,commit,version
awk -v cols=$cols -f "$here/slurm_cells.awk" "$merged" | sort > "$work/merged.cells"
awk -v cols=$cols -f "$here/slurm_cells.awk" "$work/whole.csv" | sort > "$work/whole.cells"
if ! diff -u "$work/whole.cells" "$work/merged.cells" >&2; then
    fail "the merged cells differ from the unsharded run's (- unsharded, + merged; columns $cols)"
fi
sum_cols=dtype,instance,baseline,cells,ok,wrong,failed
awk -v cols=$sum_cols -f "$here/slurm_cells.awk" "$work/results/results-summary.csv" | sort > "$work/merged.summary"
awk -v cols=$sum_cols -f "$here/slurm_cells.awk" "$work/whole-summary.csv" | sort > "$work/whole.summary"
if ! diff -u "$work/whole.summary" "$work/merged.summary" >&2; then
    fail "the merged summary differs from the unsharded run's (- unsharded, + merged; columns $sum_cols)"
fi
cells=$(wc -l < "$work/whole.cells")
[ "$cells" -eq 16 ] || fail "expected 16 cells (4 matrices x 2 plugins x 2 dtypes), found $cells"
statuses=$(cut -d'|' -f7 "$work/whole.cells" | sort | uniq -c | tr -s ' \n' ' ')
say "merged results and summary equal the unsharded run's: $cells cells, statuses:$statuses"
say "ok"
