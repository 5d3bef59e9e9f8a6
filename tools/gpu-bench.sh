#!/usr/bin/env bash
# One measurement session on a lent GPU machine (see docs/perf/README.md):
# makes the checkout visible at the path the .gpu/ build was configured for,
# generates the large set into a local cache, then runs the steps given:
#   gputest            ctest -L gpu (parallel; each check case is its own process)
#   run:NAME:ARGS      spmvlab run ARGS -o OUT/NAME.csv --json OUT/NAME.json
# Environment: SRC (configured checkout path, default /work/main), OUT.
set -uo pipefail
out=${OUT:?}
src=${SRC:-/work/main}
if [ "$(pwd)" != "$src" ]; then mkdir -p "$(dirname "$src")"; [ -e "$src" ] || ln -s "$(pwd)" "$src"; fi
mkdir -p /work/shared/matrices
cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64"
export SPMVLAB_CACHE_DIR=${SPMVLAB_CACHE_DIR:-/tmp/spmvlab-cache}
export SPMVLAB_COMMIT=${SPMVLAB_COMMIT:-$(cat .gpu/COMMIT 2>/dev/null || echo unknown)}
bin="$src/.gpu/build/host/spmvlab"
cd "$src"
for step in "$@"; do
  t0=$(date +%s)
  case "$step" in
    gen) "$bin" gen --set large > "$out/gen.log" 2>&1; echo "gen: exit $?" ;;
    gputest)
      (cd .gpu/build && ctest -L gpu -j8 --timeout 300 --output-on-failure) > "$out/ctest-gpu.log" 2>&1
      echo "ctest -L gpu: exit $?"; grep -E "tests passed|\(Failed\)|\(Timeout\)" "$out/ctest-gpu.log" | tail -20 ;;
    run:*)
      name=$(echo "$step" | cut -d: -f2); args=$(echo "$step" | cut -d: -f3-)
      eval "\"$bin\" run $args -o \"$out/$name.csv\" --json \"$out/$name.json\"" > "$out/$name.log" 2>&1
      echo "run $name: exit $?"; tail -40 "$out/$name.log" ;;
  esac
  echo "  ($step: $(( $(date +%s) - t0 )) s)"
done
