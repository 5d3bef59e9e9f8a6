// tilespmv kernel: one warp per tile row (16 rows of y). Half-warp h takes
// tiles h, h + 2, ... of the tile row and lane i of the half row i of each
// tile, so one accumulator per lane suffices and no atomics are needed.
// Per kind (README.md, Layout):
//  - ELL, HYB's ELL part, dense and dense columns are column-major: the 16
//    lanes of a half read 16 consecutive values and index bytes.
//  - CSR: lane i walks its row from the tile's 8-bit row starts.
//  - COO and HYB's tail (at most a few entries by the rule): every lane of
//    the half reads every entry (one broadcast load) and keeps its row's.
//  - dense rows: the lane whose row is listed walks its 16 values.
// x of a column past the matrix (the last column of tiles) is never read:
// loops stop at the tile's last column, padding columns index column 0 of
// the tile. The halves' sums are added by one shuffle and y written once;
// tilespmv_host.c runs the same lanes in the same order.
#include <cuda_runtime.h>

#include "tilespmv.h"
#include "../common/launch.cuh"

namespace {

constexpr int kThreads = 128; // 4 tile rows per thread block
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ double tile_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float tile_fma(float a, float b, float c) { return fmaf(a, b, c); }

// Row i's share of tile g added to acc, by the tile's kind.
template <typename T>
__device__ __forceinline__ T tile_row_sum(int32_t g, int i, int32_t cols, const int32_t *__restrict__ tcol,
                                          const uint8_t *__restrict__ kind, const uint8_t *__restrict__ param,
                                          const int32_t *__restrict__ voff, const int32_t *__restrict__ ioff,
                                          const T *__restrict__ val, const uint8_t *__restrict__ idx,
                                          const T *__restrict__ x, T acc)
{
    const int32_t v0 = __ldg(voff + g), c0 = __ldg(tcol + g) * TILE;
    int32_t n = __ldg(voff + g + 1) - v0;
    const T *v = val + v0;
    const uint8_t *ix = idx + __ldg(ioff + g);
    const int p = __ldg(param + g), ncol = cols - c0 < TILE ? cols - c0 : TILE;
    const T *xt = x + c0;
    switch (__ldg(kind + g)) {
    case TILE_CSR: {
        const int e = i < TILE - 1 ? __ldg(ix + i + 1) : n;
        for (int k = __ldg(ix + i); k < e; k++)
            acc = tile_fma(__ldg(v + k), __ldg(xt + __ldg(ix + TILE + k)), acc);
        break;
    }
    case TILE_ELL:
    case TILE_HYB:
        for (int k = 0; k < p; k++)
            acc = tile_fma(__ldg(v + k * TILE + i), __ldg(xt + __ldg(ix + k * TILE + i)), acc);
        if (__ldg(kind + g) == TILE_ELL)
            break;
        v += TILE * p, ix += TILE * p, n -= TILE * p;
        for (int k = 0; k < n; k++) {
            const int rc = __ldg(ix + k);
            if (rc >> 4 == i)
                acc = tile_fma(__ldg(v + k), __ldg(xt + (rc & 15)), acc);
        }
        break;
    case TILE_COO:
        for (int k = 0; k < n; k++) {
            const int rc = __ldg(ix + k);
            if (rc >> 4 == i)
                acc = tile_fma(__ldg(v + k), __ldg(xt + (rc & 15)), acc);
        }
        break;
    case TILE_DENSE:
#pragma unroll 4
        for (int j = 0; j < ncol; j++)
            acc = tile_fma(__ldg(v + j * TILE + i), __ldg(xt + j), acc);
        break;
    case TILE_DNSROW:
        for (int k = 0; k < p; k++)
            if (__ldg(ix + k) == i)
                for (int j = 0; j < ncol; j++)
                    acc = tile_fma(__ldg(v + k * TILE + j), __ldg(xt + j), acc);
        break;
    default: // TILE_DNSCOL
        for (int k = 0; k < p; k++)
            acc = tile_fma(__ldg(v + k * TILE + i), __ldg(xt + __ldg(ix + k)), acc);
    }
    return acc;
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
tilespmv_kernel(int32_t tile_rows, int32_t rows, int32_t cols, const int32_t *__restrict__ tptr,
                const int32_t *__restrict__ tcol, const uint8_t *__restrict__ kind, const uint8_t *__restrict__ param,
                const int32_t *__restrict__ voff, const int32_t *__restrict__ ioff, const T *__restrict__ val,
                const uint8_t *__restrict__ idx, const T *__restrict__ x, T *__restrict__ y)
{
    const int lane = threadIdx.x & (TILE_WARP - 1), half = lane >> 4, i = lane & (TILE - 1);
    const int64_t tr = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / TILE_WARP;
    if (tr >= tile_rows) // the whole warp leaves together: the shuffle below sees 32 lanes
        return;
    T acc = 0;
    for (int32_t g = __ldg(tptr + tr) + half, e = __ldg(tptr + tr + 1); g < e; g += 2)
        acc = tile_row_sum(g, i, cols, tcol, kind, param, voff, ioff, val, idx, x, acc);
    acc += __shfl_xor_sync(kFull, acc, TILE);
    const int64_t row = tr * TILE + i;
    if (half == 0 && row < rows)
        y[row] = acc;
}

template <typename T>
cudaError_t launch_typed(const tilespmv_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const int64_t threads = (int64_t)f->tile_rows * TILE_WARP;
    const unsigned grid = (unsigned)((threads + kThreads - 1) / kThreads);
    tilespmv_kernel<T><<<grid, kThreads, 0, s>>>(f->tile_rows, f->rows, f->cols, f->d_tptr, f->d_tcol, f->d_kind,
                                                 f->d_param, f->d_voff, f->d_ioff,
                                                 static_cast<const T *>(f->d_val), f->d_idx, x, y);
    return cudaGetLastError();
}

} // namespace

// y = A x; nothing to launch without rows (a matrix with rows but no
// entries still launches: every row is written as 0).
SPMVLAB_TYPED_LAUNCHER(tilespmv_launch, tilespmv_fmt, f->tile_rows > 0)

SPMVLAB_CUDA_ERROR_STRING(tilespmv)
