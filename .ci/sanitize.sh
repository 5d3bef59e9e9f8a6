#!/usr/bin/env bash
# CI: the CPU test suite under AddressSanitizer + UndefinedBehaviorSanitizer.
# A second build (SPMVLAB_SANITIZE=ON) instruments the core, the host, the
# tests and the host-side C of every plugin; the plugins' .so files load into
# the instrumented host without LD_PRELOAD. CUDA code is not instrumented
# (and never runs without a GPU), so one CUDA architecture is enough here.
# The tests over the large shared matrices are left out (-LE shared): under
# the sanitizers they cost far more time than they add.
#
#   .ci/sanitize.sh            build-sanitize/, JOBS=2
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
build="${BUILD_DIR:-build-sanitize}"
jobs="${JOBS:-2}"

cmake -S . -B "$build" -DSPMVLAB_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CUDA_ARCHITECTURES="${SANITIZE_CUDA_ARCHITECTURES:-80}"
cmake --build "$build" -j "$jobs"

# Leaks count as failures; failed allocations return NULL (the code handles
# it, and runaway-allocation tests rely on it); any UB report ends the test.
# handle_segv=0: a segfault stays a signal, which the isolation of faulty
# plugins (and its tests) must see as such — ASan's handler would report it
# and exit with status 1 instead.
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:handle_segv=0:detect_stack_use_after_return=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cd "$build"
ctest -L cpu -LE shared --output-on-failure -j "$jobs" --timeout 900
