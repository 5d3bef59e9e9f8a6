#!/usr/bin/env bash
# Runs each libFuzzer harness for SECONDS (default 30) on a copy of the seed
# corpus (tests/fuzz/corpus/<kind>/), with the dictionaries beside this
# script. Configures and builds a clang build folder first when it lacks the
# harnesses. Exits non-zero when a harness finds a crash, leak or sanitizer
# report; the input is left in WORK/artifacts/ and must become a regression
# file in tests/fuzz/regressions/<kind>/ (test_mtx_read and test_config
# read every file there).
#
#   tests/fuzz/run.sh [SECONDS] [BUILD_DIR] [WORK_DIR]
#   defaults:          30        build-fuzz  a new temporary folder
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-30}"
build="${2:-$root/build-fuzz}"
work="${3:-$(mktemp -d /tmp/spmvlab-fuzz-XXXXXX)}"
jobs="${JOBS:-2}"

cc="${FUZZ_CC:-clang}" # the C compiler of the fuzz build (CC is left to the main build)
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n; }' |
     "$cc" -fsanitize=fuzzer,address -x c - -o /dev/null 2>/dev/null; then
  echo "run.sh: $cc cannot build a libFuzzer program; install clang and its runtime (Debian: clang libclang-rt-14-dev)." >&2
  exit 2
fi
if [ ! -x "$build/tests/fuzz/fuzz_mtx_read" ] || [ ! -x "$build/tests/fuzz/fuzz_config" ]; then
  CC="$cc" cmake -S "$root" -B "$build" -DSPMVLAB_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CMAKE_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$CMAKE_CUDA_ARCHITECTURES}
fi
cmake --build "$build" --target fuzz_mtx_read fuzz_config spmvlab_probe -j "$jobs"

export SPMVLAB_FUZZ_PLUGIN_DIR="$build/tests/bad_plugins"
unset SPMVLAB_PLUGIN_PATH
export ASAN_OPTIONS="${ASAN_OPTIONS:-allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
mkdir -p "$work/artifacts"
cd "$work" # nothing is looked up in the working directory, and if it were, here is empty
status=0
for kind in mtx ini; do
  case $kind in
    mtx) harness=fuzz_mtx_read ;;
    ini) harness=fuzz_config ;;
  esac
  mkdir -p "$work/corpus/$kind"
  cp "$here/corpus/$kind"/* "$here/regressions/$kind"/* "$work/corpus/$kind/" 2>/dev/null || true
  echo "== $harness: ${seconds}s on $(ls "$work/corpus/$kind" | wc -l) seed inputs"
  if ! "$build/tests/fuzz/$harness" "$work/corpus/$kind" -dict="$here/$kind.dict" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$kind-" 2> "$work/$harness.log"; then
    status=1
    tail -n 60 "$work/$harness.log"
    echo "== $harness found a problem; the input is in $work/artifacts/ — copy it into tests/fuzz/regressions/$kind/"
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov:" "$work/$harness.log" | tail -n 3 || true
  fi
done
exit $status
