#!/bin/sh
# A plugin written, built and checked outside the tree, as a researcher does
# it: install spmvlab into a temporary prefix; `spmvlab new-plugin foo`;
# build foo and examples/band with find_package(spmvlab) and
# spmvlab_add_plugin for one CUDA architecture; run the installed
# `spmvlab check` on both (CPU) and foo's own tests; install both plugins
# and find them without --plugin-dir; compile against the pkg-config file.
#
# Environment (set by ctest): SPMVLAB_BUILD_DIR, SPMVLAB_SOURCE_DIR, CMAKE,
# CTEST. Exit 0 on success, 1 with the failing step's output otherwise.
set -eu
: "${SPMVLAB_BUILD_DIR:?the spmvlab build folder}" "${SPMVLAB_SOURCE_DIR:?the spmvlab source folder}"
CMAKE=${CMAKE:-cmake}
CTEST=${CTEST:-ctest}
ARCH=80 # one architecture keeps the CUDA compiles short

work=$(mktemp -d "${TMPDIR:-/tmp}/spmvlab-oot.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
spmvlab=$prefix/bin/spmvlab
unset SPMVLAB_PLUGIN_PATH || true
export SPMVLAB_NO_CACHE=1

# step TITLE COMMAND...: runs COMMAND, printing its output only on failure.
step() {
    title=$1
    shift
    printf '%s ... ' "$title"
    if "$@" > "$work/step.log" 2>&1; then
        echo "ok $(grep '^PASSED' "$work/step.log" | tail -n 1 || true)"
    else
        echo FAILED
        cat "$work/step.log"
        exit 1
    fi
}

# build NAME SOURCE_DIR: configure and build an out-of-tree plugin.
build() {
    "$CMAKE" -S "$2" -B "$work/build-$1" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES=$ARCH &&
        "$CMAKE" --build "$work/build-$1" -j2
}

step "install spmvlab into a temporary prefix" "$CMAKE" --install "$SPMVLAB_BUILD_DIR" --prefix "$prefix"
step "spmvlab new-plugin foo" "$spmvlab" new-plugin foo "$work/foo"
step "refuses to overwrite foo" sh -c '! "$1" new-plugin foo "$2"' sh "$spmvlab" "$work/foo"
step "build foo against the package (sm_$ARCH)" build foo "$work/foo"
step "build examples/band against the package (sm_$ARCH)" build band "$SPMVLAB_SOURCE_DIR/examples/band"
data=$prefix/share/spmvlab/data
step "spmvlab check foo" "$spmvlab" check foo --plugin-dir "$work/build-foo" --matrix-dir "$data"
step "spmvlab check band" "$spmvlab" check band --plugin-dir "$work/build-band" --matrix-dir "$data"
step "spmvlab check band --option max_fill=1.5" "$spmvlab" check band --plugin-dir "$work/build-band" --option max_fill=1.5
step "foo's own tests" sh -c 'cd "$1" && "$2" --output-on-failure -LE gpu' sh "$work/build-foo" "$CTEST"
step "band's own tests (with generated banded matrices)" sh -c 'cd "$1" && "$2" --output-on-failure -LE gpu' \
    sh "$work/build-band" "$CTEST"
step "install foo and band into the prefix" sh -c \
    '"$1" --install "$2/build-foo" --prefix "$3" && "$1" --install "$2/build-band" --prefix "$3"' \
    sh "$CMAKE" "$work" "$prefix"
step "the installed host finds them" sh -c \
    '"$1" list > "$2/list.txt" && grep -q "^ *foo" "$2/list.txt" && grep -q "^ *band" "$2/list.txt" &&
     "$1" check band --no-edge-cases --matrix "$3/dw8192.mtx.gz"' sh "$spmvlab" "$work" "$data"
if command -v pkg-config > /dev/null 2>&1; then
    step "compile foo.c with pkg-config's flags" sh -c \
        'cc -std=c11 -fsyntax-only $(PKG_CONFIG_PATH="$1/lib/pkgconfig" pkg-config --cflags spmvlab) "$2/foo/foo.c"' \
        sh "$prefix" "$work"
fi
echo "out-of-tree authoring works"
