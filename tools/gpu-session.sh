#!/usr/bin/env bash
# One measurement session on a lent GPU machine (see docs/perf/README.md),
# from a build made elsewhere (CUDA arch 90) and copied into .gpu/ with the
# matrices it needs. The build's CTest files hold absolute paths, so the
# checkout is made visible at the path it was configured for (SRC, default
# /work/main); then the steps given run in order:
#   info               nvidia-smi, clocks and `spmvlab list -v` (device.txt, list.txt)
#   gen                the large set generated into the local cache
#   gputest            ctest -L gpu (parallel; each check case is its own process)
#   run:NAME:ARGS      spmvlab run ARGS -o NAME.csv --json NAME.json (bench:NAME:ARGS alike)
#   sanitize[:P,...]   compute-sanitizer memcheck of every plugin (or those named)
#   racecheck:P,...    compute-sanitizer racecheck of the plugins named
#   validate:MODE      tests/gpu_validation.sh MODE
#   loader             load time of G3_circuit with and without the binary cache
# Results go to a work folder and come back as one archive, OUT/results.tgz
# (the lent machines return only a few files).
#   OUT=DIR tools/gpu-session.sh STEP...      or      tools/gpu-session.sh DIR STEP...
# tools/ncu-profile.sh reads the kernels under Nsight Compute on the same build.
set -uo pipefail
if [ $# -gt 0 ] && [ -d "$1" ]; then OUT=$1; shift; fi
final=${OUT:?output folder: OUT=DIR or the first argument}
out=$(mktemp -d /tmp/spmvlab-out.XXXXXX)
src=${SRC:-/work/main}
if [ "$(pwd)" != "$src" ]; then mkdir -p "$(dirname "$src")"; [ -e "$src" ] || ln -s "$(pwd)" "$src"; fi
mkdir -p /work/shared/matrices
cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib"
export SPMVLAB_CACHE_DIR=${SPMVLAB_CACHE_DIR:-/tmp/spmvlab-cache}
export SPMVLAB_COMMIT=${SPMVLAB_COMMIT:-$(cat .gpu/COMMIT 2>/dev/null || echo unknown)}
bin="$src/.gpu/build/host/spmvlab"
cd "$src"
# sanitize_plugins TOOL "TOOL OPTIONS" "MATRICES" PLUGIN...: compute-sanitizer
# TOOL over `spmvlab check PLUGIN --gpu` on bundled matrices, a log each.
sanitize_plugins() {
  local tool=$1 opts=$2 mats=() m p
  for m in $3; do mats+=(--matrix "data/$m.mtx.gz"); done
  shift 3
  for p in "$@"; do
    PATH="$PATH:/usr/local/cuda/bin" compute-sanitizer --tool "$tool" $opts --error-exitcode 9 \
      "$bin" check "$p" --gpu --no-fork --no-edge-cases "${mats[@]}" > "$out/$tool-$p.log" 2>&1
    echo "$tool $p: exit $?; $(grep 'RACECHECK SUMMARY\|ERROR SUMMARY' "$out/$tool-$p.log" | tail -1)"
  done
}
for step in "$@"; do
  t0=$(date +%s)
  case "$step" in
    info)
      { nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } \
        > "$out/device.txt" 2>&1
      "$bin" list -v > "$out/list.txt" 2>&1
      head -15 "$out/device.txt" ;;
    gen) "$bin" gen --matrix-set large > "$out/gen.log" 2>&1; echo "gen: exit $?" ;;
    gputest)
      (cd .gpu/build && ctest -L gpu -j "${GPUTEST_JOBS:-8}" --timeout 600 --output-on-failure) > "$out/ctest-gpu.log" 2>&1
      echo "ctest -L gpu: exit $?"
      grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|Not Run" "$out/ctest-gpu.log" | tail -40 ;;
    sanitize|sanitize:*)
      plugins="csr cusparse coo ell hyb jds sell csr5 dasp"
      [ "$step" = sanitize ] || plugins=$(echo "${step#sanitize:}" | tr , ' ')
      sanitize_plugins memcheck "--leak-check full" "1138_bus mbeacxc lp_e226" $plugins ;;
    racecheck:*)
      # Shared-memory races (the csr5 store stage, the dasp tiles).
      sanitize_plugins racecheck "" "1138_bus mbeacxc" $(echo "${step#racecheck:}" | tr , ' ') ;;
    validate:*)
      mode=${step#validate:}
      SPMVLAB_HOST="$bin" SPMVLAB_TEST_PLUGIN_DIR="$src/.gpu/build/tests/plugins" \
        tests/gpu_validation.sh "$mode" "$out/$mode" --reps 30 --time-budget-ms 200 > "$out/$mode.log" 2>&1
      echo "validation $mode: exit $?"; tail -12 "$out/$mode.log" ;;
    loader)
      for i in 1 2; do /usr/bin/time -f "%e s %M KB" "$bin" info /work/shared/matrices/G3_circuit.mtx.gz; done \
        > "$out/loader.log" 2>&1
      SPMVLAB_NO_CACHE=1 /usr/bin/time -f "no cache: %e s %M KB" "$bin" info /work/shared/matrices/G3_circuit.mtx.gz \
        >> "$out/loader.log" 2>&1
      cat "$out/loader.log" ;;
    run:*|bench:*)
      name=$(echo "$step" | cut -d: -f2); args=$(echo "$step" | cut -d: -f3-)
      eval "\"$bin\" run $args -o \"$out/$name.csv\" --json \"$out/$name.json\"" > "$out/$name.log" 2>&1
      echo "run $name: exit $?"; tail -40 "$out/$name.log" ;;
    *) echo "unknown step '$step' (info, gen, gputest, run:NAME:ARGS, sanitize[:P,...], racecheck:P,...," \
            "validate:MODE, loader)" >&2 ;;
  esac
  echo "  ($step: $(( $(date +%s) - t0 )) s)"
done
tar czf "$final/results.tgz" -C "$out" .
