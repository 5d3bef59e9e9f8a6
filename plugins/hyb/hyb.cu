/*
 * hyb kernels: the ELL part (one thread per row, column-major slots) and the
 * COO part (warp intervals with a segmented scan, one atomicAdd per run of
 * equal rows). hyb.c mirrors both on the CPU in hyb_host_*.
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
    const int32_t i = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= rows)
        return;
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

/* One warp per interval of the row-sorted overflow entries. Each step loads
 * 32 entries, folds the carried run into lane 0, and runs an inclusive scan
 * restricted to each lane's run (runs found by a ballot of run heads). The
 * last lane of every run that ends inside the chunk adds its sum to y; the
 * run reaching lane 31 is carried to the next step. So a row costs one
 * atomic per warp it touches, however long it is. */
template <typename T>
__global__ void __launch_bounds__(HYB_BLOCK)
    hyb_coo_kernel(int32_t entries, int32_t interval, const int32_t *__restrict__ row,
                   const int32_t *__restrict__ col, const T *__restrict__ val,
                   const T *__restrict__ x, T *__restrict__ y)
{
    const int lane = (int)(threadIdx.x & (HYB_WARP - 1));
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / HYB_WARP;
    const long long begin = warp * interval;
    if (begin >= entries) /* uniform across the warp */
        return;
    const long long end = begin + interval < entries ? begin + interval : entries;
    const unsigned below_me = (2u << lane) - 1u; /* lanes 0..lane */

    int32_t carry_row = -1;
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
        const int32_t r_prev = __shfl_up_sync(kFullMask, r, 1);
        const unsigned heads = __ballot_sync(kFullMask, lane == 0 || r != r_prev);
        const int start = 31 - __clz((int)(heads & below_me)); /* first lane of my run */
        for (int d = 1; d < HYB_WARP; d <<= 1) {
            const T u = __shfl_up_sync(kFullMask, v, (unsigned)d);
            if (lane - d >= start)
                v += u;
        }
        if (lane < HYB_WARP - 1 && r >= 0 && ((heads >> (lane + 1)) & 1u))
            atomicAdd(y + r, v);
        carry_row = __shfl_sync(kFullMask, r, HYB_WARP - 1);
        carry = __shfl_sync(kFullMask, v, HYB_WARP - 1);
    }
    if (lane == 0 && carry_row >= 0)
        atomicAdd(y + carry_row, carry);
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
