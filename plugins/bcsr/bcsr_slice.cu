// bcsr slice kernel: one warp per slice of h = 32 / r block rows, one lane
// per row of a block row (layout in bcsr_slice.c). Lane (b, ii) walks the
// blocks of block row b and adds row ii of each: c values, c entries of x.
// Why not a warp per block row (bcsr.cu): there every lane waits for the
// block-row pointer, then the block columns, then values and x, and spends
// five shuffles per row on the reduction, so a warp has one step's loads in
// flight per memory latency. Here a warp load of column jj of a step is
// nbs * r consecutive words, U steps' values (U * c loads) are issued
// before the first multiply, the block columns of the next U steps are
// fetched one iteration ahead so the x loads wait for no second round trip,
// and the sum of a row stays in one register: y is written once per row by
// its lane, remainder included (that lane walks its row's remainder entries
// after the blocks). With x_share (r >= c), the r lanes of a block row load
// a block's c entries of x once and pass them by shuffles (slice_x).
// bcsr_host.c runs the same fused multiply-adds in the same order.
#include <cuda_runtime.h>

#include "bcsr.h"
#include "../common/launch.cuh"
#include "../common/value_store.cuh"

namespace {

constexpr int kThreads = 32 * BCSR_SLICE_WARPS; // 4 slices per thread block: fine-grained over the SMs
// 8 blocks of 128 per SM allow 64 registers a thread: without that bound
// ptxas keeps 40 and sinks each load next to its multiply, so a warp has
// two or three loads in flight; with it, one iteration's value and x loads
// (about 14 for c = 3) are all issued before the first multiply waits.
// 32 warps x 14 loads in flight per SM against 48 x 3.
constexpr int kMinBlocks = 8;

__device__ __forceinline__ double slice_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float slice_fma(float a, float b, float c) { return fmaf(a, b, c); }

// Steps per iteration: about 16 value loads per lane in flight (12 to 16
// for c >= 3) within the 64 registers; with x shared by shuffles about 12,
// as the shuffled x values take registers of their own.
template <int C, bool XS> struct steps {
    static constexpr int value = C == 1 ? 12 : XS ? (12 / C < 2 ? 2 : 12 / C) : (16 / C < 2 ? 2 : 16 / C);
};

// x of a step: XS (r >= c), lane ii < c of a block row's r lanes loads
// x[col + ii], one warp load for all c columns, and each lane takes the c
// values from its group by shuffles; else every lane loads its c values:
// c warp loads a step, each touching as many lines as the slice has block
// rows, which costs the L1 c times the lookups of one.
template <typename T, bool XS, bool XW>
__device__ __forceinline__ T slice_x(const T *__restrict__ x, int32_t col, int jj, T mine, unsigned gmask, int gbase)
{
    if (XS)
        return __shfl_sync(gmask, mine, gbase + jj);
    if (XW) // the thread block's window in shared memory, shifted to column 0
        return x[col + jj];
    return __ldg(x + col + jj);
}

// bval and rval: the values of the slots and of the remainder (functors of
// value_store.cuh: the values, their codes' table entries or a pattern).
template <typename T, int C, bool XS, bool XW, typename V>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
bcsr_slice_kernel(int32_t nbr, int32_t rows, int r, int h, const int32_t *__restrict__ bptr,
                  const int32_t *__restrict__ sptr, const int32_t *__restrict__ bcol, V bval,
                  const int32_t *__restrict__ rptr, const int32_t *__restrict__ rcol, V rval,
                  const T *__restrict__ x, T *__restrict__ y, const int32_t *__restrict__ xwin)
{
    constexpr int U = steps<C, XS>::value;
    extern __shared__ __align__(16) unsigned char slice_smem[];
    const T *xb = x; // where the blocks read x: x itself, or the window shifted to column 0
    if (XW) {
        T *xs = reinterpret_cast<T *>(slice_smem);
        const int32_t lo = __ldg(xwin + 2 * blockIdx.x), hi = __ldg(xwin + 2 * blockIdx.x + 1);
        for (int32_t j = lo + (int32_t)threadIdx.x; j < hi; j += kThreads)
            xs[j - lo] = __ldg(x + j);
        __syncthreads();
        xb = xs - lo;
    }
    const int lane = threadIdx.x & (BCSR_WARP - 1);
    const int64_t s = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / BCSR_WARP;
    const int64_t br0 = s * h;
    if (br0 >= nbr)
        return;
    const int nbs = nbr - br0 < h ? (int)(nbr - br0) : h, lanes = nbs * r;
    if (lane >= lanes) // idle lanes leave: shuffles stay within a block row's lanes
        return;
    const int b = lane / r, ii = lane - b * r, gbase = b * r;
    const unsigned gmask = ((1u << r) - 1u) << gbase; // this block row's lanes
    const int xi = ii < C ? ii : C - 1; // XS: the column of x this lane loads (clamped: every lane loads)
    const int64_t br = br0 + b, row = br * r + ii;
    const int32_t len = __ldg(bptr + br + 1) - __ldg(bptr + br), s0 = __ldg(sptr + s);
    const int32_t *cp = bcol + s0 + b;
    int64_t vp = (int64_t)s0 * (r * C) + lane; // this lane's first slot value
    const size_t vstep = (size_t)C * lanes; // one step's values

    // Full iterations are straight-line code, so every load of one is
    // issued before its first multiply; the next iteration's block columns
    // are read at clamped steps (never past the block row), not under a
    // branch. The last len % U steps follow, each under its own test.
    T acc = 0;
    int32_t col[U];
    if (len > 0)
#pragma unroll
        for (int u = 0; u < U; u++)
            col[u] = __ldg(cp + (size_t)(u < len ? u : len - 1) * nbs);
    int32_t k = 0;
    for (; k + U <= len; k += U) {
        T v[U][C];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int jj = 0; jj < C; jj++)
                v[u][jj] = bval(vp + (int64_t)(u * vstep) + (int64_t)jj * lanes);
        T xs[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            xs[u] = XS ? __ldg(x + col[u] + xi) : T(0);
        int32_t next[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int32_t at = k + U + u < len ? k + U + u : len - 1;
            next[u] = __ldg(cp + (size_t)at * nbs);
        }
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int jj = 0; jj < C; jj++)
                acc = slice_fma(v[u][jj], slice_x<T, XS, XW>(xb, col[u], jj, xs[u], gmask, gbase), acc);
#pragma unroll
        for (int u = 0; u < U; u++)
            col[u] = next[u];
        vp += (int64_t)(U * vstep);
    }
#pragma unroll
    for (int u = 0; u < U - 1; u++)
        if (k + u < len) { // the same on the r lanes of a block row, as the shuffles need
            const T mine = XS ? __ldg(x + col[u] + xi) : T(0);
#pragma unroll
            for (int jj = 0; jj < C; jj++)
                acc = slice_fma(bval(vp + (int64_t)(u * vstep) + (int64_t)jj * lanes),
                                slice_x<T, XS, XW>(xb, col[u], jj, mine, gmask, gbase), acc);
        }
    if (row >= rows) // a row of the last block row beyond the matrix
        return;
    if (rptr)
        for (int32_t q = __ldg(rptr + row), e = __ldg(rptr + row + 1); q < e; q++)
            acc = slice_fma(rval(q), __ldg(x + __ldg(rcol + q)), acc);
    y[row] = acc;
}

