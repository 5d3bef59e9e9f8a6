# What every script here shares; each runs from the checkout's root on the
# lent machine (`bash docs/perf/2026-11-24-h100/scripts/runNN.sh`, results
# under $OUT), with the build copied into .gpu/ (configured at /work/gpuwt).
set -uo pipefail
root=$(pwd); ln -sfn .gpu/build build
[ -e /work/gpuwt ] || { mkdir -p /work; ln -s "$root" /work/gpuwt; }
mkdir -p /work/shared/matrices; cp -n .gpu/matrices/*.mtx.gz /work/shared/matrices/ 2>/dev/null
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 SPMVLAB_CACHE_DIR=/tmp/spmvlab-cache PATH=$PATH:/usr/local/cuda/bin
export SPMVLAB_COMMIT=$(cat .gpu/COMMIT)
B=/work/gpuwt/.gpu/build/host/spmvlab
cd /work/gpuwt

# gputest LOG [PATTERN]: ctest -L gpu (only the tests matching PATTERN) into $OUT/LOG.
gputest() {
  (cd .gpu/build && ctest -L gpu ${2:+-R "$2"} -j8 --timeout 300 --output-on-failure) > "$OUT/$1" 2>&1
  echo "ctest: $?"; grep -E "tests passed|Failed|Timeout|Total Test" "$OUT/$1" | head
}

# sets: the large and small sets generated into the cache.
sets() { "$B" gen --set large > /dev/null 2>&1; "$B" gen --set small > /dev/null 2>&1; }

# gen_mtx DIR NAME...: the large set's recipes written as DIR/NAME.mtx where
# missing, in parallel.
gen_mtx() {
  local dir=$1 name args; shift; mkdir -p "$dir"
  for name in "$@"; do
    [ -e "$dir/$name.mtx" ] && continue
    case $name in
      stencil2d5-2000) args="stencil2d5 --n 2000" ;;
      stencil3d7-128) args="stencil3d7 --n 128" ;;
      banded-bw4) args="banded --n 2000000 --bandwidth 4" ;;
      blocks-3x3) args="blocks --block_rows 120000 --bpr 20 --r 3 --c 3 --spread 200" ;;
      blocks-6x6) args="blocks --block_rows 20000 --bpr 20 --r 6 --c 6 --spread 1000" ;;
      uniform-k8) args="uniform --n 2000000 --k 8" ;;
      uniform-k32) args="uniform --n 500000 --k 32" ;;
      rmat-s20-ef8-sym) args="rmat --scale 20 --edge_factor 8 --undirected 1" ;;
      rmat-s22-ef4) args="rmat --scale 22 --edge_factor 4" ;;
      mixed-1m) args="mixed --n 1000000 --short_len 4 --medium_len 64 --long_len 1024 --short_frac 0.9 --medium_frac 0.09" ;;
      mixed-2m) args="mixed --n 2000000 --short_len 2 --medium_len 16 --long_len 256 --short_frac 0.8 --medium_frac 0.19" ;;
      *) echo "no recipe for $name"; continue ;;
    esac
    "$B" gen $args -o "$dir/$name.mtx" > /dev/null &
  done
  wait
}

# research_files: F, the files the original programs and spmvlab read side
# by side (the generated ones in /tmp/mtx).
research_files() {
  gen_mtx /tmp/mtx stencil2d5-2000 stencil3d7-128 banded-bw4 blocks-3x3 rmat-s20-ef8-sym mixed-1m rmat-s22-ef4
  F="data/1138_bus.mtx.gz /work/shared/matrices/G3_circuit.mtx.gz"
  local n; for n in stencil2d5-2000 stencil3d7-128 banded-bw4 blocks-3x3 rmat-s20-ef8-sym mixed-1m rmat-s22-ef4; do F="$F /tmp/mtx/$n.mtx"; done
}

# table NAME...: each $OUT/NAME.csv as a line a matrix, instance=µs, and its failed cells.
table() {
  python3 - "$@" <<'PY'
import csv, os, sys
for name in sys.argv[1:]:
    t = {}
    for r in csv.DictReader(open(os.path.join(os.environ['OUT'], name + '.csv'))):
        if r['status'] == 'ok':
            t.setdefault(r['matrix'], {})[r['instance']] = float(r['ms']) * 1000
        else:
            print(r['matrix'], r['instance'], r['status'], r['message'][:100])
    for m, d in sorted(t.items()):
        print(m[:16].ljust(16), ' '.join(f"{k}={v:.2f}" for k, v in sorted(d.items())))
PY
}
