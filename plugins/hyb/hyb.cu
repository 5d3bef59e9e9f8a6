/*
 * hyb kernels: the ELL part (one thread per row, column-major slots) and the
 * COO part (warp intervals with a segmented scan, one atomicAdd per run of
 * equal rows, runs crossing warps combined per block). hyb.c mirrors both
 * on the CPU in hyb_host_*.
 */
#include "hyb.h"

#include "spmvlab/plugin.h"

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

/* a*b + c rounded once, as fma()/fmaf() in hyb_host_*. */
__device__ __forceinline__ double hyb_fma(double a, double b, double c)
{
    return __fma_rn(a, b, c);
}
__device__ __forceinline__ float hyb_fma(float a, float b, float c)
{
    return __fmaf_rn(a, b, c);
}
/* a*b, never fused into a later addition, as the plain product in hyb_host_*. */
__device__ __forceinline__ double hyb_mul(double a, double b)
{
    return __dmul_rn(a, b);
}
__device__ __forceinline__ float hyb_mul(float a, float b)
{
    return __fmul_rn(a, b);
}

/* One thread per row: walks the row's slots k*rows + i until the padding
 * marker (col < 0) or the width, then stores the sum. Every row is written. */
template <typename T>
__global__ void __launch_bounds__(HYB_BLOCK)
    hyb_ell_kernel(int32_t rows, int32_t width, const int32_t *__restrict__ col,
                   const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y)
{
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= rows)
        return;
    const int32_t i = (int32_t)t;
    T sum = 0;
    size_t slot = (size_t)i;
    for (int32_t k = 0; k < width; k++, slot += (size_t)rows) {
        const int32_t c = __ldg(col + slot);
        if (c < 0)
            break;
        sum = hyb_fma(__ldg(val + slot), __ldg(x + c), sum);
    }
    y[i] = sum;
}

/* Inclusive scan of v over the 32 lanes, restricted to runs of equal r;
 * returns the ballot of run heads (bit l: lane l starts a run). */
template <typename T> __device__ __forceinline__ unsigned hyb_run_scan(T &v, int32_t r, int lane)
{
    const int32_t r_prev = __shfl_up_sync(kFullMask, r, 1);
    const unsigned heads = __ballot_sync(kFullMask, lane == 0 || r != r_prev);
    const int start = 31 - __clz((int)(heads & ((2u << lane) - 1u))); /* my run's first lane */
    for (int d = 1; d < HYB_WARP; d <<= 1) {
        const T u = __shfl_up_sync(kFullMask, v, (unsigned)d);
        if (lane - d >= start)
            v += u;
    }
    return heads;
}

/* One warp per interval of the row-sorted overflow entries; the intervals of
 * a block are consecutive. Each step loads 32 entries, folds the carried run
 * into lane 0 and scans within runs of equal rows; the last lane of every run
 * that ends inside the step adds the run's sum to y, and the run reaching
 * lane 31 is carried to the next step. At the end the block's warps hand
 * their carries to warp 0, which scans them the same way, so a row spanning
 * many intervals costs one atomic per block, however long it is. */
template <typename T>
__global__ void __launch_bounds__(HYB_BLOCK)
    hyb_coo_kernel(int32_t entries, int32_t interval, const int32_t *__restrict__ row,
                   const int32_t *__restrict__ col, const T *__restrict__ val,
                   const T *__restrict__ x, T *__restrict__ y)
{
    constexpr int kWarps = HYB_BLOCK / HYB_WARP;
    __shared__ int32_t block_rows[kWarps];
    __shared__ T block_sums[kWarps];
    const int lane = (int)(threadIdx.x % HYB_WARP), w = (int)(threadIdx.x / HYB_WARP);
    const long long begin = ((long long)blockIdx.x * kWarps + w) * interval;
    const long long end = begin + interval < entries ? begin + interval : entries;

    int32_t carry_row = -1; /* no warp returns early: all reach __syncthreads */
    T carry = 0;
    for (long long base = begin; base < end; base += HYB_WARP) {
        const long long k = base + lane;
        int32_t r = -1;
        T v = 0;
        if (k < end) {
            r = __ldg(row + k);
            v = hyb_mul(__ldg(val + k), __ldg(x + __ldg(col + k)));
        }
        if (lane == 0) { /* lane 0 is always active: base < end */
            if (r == carry_row)
                v += carry;
            else if (carry_row >= 0)
                atomicAdd(y + carry_row, carry);
        }
        const unsigned heads = hyb_run_scan(v, r, lane);
        if (lane < HYB_WARP - 1 && r >= 0 && ((heads >> (lane + 1)) & 1u))
            atomicAdd(y + r, v);
        carry_row = __shfl_sync(kFullMask, r, HYB_WARP - 1);
        carry = __shfl_sync(kFullMask, v, HYB_WARP - 1);
    }
    if (lane == 0) {
        block_rows[w] = carry_row;
        block_sums[w] = carry;
    }
    __syncthreads();
    if (w == 0) {
        int32_t r = lane < kWarps ? block_rows[lane] : -1;
        T v = lane < kWarps ? block_sums[lane] : (T)0;
        const unsigned heads = hyb_run_scan(v, r, lane);
        if (r >= 0 && (lane == HYB_WARP - 1 || ((heads >> (lane + 1)) & 1u)))
            atomicAdd(y + r, v);
    }
}

inline unsigned blocks_for(long long threads)
{
    return (unsigned)((threads + HYB_BLOCK - 1) / HYB_BLOCK);
}

template <typename T>
cudaError_t launch_ell(int32_t rows, int32_t width, const int32_t *col, const void *val,
                       const void *x, void *y, cudaStream_t stream)
{
    hyb_ell_kernel<T><<<blocks_for(rows), HYB_BLOCK, 0, stream>>>(
        rows, width, col, static_cast<const T *>(val), static_cast<const T *>(x),
        static_cast<T *>(y));
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_coo(int32_t entries, int32_t interval, int32_t warps, const int32_t *row,
                       const int32_t *col, const void *val, const void *x, void *y,
                       cudaStream_t stream)
{
    hyb_coo_kernel<T><<<blocks_for((long long)warps * HYB_WARP), HYB_BLOCK, 0, stream>>>(
        entries, interval, row, col, static_cast<const T *>(val), static_cast<const T *>(x),
        static_cast<T *>(y));
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t hyb_launch_ell(int dtype, int32_t rows, int32_t width, const int32_t *col,
                                      const void *val, const void *x, void *y, cudaStream_t stream)
{
    if (rows <= 0)
        return cudaSuccess;
    if (dtype == SPMVLAB_F64)
        return launch_ell<double>(rows, width, col, val, x, y, stream);
    return launch_ell<float>(rows, width, col, val, x, y, stream);
}

extern "C" cudaError_t hyb_launch_coo(int dtype, int32_t entries, int32_t interval, int32_t warps,
                                      const int32_t *row, const int32_t *col, const void *val,
                                      const void *x, void *y, cudaStream_t stream)
{
    if (entries <= 0 || warps <= 0 || interval <= 0)
        return cudaSuccess;
    if (dtype == SPMVLAB_F64)
        return launch_coo<double>(entries, interval, warps, row, col, val, x, y, stream);
    return launch_coo<float>(entries, interval, warps, row, col, val, x, y, stream);
}