template <typename T, int C>
cudaError_t launch_c(const bcsr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const unsigned grid = (unsigned)bcsr_slice_blocks(f); // a warp a slice, BCSR_SLICE_WARPS a block
    return with_values<T, true>(&f->vs, f->d_bval, [&](auto bval) {
        using V = decltype(bval);
        auto kernel = C > 1 && f->x_share ? bcsr_slice_kernel<T, C, (C > 1), false, V>
                      : f->d_xwin         ? bcsr_slice_kernel<T, C, false, true, V>
                                          : bcsr_slice_kernel<T, C, false, false, V>;
        const size_t smem = f->d_xwin ? (size_t)f->xwin_max * sizeof(T) : 0;
        kernel<<<grid, kThreads, smem, s>>>(f->nbr, f->rows, f->r, f->slice_h, f->d_bptr, f->d_sptr, f->d_bcol, bval,
                                            f->d_rptr, f->d_rcol, values_over(bval, f->d_rval), x, y, f->d_xwin);
        return cudaGetLastError();
    });
}

template <typename T>
cudaError_t launch_typed(const bcsr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    switch (f->c) {
    case 1: return launch_c<T, 1>(f, x, y, s);
    case 2: return launch_c<T, 2>(f, x, y, s);
    case 3: return launch_c<T, 3>(f, x, y, s);
    case 4: return launch_c<T, 4>(f, x, y, s);
    case 5: return launch_c<T, 5>(f, x, y, s);
    case 6: return launch_c<T, 6>(f, x, y, s);
    case 7: return launch_c<T, 7>(f, x, y, s);
    default: return launch_c<T, 8>(f, x, y, s);
    }
}

} // namespace

SPMVLAB_TYPED_LAUNCHER(bcsr_slice_launch, bcsr_fmt, f->nslices > 0)
