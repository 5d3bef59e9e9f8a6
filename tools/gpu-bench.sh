#!/usr/bin/env bash
# One measurement session on a lent GPU machine (see docs/perf/README.md):
# makes the checkout visible at the path the .gpu/ build was configured for,
# generates the large set into a local cache, then runs the steps given:
#   gputest            ctest -L gpu (parallel; each check case is its own process)
#   run:NAME:ARGS      spmvlab run ARGS -o OUT/NAME.csv --json OUT/NAME.json
#   sanitize[:P,...]   compute-sanitizer memcheck of every plugin (or those named)
#   racecheck:P,...    compute-sanitizer racecheck of the plugins named
# Environment: SRC (configured checkout path, default /work/main), OUT.
set -uo pipefail
# Results go to a work folder and come back as one archive, OUT/results.tgz
# (the lent machines return only a few files).
final=${OUT:?}
out=$(mktemp -d /tmp/spmvlab-out.XXXXXX)
src=${SRC:-/work/main}
if [ "$(pwd)" != "$src" ]; then mkdir -p "$(dirname "$src")"; [ -e "$src" ] || ln -s "$(pwd)" "$src"; fi
mkdir -p /work/shared/matrices
cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64"
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
    gen) "$bin" gen --set large > "$out/gen.log" 2>&1; echo "gen: exit $?" ;;
    gputest)
      (cd .gpu/build && ctest -L gpu -j8 --timeout 300 --output-on-failure) > "$out/ctest-gpu.log" 2>&1
      echo "ctest -L gpu: exit $?"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$out/ctest-gpu.log" | tail -20 ;;
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
      for i in 1 2; do /usr/bin/time -f "%e s %M KB" "$bin" info /work/shared/matrices/G3_circuit.mtx.gz; done > "$out/loader.log" 2>&1
      SPMVLAB_NO_CACHE=1 /usr/bin/time -f "no cache: %e s %M KB" "$bin" info /work/shared/matrices/G3_circuit.mtx.gz >> "$out/loader.log" 2>&1
      cat "$out/loader.log" ;;
    run:*)
      name=$(echo "$step" | cut -d: -f2); args=$(echo "$step" | cut -d: -f3-)
      eval "\"$bin\" run $args -o \"$out/$name.csv\" --json \"$out/$name.json\"" > "$out/$name.log" 2>&1
      echo "run $name: exit $?"; tail -40 "$out/$name.log" ;;
  esac
  echo "  ($step: $(( $(date +%s) - t0 )) s)"
done
tar czf "$final/results.tgz" -C "$out" .
