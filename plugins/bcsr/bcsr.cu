// bcsr kernel: one warp per block row. The block row's values are one
// contiguous array (blocks in column order, row-major r x c within a
// block), and lane l reads position l of each step, so a warp's loads are
// consecutive words:
//  - r*c <= 32: a step covers g = 32 / (r*c) whole blocks; lane l serves
//    block l / (r*c) of the step at position l % (r*c), the same position
//    in every block, so its row (ii) and column (jj) in the block are fixed
//    and one accumulator suffices; lanes >= g*r*c idle.
//  - r*c > 32 (S = 2): a step is one block; lane l serves positions l and
//    l + 32 with one accumulator each.
// The c values of x a block needs are consecutive (x[col0 .. col0 + c)),
// read through the read-only path; the block columns are fetched 32 at a
// time, one per lane, and passed by shuffles. The lanes' partial sums are then summed
// per block-row row with xor shuffles (every lane gets each total), after
// each lane has added its share of that row's CSR remainder, so y is
// written once per row, remainder included, in one launch. bcsr_host.c
// runs the same lanes in the same order.
#include <cuda_runtime.h>

#include "bcsr.h"
#include "../common/launch.cuh"
#include "../common/value_store.cuh"

namespace {

constexpr int kThreads = 256; // 8 block rows per thread block
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ double bcsr_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float bcsr_fma(float a, float b, float c) { return fmaf(a, b, c); }

// bval and rval: the values of the blocks and of the remainder (functors of
// value_store.cuh: the values, their codes' table entries or a pattern).
template <typename T, int S, typename V>
__global__ void __launch_bounds__(kThreads)
bcsr_kernel(int32_t nbr, int32_t rows, int r, int c, int g, const int32_t *__restrict__ bptr,
            const int32_t *__restrict__ bcol, V bval, const int32_t *__restrict__ rptr,
            const int32_t *__restrict__ rcol, V rval, const T *__restrict__ x, T *__restrict__ y)
{
    const int lane = threadIdx.x & (BCSR_WARP - 1);
    const int64_t br = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / BCSR_WARP;
    if (br >= nbr) // the whole warp leaves together: the shuffles below see 32 lanes
        return;
    const int rc = r * c;
    // This lane's fixed positions within a block.
    const int goff = S == 1 ? lane / rc : 0;
    const int p0 = S == 1 ? lane - goff * rc : lane, p1 = lane + BCSR_WARP;
    const bool act0 = goff < g, act1 = S == 2 && p1 < rc;
    const int ii0 = p0 / c, jj0 = p0 - ii0 * c, ii1 = p1 / c, jj1 = p1 - ii1 * c;

    // The block columns come 32 at a time, one per lane, in one coalesced
    // load; a lane takes its block's column from its owner by a shuffle, so
    // the x loads wait for no second memory round trip. The step loop has
    // the same trip count on every lane, as the shuffle needs.
    T acc0 = 0, acc1 = 0;
    const int32_t kb = __ldg(bptr + br), ke = __ldg(bptr + br + 1);
    for (int32_t cb = kb; cb < ke; cb += BCSR_WARP) {
        const int nb = ke - cb < BCSR_WARP ? ke - cb : BCSR_WARP;
        const int32_t mycol = lane < nb ? __ldg(bcol + cb + lane) : 0;
        const int64_t v = (int64_t)cb * rc;
#pragma unroll 4
        for (int j0 = 0; j0 < nb; j0 += g) {
            const int j = j0 + goff;
            const int32_t col0 = __shfl_sync(kFull, mycol, j & (BCSR_WARP - 1));
            if (act0 && j < nb) {
                const int64_t vb = v + (int64_t)j * rc;
                acc0 = bcsr_fma(bval(vb + p0), __ldg(x + col0 + jj0), acc0);
                if (S == 2 && act1)
                    acc1 = bcsr_fma(bval(vb + p1), __ldg(x + col0 + jj1), acc1);
            }
        }
    }
    const int64_t row0 = br * r;
    T mine = 0;
    for (int ii = 0; ii < r; ii++) {
        T t = act0 && ii0 == ii ? acc0 : T(0);
        if (S == 2)
            t += act1 && ii1 == ii ? acc1 : T(0);
        const int64_t row = row0 + ii;
        if (rptr && row < rows)
            for (int32_t k = __ldg(rptr + row) + lane, e = __ldg(rptr + row + 1); k < e; k += BCSR_WARP)
                t = bcsr_fma(rval(k), __ldg(x + __ldg(rcol + k)), t);
        for (int m = BCSR_WARP / 2; m > 0; m >>= 1)
            t += __shfl_xor_sync(kFull, t, m);
        if (lane == ii)
            mine = t;
    }
    if (lane < r && row0 + lane < rows)
        y[row0 + lane] = mine;
}

template <typename T>
cudaError_t launch_typed(const bcsr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const int rc = f->r * f->c, g = rc <= BCSR_WARP ? BCSR_WARP / rc : 1;
    const int64_t threads = (int64_t)f->nbr * BCSR_WARP;
    const unsigned grid = (unsigned)((threads + kThreads - 1) / kThreads);
    return with_values<T, true>(&f->vs, f->d_bval, [&](auto bval) {
        const auto rval = values_over(bval, f->d_rval);
        if (rc <= BCSR_WARP)
            bcsr_kernel<T, 1><<<grid, kThreads, 0, s>>>(f->nbr, f->rows, f->r, f->c, g, f->d_bptr, f->d_bcol, bval,
                                                        f->d_rptr, f->d_rcol, rval, x, y);
        else
            bcsr_kernel<T, 2><<<grid, kThreads, 0, s>>>(f->nbr, f->rows, f->r, f->c, g, f->d_bptr, f->d_bcol, bval,
                                                        f->d_rptr, f->d_rcol, rval, x, y);
        return cudaGetLastError();
    });
}

} // namespace

// y = A x; nothing to launch without rows (a matrix with rows but no
// entries still launches: every row is written as 0).
SPMVLAB_TYPED_LAUNCHER(bcsr_launch, bcsr_fmt, f->nbr > 0)

SPMVLAB_CUDA_ERROR_STRING(bcsr)
