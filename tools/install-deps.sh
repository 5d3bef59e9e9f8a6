#!/usr/bin/env bash
# Installs what spmvlab needs that this Debian machine lacks (run as root).
# The CUDA toolkit (nvcc, cudart, cuSPARSE) must already be installed.
set -euo pipefail

# gnuplot-nox: report's plots; its cairo terminals (pngcairo, pdfcairo) draw the PNG and PDF figures
need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in cmake make gcc g++ zlib1g-dev libinih-dev pkg-config gnuplot-nox clang libclang-rt-14-dev; do
  have "$pkg" || need+=("$pkg")
done
if ((${#need[@]})); then
  echo "installing: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

if ! command -v nvcc >/dev/null 2>&1; then
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    if [ -x "$d/nvcc" ]; then
      echo "nvcc found in $d; add it to PATH (export PATH=$d:\$PATH)"
      exit 0
    fi
  done
  echo "spmvlab needs the CUDA toolkit (nvcc, cudart, cuSPARSE); none was found." >&2
  exit 1
fi
