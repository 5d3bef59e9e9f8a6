#!/usr/bin/env bash
# Validations of the A/B harness on a GPU (issue 7; docs/methodology.md).
#
#   tests/gpu_validation.sh aa OUTDIR [run options...]
#       The same instance (csr) under two labels, csr_a and csr_b, over the
#       matrix sets; passes when csr_b ties with csr_a on >= 95% of them.
#   tests/gpu_validation.sh planted OUTDIR [run options...]
#       slowcsr with slowdown = 0 against slowdown = 0.05 (5% more memory
#       traffic) over the large set; passes when the slow one is found
#       slower (a loss) on >= 90% of the matrices.
#
# Environment: SPMVLAB_HOST (the spmvlab program; default build/host/spmvlab),
# SPMVLAB_TEST_PLUGIN_DIR (where libspmvlab_slowcsr.so is; default
# build/tests/plugins), SPMVLAB_VALIDATION_SETS (matrix sets; default
# "small large" for aa, "large" for planted). Exit 0 pass, 1 fail, 77
# skipped (no GPU), 2 setup error. Results: OUTDIR/MODE.csv, .json,
# -summary.csv, and the verdict in OUTDIR/MODE.verdict.
set -uo pipefail
mode=${1:?usage: gpu_validation.sh aa|planted OUTDIR [run options...]}
out=${2:?usage: gpu_validation.sh aa|planted OUTDIR [run options...]}
shift 2
src=${SPMVLAB_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
host=${SPMVLAB_HOST:-$src/build/host/spmvlab}
plugdir=${SPMVLAB_TEST_PLUGIN_DIR:-$(dirname "$(dirname "$host")")/tests/plugins}
mkdir -p "$out" || exit 2
[ -x "$host" ] || { echo "gpu_validation: $host is not built" >&2; exit 2; }
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu_validation: no GPU (nvidia-smi -L failed): skipped"
  exit 77
fi

case "$mode" in
  aa)
    sets=${SPMVLAB_VALIDATION_SETS:-small large}
    cat > "$out/aa.ini" <<'INI'
; A/A: two labels, one instance. Any difference the harness reports is noise.
[csr_a]
plugin = csr
[csr_b]
plugin = csr
INI
    labels=csr_a,csr_b; base=csr_a; probe=csr_b; want=ties; need=95 ;;
  planted)
    sets=${SPMVLAB_VALIDATION_SETS:-large}
    [ -f "$plugdir/libspmvlab_slowcsr.so" ] || { echo "gpu_validation: slowcsr not built in $plugdir" >&2; exit 2; }
    cat > "$out/planted.ini" <<'INI'
; Planted slowdown: slow5 repeats the SpMV's loads for 5% of the non-zeros.
[slow0]
plugin = slowcsr
slowdown = 0
[slow5]
plugin = slowcsr
slowdown = 0.05
INI
    labels=slow0,slow5; base=slow0; probe=slow5; want=losses; need=90 ;;
  *) echo "gpu_validation: unknown mode '$mode'; use aa or planted" >&2; exit 2 ;;
esac

set_args=()
for s in $sets; do set_args+=(--matrix-set "$s"); done
"$host" run --plugin-dir "$plugdir" -c "$out/$mode.ini" -p "$labels" --baseline "$base" "${set_args[@]}" \
  -o "$out/$mode.csv" --json "$out/$mode.json" "$@" > "$out/$mode.log" 2>&1
rc=$?
cat "$out/$mode.log"
if grep -q "no CUDA device found" "$out/$mode.log"; then
  echo "gpu_validation: the run found no CUDA device: skipped"
  exit 77
fi
[ $rc -eq 0 ] || { echo "gpu_validation: spmvlab run exited with $rc" >&2; exit 1; }

# The probe's line of the summary CSV: compared matrices and its outcomes.
awk -F, -v probe="$probe" -v want="$want" -v need="$need" -v mode="$mode" '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["instance"] == probe {
    n = $col["compared"]; k = $col[want]
    frac = n > 0 ? 100 * k / n : 0
    printf "%s: %s has %d %s, %d wins, %d losses, %d ties over %d matrices compared: %.1f%% %s (needs >= %d%%)\n",
      mode, probe, k, want, $col["wins"], $col["losses"], $col["ties"], n, frac, want, need
    found = 1; ok = n > 0 && frac >= need
  }
  END { if (!found) { print mode ": no summary line for " probe; exit 1 } exit ok ? 0 : 1 }
' "$out/$mode-summary.csv" | tee "$out/$mode.verdict"
verdict=${PIPESTATUS[0]}
if [ "$verdict" -eq 0 ]; then echo "PASSED" | tee -a "$out/$mode.verdict"; else echo "FAILED" | tee -a "$out/$mode.verdict"; fi
exit "$verdict"
