/*
 * hyb kernels: the ELL part (a group of 1, 2, 4 or 8 lanes per row,
 * column-major slots) and the COO part (the blocked or segmented kernel
 * shared with the coo plugin). hyb.c mirrors both on the CPU in hyb_host_*.
 */
#include "hyb.h"

#include "../coo/coo_blocked.cuh"
#include "../coo/coo_owner.cuh"
#include "../coo/coo_segmented.cuh"
#include "spmvlab/plugin.h"
#include "../common/launch.cuh"

namespace {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kUnroll = 4; // ELL slots per lane loaded together

/* a*b + c rounded once, as fma()/fmaf() in hyb_host_*. */
__device__ __forceinline__ double hyb_fma(double a, double b, double c)
{
    return __fma_rn(a, b, c);
}
__device__ __forceinline__ float hyb_fma(float a, float b, float c)
{
    return __fmaf_rn(a, b, c);
}

/* G lanes per row: lane g of row i walks slots g, g+G, ... (slot k of row i
 * at k*rows + i) until the padding marker (col < 0) or the width; then a
 * shuffle tree (offsets G/2, ..., 1) adds the lanes and lane 0 stores the
 * row. For one step, the lanes of one g read the same slot of 32/G
 * consecutive rows: consecutive values, whole 32-byte sectors for
 * G <= sizeof(T). */
template <typename T, int G>
__global__ void __launch_bounds__(HYB_BLOCK)
    hyb_ell_kernel(int32_t rows, int32_t width, const int32_t *__restrict__ col,
                   const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y)
{
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const int g = (int)(threadIdx.x % G);
    const long long i = t / G;
    T sum = 0;
    if (i < rows) {
        // kUnroll slots per step: their column loads, then their value and x
        // loads, are in flight together; padding (col < 0) only ever ends a
        // row, so the in-order sum over the valid slots is the host's.
        for (int32_t k0 = g; k0 < width; k0 += kUnroll * G) {
            int32_t c[kUnroll];
            T a[kUnroll], b[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; u++) {
                const int32_t k = k0 + u * G;
                c[u] = k < width ? __ldg(col + (size_t)k * (size_t)rows + (size_t)i) : -1;
            }
#pragma unroll
            for (int u = 0; u < kUnroll; u++) {
                a[u] = 0;
                b[u] = 0;
                if (c[u] >= 0) {
                    a[u] = __ldg(val + (size_t)(k0 + u * G) * (size_t)rows + (size_t)i);
                    b[u] = __ldg(x + c[u]);
                }
            }
#pragma unroll
            for (int u = 0; u < kUnroll; u++)
                if (c[u] >= 0)
                    sum = hyb_fma(a[u], b[u], sum);
            if (c[kUnroll - 1] < 0)
                break;
        }
    }
    for (int s = G / 2; s > 0; s /= 2) /* every lane takes part, rows or not */
        sum += __shfl_down_sync(kFullMask, sum, s, G);
    if (i < rows && g == 0)
        y[i] = sum;
}

template <typename T>
cudaError_t launch_ell(int32_t rows, int32_t width, int32_t lanes, const int32_t *col,
                       const void *val, const void *x, void *y, cudaStream_t stream)
{
    if (width == 0)
        return cudaMemsetAsync(y, 0, (size_t)rows * sizeof(T), stream);
    const unsigned blocks = (unsigned)(((long long)rows * lanes + HYB_BLOCK - 1) / HYB_BLOCK);
    const T *v = static_cast<const T *>(val), *xx = static_cast<const T *>(x);
    T *yy = static_cast<T *>(y);
    with_lanes<HYB_MAX_LANES>(lanes, [&](auto g) {
        hyb_ell_kernel<T, decltype(g)::value><<<blocks, HYB_BLOCK, 0, stream>>>(rows, width, col, v, xx, yy);
    });
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t hyb_launch_ell(int dtype, int32_t rows, int32_t width, int32_t lanes,
                                      const int32_t *col, const void *val, const void *x, void *y,
                                      cudaStream_t stream)
{
    if (rows <= 0)
        return cudaSuccess;
    if (dtype == SPMVLAB_F64)
        return launch_ell<double>(rows, width, lanes, col, val, x, y, stream);
    return launch_ell<float>(rows, width, lanes, col, val, x, y, stream);
}

namespace {

template <typename T>
cudaError_t launch_coo(int kernel, int y_zeroed, int32_t rows, coo_seg_plan plan, int32_t entries,
                       const int32_t *row, const int32_t *col, const void *val, const void *x,
                       void *y, const coo_own *own, cudaStream_t stream)
{
    const bool blocked = kernel == HYB_COO_BLOCKED;
    if (own)
        return coo_owner::launch<T>(blocked, COO_BLK_ITEMS, plan, entries, rows, row, col, val, x,
                                    y, *own, stream);
    if (blocked)
        return y_zeroed ? coo_blk::launch<T, coo_seg::kStore>(plan, COO_BLK_ITEMS, entries, rows,
                                                              row, col, val, x, y, nullptr, stream)
                        : coo_blk::launch<T, coo_seg::kAdd>(plan, COO_BLK_ITEMS, entries, rows,
                                                            row, col, val, x, y, nullptr, stream);
    return y_zeroed ? coo_seg::launch<T, coo_seg::kStore>(plan, entries, rows, row, col, val, x, y,
                                                          nullptr, stream)
                    : coo_seg::launch<T, coo_seg::kAdd>(plan, entries, rows, row, col, val, x, y,
                                                        nullptr, stream);
}

template <typename T> int coo_occupancy(int kernel, int y_zeroed)
{
    if (kernel == HYB_COO_BLOCKED)
        return y_zeroed ? coo_blk::blocks_per_sm<T, coo_seg::kStore>()
                        : coo_blk::blocks_per_sm<T, coo_seg::kAdd>();
    return y_zeroed ? coo_seg::blocks_per_sm<T, coo_seg::kStore>()
                    : coo_seg::blocks_per_sm<T, coo_seg::kAdd>();
}

} // namespace

extern "C" cudaError_t hyb_launch_coo(int kernel, int dtype, int y_zeroed, int32_t rows,
                                      coo_seg_plan plan, int32_t entries, const int32_t *row,
                                      const int32_t *col, const void *val, const void *x, void *y,
                                      const coo_own *own, cudaStream_t stream)
{
    if (dtype == SPMVLAB_F64)
        return launch_coo<double>(kernel, y_zeroed, rows, plan, entries, row, col, val, x, y, own,
                                  stream);
    return launch_coo<float>(kernel, y_zeroed, rows, plan, entries, row, col, val, x, y, own,
                             stream);
}

extern "C" int hyb_coo_occupancy(int kernel, int dtype, int y_zeroed)
{
    return dtype == SPMVLAB_F64 ? coo_occupancy<double>(kernel, y_zeroed)
                                : coo_occupancy<float>(kernel, y_zeroed);
}
