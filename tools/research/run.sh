#!/usr/bin/env bash
# Runs the original research programs (tools/research/build.sh) on .mtx or
# .mtx.gz files and writes one CSV line per matrix and program:
#   matrix,program,us,gflops
# Each program times itself as written: DASP (spmv_double / spmv_half)
# averages 1000 back-to-back launches after 100 warm-ups, host wall clock
# around the loop and a device synchronise ("SpMV_X: T ms"), and times
# cuSPARSE SpMV (CUSPARSE_SPMV_ALG_DEFAULT) the same way first
# ("cusparse: T ms", reported as program dasp-cusparse-f64 or -f16); CSR5
# averages 1000 calls after 50, CUDA events around the loop ("CSR5-based
# SpMV time = T ms", the time of one call), and is kept only when its own
# check against a CPU SpMV passes. Values are the programs' own (both
# replace the matrix's values and x with random ones).
# The contract variants dasp_f64_y_* (build.sh) are kept only when their
# own check of y, in A's row order, against cuSPARSE's passes.
# merge-spmv (merge_spmv_f64, merge_spmv_f32; merge-spmv/README.md)
# averages 16 Gi / nnz calls (100 to 50000) after one, CUDA events around
# the loop ("fp64: S setup ms, T avg ms, G gflops, ..."), and is kept only
# when its own check of the first call against a CPU SpMV passes ("PASS").
# Usage: tools/research/run.sh OUT.csv FILE.mtx[.gz] ...
# Environment: PROGRAMS (default "dasp_f64 csr5_f64"; dasp_f16 too;
# merge_spmv_f64 and merge_spmv_f32 for merge-spmv),
# LOGS (a folder that keeps each program's full output, NAME.PROGRAM.log).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.research/bin"
out=${1:?usage: run.sh OUT.csv FILE.mtx[.gz] ...}
shift
programs=${PROGRAMS:-dasp_f64 csr5_f64}
work=$(mktemp -d /tmp/research-run.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/data" # DASP appends its record to data/spmv_f64_record.csv
[ -s "$out" ] || echo "matrix,program,us,gflops" > "$out"
for file in "$@"; do
  name=$(basename "$file"); name=${name%.gz}; name=${name%.mtx}
  mtx="$work/$name.mtx"
  case "$file" in
    *.gz) gzip -dc "$file" > "$mtx" ;; # neither program reads gzip
    *) ln -sf "$(cd "$(dirname "$file")" && pwd)/$(basename "$file")" "$mtx" ;;
  esac
  for p in $programs; do
    log="$work/$name.$p.log"
    (cd "$work" && timeout 900 "$bin/$p" "$mtx") > "$log" 2>&1
    rc=$?
    case "$p" in
      dasp_f64_y_*)
        # the contract variants (build.sh) check y against cuSPARSE's in
        # A's row order ("Y(n), compute succeed!"): a time only with it
        awk -v m="$name" -v p="${p//_/-}" '
          /^SpMV_X:/ { t = $2 * 1000; g = $4 }
          /compute succeed!/ { pass = 1 }
          END { if (t != "" && pass) printf "%s,%s,%.3f,%s\n", m, p, t, g }
        ' "$log" >> "$out" ;;
      dasp_*)
        # "SpMV_X:  0.0471 ms,  325.1 GFlop/s, ..." and "cusparse:  0.0606 ms, ..."
        awk -v m="$name" -v p="${p//_/-}" -v c="dasp-cusparse-${p#dasp_}" '
          /^SpMV_X:/   { printf "%s,%s,%.3f,%s\n", m, p, $2 * 1000, $4 }
          /^cusparse:/ { gsub("cusparse:", "cusparse: "); printf "%s,%s,%.3f,%s\n", m, c, $2 * 1000, $4 }
        ' "$log" >> "$out" ;;
      csr5_*)
        # "CSR5-based SpMV time = 0.0479 ms. Bandwidth = ... GB/s. GFlops = 319.6 GFlops."
        # then its own check against a CPU SpMV: "Check... PASS!"; a time
        # without a passing check is not written.
        awk -v m="$name" -v p="${p//_/-}" '
          /CSR5-based SpMV time =/ { for (i = 1; i <= NF; i++) { if ($i == "=" && $(i-1) == "time") t = $(i+1);
                                      if ($i == "GFlops" && $(i+1) == "=") g = $(i+2) } }
          /^Check\.\.\. PASS!/ { pass = 1 }
          END { if (t != "" && pass) printf "%s,%s,%.3f,%s\n", m, p, t * 1000, g }
        ' "$log" >> "$out" ;;
      merge_spmv_*)
        # "\tPASS" after the warm-up's launches, then
        # "fp64: 0.0000 setup ms, 6.9239 avg ms, 17.19377 gflops, ..."; a time
        # without a passing check is not written.
        awk -v m="$name" -v p="${p//_/-}" '
          $NF == "PASS" { pass = 1 }
          /^fp(32|64): .* avg ms,/ { for (i = 2; i <= NF; i++) { if ($i == "avg") t = $(i-1); if ($i == "gflops,") g = $(i-1) } }
          END { if (t != "" && pass) printf "%s,%s,%.3f,%s\n", m, p, t * 1000, g }
        ' "$log" >> "$out" ;;
    esac
    if ! grep -q "^$name,${p//_/-}," "$out"; then
      echo "$name: $p gave no time (exit $rc); its last lines:" >&2
      tail -5 "$log" >&2
    fi
    [ -z "${LOGS:-}" ] || { mkdir -p "$LOGS" && cp "$log" "$LOGS/"; }
  done
  [ -L "$mtx" ] || rm -f "$mtx"
done
