// dia kernel: one thread per row walking the diagonals in ascending offset.
// Thread i of a block reads val[start + i - begin] of each diagonal, so a
// warp's loads are consecutive words; a diagonal's metadata is one int4
// that the whole warp reads at once. x: with `shared`, the block first
// copies its window x[row0 + min_off, row0 + rows + max_off) (clamped to the
// matrix) into shared memory, and every diagonal reads it from there; else
// x is read through the read-only (L1) path, where neighbouring diagonals
// hit the same lines. dia.c runs the same loop on the CPU.
#include <cuda_runtime.h>

#include "dia.h"
#include "../common/launch.cuh"
#include "../common/value_store.cuh"

namespace {

__device__ __forceinline__ double dia_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float dia_fma(float a, float b, float c) { return fmaf(a, b, c); }

template <typename T, bool Shared, typename V>
__global__ void __launch_bounds__(DIA_BLOCK)
dia_kernel(int32_t rows, int32_t cols, int32_t ndiag, int32_t min_off, int32_t max_off,
           const int4 *__restrict__ diags, V vals, const T *__restrict__ x, T *__restrict__ y)
{
    extern __shared__ unsigned char dia_smem[];
    T *xs = reinterpret_cast<T *>(dia_smem);
    const int64_t row0 = (int64_t)blockIdx.x * DIA_BLOCK, i = row0 + threadIdx.x;
    int64_t wlo = 0;
    if (Shared) {
        wlo = row0 + min_off > 0 ? row0 + min_off : 0;
        const int64_t whi = row0 + DIA_BLOCK + max_off < cols ? row0 + DIA_BLOCK + max_off : cols;
        for (int64_t j = wlo + threadIdx.x; j < whi; j += DIA_BLOCK)
            xs[j - wlo] = __ldg(x + j);
        __syncthreads();
    }
    if (i >= rows)
        return;
    T sum = 0;
#pragma unroll 4
    for (int32_t d = 0; d < ndiag; d++) {
        const int4 g = __ldg(diags + d); // offset, begin, end, start
        if (i >= g.y && i < g.z) {
            const T v = vals(g.w + (i - g.y)); // the value itself, its code's table entry, or the pattern
            const int64_t col = i + g.x;
            sum = dia_fma(v, Shared ? xs[col - wlo] : __ldg(x + col), sum);
        }
    }
    y[i] = sum;
}

template <typename T>
cudaError_t launch_typed(const dia_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const unsigned grid = (unsigned)(((int64_t)f->rows + DIA_BLOCK - 1) / DIA_BLOCK);
    const int4 *diags = reinterpret_cast<const int4 *>(f->d_diags);
    return with_values<T>(&f->vs, f->d_val, [&](auto vals) {
        if (f->shared) {
            const size_t smem = ((size_t)DIA_BLOCK + (size_t)(f->max_off - f->min_off)) * sizeof(T);
            dia_kernel<T, true><<<grid, DIA_BLOCK, smem, s>>>(f->rows, f->cols, f->ndiag, f->min_off, f->max_off,
                                                              diags, vals, x, y);
        } else {
            dia_kernel<T, false><<<grid, DIA_BLOCK, 0, s>>>(f->rows, f->cols, f->ndiag, f->min_off, f->max_off,
                                                            diags, vals, x, y);
        }
        return cudaGetLastError();
    });
}

} // namespace

// y = A x; nothing to launch without rows (rows without diagonals are
// written as 0).
SPMVLAB_TYPED_LAUNCHER(dia_launch, dia_fmt, f->rows > 0)

SPMVLAB_CUDA_ERROR_STRING(dia)
