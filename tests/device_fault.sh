#!/bin/sh
# A plugin that faults on the device costs its own cells only.
#   device_fault.sh cpu HOST PLUGIN_DIR DATA WORK
#       without a GPU: the fault is simulated (SPMVLAB_TEST_DEVICE_FAULT),
#       which exercises the recovery itself: run, run --isolate,
#       run --devices cpu:2, tune and check.
#   device_fault.sh gpu HOST PLUGIN_DIR DATA WORK
#       on a GPU: bad_oob really writes out of bounds; exit 77 without one.
# Exit 0 pass, 1 fail (with the reason), 77 skipped.
set -u
mode=$1 host=$2 plugdir=$3 data=$4 work=$5
mkdir -p "$work" && cd "$work" || exit 1
m1=$data/cage10.mtx.gz m2=$data/bcsstk16.mtx.gz
fail() { echo "FAIL: $*"; exit 1; }

# status of (matrix, instance) in CSV $1
status_of() { awk -F, -v m="$2" -v i="$3" 'NR > 1 && $1 == m && $6 == i { print $11 }' "$1"; }
# expect CSV $1 to hold the good instances $2 ok and bad_oob device-fault on both matrices
expect_cells() {
  csv=$1 good=$2
  [ -f "$csv" ] || fail "$csv was not written"
  for m in cage10 bcsstk16; do
    s=$(status_of "$csv" $m bad_oob)
    [ "$s" = device-fault ] || fail "bad_oob on $m: status '$s', want device-fault ($csv)"
    for i in $good; do
      s=$(status_of "$csv" $m "$i")
      [ "$s" = ok ] || fail "$i on $m: status '$s', want ok: a good cell was lost or blamed ($csv)"
    done
  done
  rows=$(($(wc -l < "$csv") - 1))
  want=$((2 * ($(echo $good | wc -w) + 1)))
  [ "$rows" -eq "$want" ] || fail "$csv has $rows rows, want $want"
}

if [ "$mode" = gpu ]; then
  nvidia-smi -L >/dev/null 2>&1 || { echo "no GPU: skipped"; exit 77; }
  good="csr cusparse"
  "$host" run -p csr,bad_oob,cusparse --plugin-dir "$plugdir" -o gpu.csv "$m1" "$m2" > gpu.out 2>&1
  rc=$?
  cat gpu.out
  [ $rc -eq 1 ] || fail "run exited $rc, want 1 (a cell failed)"
  expect_cells gpu.csv "$good"
  for m in cage10 bcsstk16; do
    for i in $good; do
      ms=$(awk -F, -v m=$m -v i=$i 'NR > 1 && $1 == m && $6 == i { print $12 }' gpu.csv)
      [ -n "$ms" ] || fail "$i on $m has no time"
    done
  done
  "$host" check bad_oob --gpu --plugin-dir "$plugdir" --matrix-dir "$data" > check.out 2>&1
  cat check.out
  grep -q "opening the runtime" check.out && fail "a case failed at opening the runtime: a fault spread"
  grep -q "^FAIL[[:space:]].*device-fault" check.out || fail "no case recorded the device fault"
  grep -q "^PASS[[:space:]]" check.out || fail "no case passed: the small cases must pass"
  grep "^FAIL[[:space:]]" check.out | grep -qv "device-fault" && fail "a case failed for another reason than its own fault"
  echo "PASS: the device fault cost bad_oob's cells only"
  exit 0
fi

export SPMVLAB_TEST_DEVICE_FAULT=bad_oob
good="coo csr"
"$host" run -p coo,bad_oob,csr --plugin-dir "$plugdir" -o run.csv "$m1" "$m2" > run.out 2>&1
rc=$?
[ $rc -eq 1 ] || { cat run.out; fail "run exited $rc, want 1"; }
expect_cells run.csv "$good"
grep -q "plugin bad_oob (instance bad_oob) faulted on the device" run.out || fail "the fault's sentence is missing"

# The faulting plugin as the baseline: still one row per cell, no endless restart.
"$host" run -p coo,bad_oob,csr --baseline bad_oob --plugin-dir "$plugdir" -o base.csv "$m1" "$m2" > base.out 2>&1
rc=$?
[ $rc -eq 1 ] || { cat base.out; fail "run with the faulting baseline exited $rc, want 1"; }
expect_cells base.csv "$good"

"$host" run -p coo,bad_oob,csr --isolate --plugin-dir "$plugdir" -o iso.csv "$m1" "$m2" > iso.out 2>&1
expect_cells iso.csv "$good"

"$host" run -p coo,bad_oob,csr --devices cpu:2 --plugin-dir "$plugdir" -o dev.csv "$m1" "$m2" > dev.out 2>&1 ||
  true
expect_cells dev.csv "$good"

"$host" tune -p coo,bad_oob,csr --plugin-dir "$plugdir" -o tune.csv "$m1" "$m2" > tune.out 2>&1
expect_cells tune.csv "$good"

"$host" check bad_oob --plugin-dir "$plugdir" --matrix-dir "$data" > check.out 2>&1
grep -q "opening the runtime" check.out && { cat check.out; fail "a case failed at opening the runtime"; }
n=$(grep -c "^FAIL[[:space:]]" check.out)
d=$(grep -c "^FAIL[[:space:]].*device-fault" check.out)
[ "$n" -gt 0 ] && [ "$n" -eq "$d" ] || { cat check.out; fail "$d of $n failures are the plugin's own faults"; }
echo "PASS: the simulated device fault cost bad_oob's cells only"
