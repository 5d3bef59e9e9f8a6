/*
 * SELL-C-sigma kernels: one launch computes y = A*x and writes y in the
 * original row order through the permutation.
 *
 * Thread mapping. T = threads_per_row threads share a row; one warp covers
 * R = 32 / T consecutive sorted positions (slice rows). Lane l works on
 * position warp * R + l % R and takes the entries k = t, t + T, t + 2T, ...
 * of that row, t = l / R. Within a slice, entry k of slice row r sits at
 * slice_ptr[s] + k * C + r, so the R lanes of one t read R consecutive
 * addresses (for T = 1 a whole warp reads 32 consecutive values and columns).
 * The T partial sums of a row are combined with __shfl_xor_sync over the
 * lane offsets 16, 8, ..., R, and lane t = 0 writes the row.
 *
 * R divides C or C divides R (C divides 32 or is a multiple of it), so the
 * lanes of one row always lie in one slice. Sorted positions >= rows (the
 * tail of the last slice) do no work and write nothing; every position
 * < rows writes its row, 0 when it holds no entry.
 *
 * Each thread accumulates with fused multiply-add in entry order, then the
 * shuffle tree adds; spmv_host in sell.c performs the same operations in
 * the same order, so CPU and GPU results agree bit for bit.
 */
#include <cuda_runtime.h>

#include "sell.h"

namespace {

constexpr int kBlock = 256; /* threads per block, a multiple of the warp */

__device__ __forceinline__ double sell_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float sell_fma(float a, float b, float c) { return fmaf(a, b, c); }

template <typename V, int T>
__global__ void __launch_bounds__(kBlock)
    sell_spmv_kernel(int32_t rows, int32_t C, const int64_t *__restrict__ slice_ptr,
                     const int32_t *__restrict__ slice_width, const int32_t *__restrict__ perm,
                     const int32_t *__restrict__ col, const V *__restrict__ val,
                     const V *__restrict__ x, V *__restrict__ y)
{
    constexpr int R = SELL_WARP / T;
    const int lane = threadIdx.x % SELL_WARP;
    const int t = lane / R;
    const int64_t warp = ((int64_t)blockIdx.x * kBlock + threadIdx.x) / SELL_WARP;
    const int64_t pos = warp * R + lane % R;
    const bool active = pos < rows;

    V sum = 0;
    if (active) {
        const int32_t p = (int32_t)pos;
        const int32_t s = p / C;
        const int32_t w = __ldg(slice_width + s);
        const int64_t step = (int64_t)T * C;
        int64_t i = __ldg(slice_ptr + s) + (p - s * C) + (int64_t)t * C;
        for (int32_t k = t; k < w; k += T, i += step) {
            const int32_t c = __ldg(col + i);
            if (c != SELL_PAD_COL)
                sum = sell_fma(__ldg(val + i), __ldg(x + c), sum);
        }
    }
    /* All 32 lanes reach this point: blocks hold whole warps and inactive
     * lanes only skip the loop above. */
#pragma unroll
    for (int off = SELL_WARP / 2; off >= R; off /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, off);
    if (active && t == 0)
        y[perm ? __ldg(perm + pos) : pos] = sum;
}

template <typename V, int T>
cudaError_t sell_launch_t(const sell_device_view *A, const void *x, void *y, cudaStream_t stream)
{
    constexpr int R = SELL_WARP / T;
    const int64_t warps = ((int64_t)A->rows + R - 1) / R;
    const int64_t blocks = (warps * SELL_WARP + kBlock - 1) / kBlock;
    sell_spmv_kernel<V, T><<<(unsigned)blocks, kBlock, 0, stream>>>(
        A->rows, A->C, A->slice_ptr, A->slice_width, A->perm, A->col,
        static_cast<const V *>(A->val), static_cast<const V *>(x), static_cast<V *>(y));
    return cudaGetLastError();
}

template <typename V>
cudaError_t sell_launch_v(const sell_device_view *A, const void *x, void *y, cudaStream_t stream)
{
    switch (A->threads_per_row) {
    case 1: return sell_launch_t<V, 1>(A, x, y, stream);
    case 2: return sell_launch_t<V, 2>(A, x, y, stream);
    case 4: return sell_launch_t<V, 4>(A, x, y, stream);
    case 8: return sell_launch_t<V, 8>(A, x, y, stream);
    case 16: return sell_launch_t<V, 16>(A, x, y, stream);
    case 32: return sell_launch_t<V, 32>(A, x, y, stream);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

extern "C" int sell_spmv_launch(const sell_device_view *A, const void *x, void *y, void *stream)
{
    if (A->rows <= 0)
        return (int)cudaSuccess; /* nothing to write; never launch an empty grid */
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    cudaError_t e = A->is_f32 ? sell_launch_v<float>(A, x, y, s) : sell_launch_v<double>(A, x, y, s);
    return (int)e;
}

extern "C" const char *sell_cuda_error_text(int code)
{
    return cudaGetErrorString(static_cast<cudaError_t>(code));
}
