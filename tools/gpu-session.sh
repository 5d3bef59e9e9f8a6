#!/usr/bin/env bash
# Runs the GPU tests and benchmarks from a build made elsewhere (CUDA arch 90)
# and copied into .gpu/ with the matrices it needs. The build's CTest files
# hold absolute paths, so the checkout is made visible under the path it was
# configured at (SRC, default /work/main).
#   tools/gpu-session.sh OUTDIR STEP...   steps: info, gputest, bench:<args>
set -uo pipefail
out=${1:?output folder}; shift
src=${SRC:-/work/main}
here=$(pwd)
if [ "$here" != "$src" ]; then
  mkdir -p "$(dirname "$src")"
  [ -e "$src" ] || ln -s "$here" "$src"
fi
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib"
bin="$src/.gpu/build/host/spmvlab"
for step in "$@"; do
  case "$step" in
    info)
      { nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > "$out/device.txt" 2>&1
      "$bin" list -v > "$out/list.txt" 2>&1
      cat "$out/device.txt" | head -15 ;;
    gputest)
      (cd "$src/.gpu/build" && ctest -L gpu --output-on-failure --timeout 600) > "$out/ctest-gpu.log" 2>&1
      echo "ctest -L gpu: exit $?"; grep -E "tests passed|tests failed|\(Failed\)|Not Run|\*\*\*" "$out/ctest-gpu.log" | tail -40 ;;
    bench:*)
      args=${step#bench:}
      name=$(echo "$args" | cut -d: -f1); rest=$(echo "$args" | cut -d: -f2-)
      (cd "$src" && eval "$bin run $rest -o $out/$name.csv --json $out/$name.json") > "$out/$name.log" 2>&1
      echo "bench $name: exit $?"; tail -60 "$out/$name.log" ;;
  esac
done
