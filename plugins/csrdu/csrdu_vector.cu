// csrdu vector kernel (`kernel = vector`; auto for long rows): W lanes a row, each
// lane decoding its own columns as base[k >> 5] + off[k] (the 32 lanes of a
// load read one or two bases: a broadcast), no shared memory, no staging.
// A lane group of W lanes owns R rows; per batch every lane issues the
// loads of U entries of each of its R rows (R * U = CSRDU_VEC_LOADS) before
// the first x gather and the first multiply, so a warp keeps up to 128
// entries in flight even when rows are a few entries long. A shuffle tree
// of W lanes ends each row. Rows longer than long_len are row pieces of one
// warp (tasks, in the blocks before the row blocks); a split row's pieces
// go to partial sums that the warp finishing a row's last piece adds
// (row_piece), in the combine kernel's order.
#include <cuda_runtime.h>

#include <stdint.h>

#include "csrdu.h"
#include "csrdu_device.cuh"

namespace {

using namespace csrdu_gpu;

// Row bounds of a lane group's R rows (first + G i): beg, and len = -1
// where there is no row or the row belongs to the pieces (not stored here).
template <int R, int G>
__device__ __forceinline__ void bounds(int32_t first, int32_t rows, int32_t long_len, const int32_t *__restrict__ rp,
                                       int32_t (&beg)[R], int32_t (&len)[R])
{
#pragma unroll
    for (int i = 0; i < R; i++) {
        const int32_t r = first + G * i;
        beg[i] = 0;
        len[i] = -1;
        if (r < rows) {
            beg[i] = __ldg(rp + r);
            const int32_t n = __ldg(rp + r + 1) - beg[i];
            len[i] = n <= long_len ? n : -1;
        }
    }
}

// One row group of a warp: rows row0 .. row0 + G R - 1; lane group g
// (G = 32 / W of them) owns rows row0 + g + G i, i < R, so for each i the
// warp's loads cover G consecutive rows: contiguous entries, coalesced.
// Lane v of a group adds entries v, v + W, v + 2W, ... of each row in
// order (U of them a batch); the group repeats batches until its longest
// row is done.
template <typename V, typename A, typename OffT, int W, int U, int R>
__device__ __forceinline__ void row_group(int32_t first, int v, const int32_t (&beg)[R], const int32_t (&len)[R],
                                          V val, cols<OffT> ix, const A *__restrict__ x,
                                          A *__restrict__ y)
{
    constexpr int G = 32 / W;
    int32_t most = 0;
#pragma unroll
    for (int i = 0; i < R; i++)
        most = len[i] > most ? len[i] : most;
    A sum[R];
#pragma unroll
    for (int i = 0; i < R; i++)
        sum[i] = 0;
    for (int32_t s = v; s < most; s += W * U) {
        A a[R][U], b[R][U];
        int32_t c[R][U], cb[R][U];
        uint32_t co[R][U];
#pragma unroll
        for (int i = 0; i < R; i++) // every load of the batch first (csrdu_device.cuh)
#pragma unroll
            for (int u = 0; u < U; u++) {
                const int32_t o = s + W * u;
                a[i][u] = A(0);
                cb[i][u] = 0;
                co[i][u] = 0;
                if (o < len[i]) {
                    a[i][u] = (A)val(beg[i] + o);
                    ix.load(beg[i] + o, cb[i][u], co[i][u]);
                }
            }
#pragma unroll
        for (int i = 0; i < R; i++)
#pragma unroll
            for (int u = 0; u < U; u++)
                c[i][u] = s + W * u < len[i] ? ix.decode(beg[i] + s + W * u, cb[i][u], co[i][u]) : -1;
#pragma unroll
        for (int i = 0; i < R; i++)
#pragma unroll
            for (int u = 0; u < U; u++)
                b[i][u] = c[i][u] >= 0 ? __ldg(x + c[i][u]) : A(0);
#pragma unroll
        for (int i = 0; i < R; i++)
#pragma unroll
            for (int u = 0; u < U; u++)
                if (c[i][u] >= 0)
                    sum[i] = fma(a[i][u], b[i][u], sum[i]);
    }
#pragma unroll
    for (int i = 0; i < R; i++) {
        A t = sum[i];
        for (int w = W / 2; w > 0; w /= 2) // every lane of the warp shuffles
            t += __shfl_down_sync(kFull, t, w, W);
        if (v == 0 && len[i] >= 0)
            y[first + G * i] = t;
    }
}

// Blocks [0, piece_blocks): a row piece a warp; the rest: `steps` row
// groups a warp. At most 64 registers (8 blocks, 32 warps an SM): the
// in-flight loads of all resident warps are what keeps memory busy.
template <typename V, typename A, typename OffT, int W, int U>
__global__ void __launch_bounds__(32 * CSRDU_WARPS, 8)
    csrdu_vector(int32_t piece_blocks, int32_t npieces, const csrdu_task *__restrict__ tasks, int32_t rows,
                 int32_t long_len, int steps, const int32_t *__restrict__ rp, V val, cols<OffT> ix,
                 split_sink<A> sink, const A *__restrict__ x, A *__restrict__ y)
{
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if ((int32_t)blockIdx.x < piece_blocks) {
        const int64_t t = (int64_t)blockIdx.x * CSRDU_WARPS + warp;
        if (t < npieces) // the whole warp leaves together
            row_piece<V, A, OffT>(tasks[t], lane, val, ix, sink, x, y);
        return;
    }
    // `steps` row groups a warp, in turn; the next group's bounds are
    // loaded before the current group's entries, so their latency hides
    // behind the current loads instead of adding to it.
    constexpr int R = CSRDU_VEC_LOADS / U, G = 32 / W;
    const int64_t w0 = ((int64_t)(blockIdx.x - piece_blocks) * CSRDU_WARPS + warp) * steps;
    int64_t row0 = w0 * G * R;
    if (row0 >= rows)
        return;
    const int v = lane % W;
    int32_t beg[R], len[R];
    bounds<R, G>((int32_t)row0 + lane / W, rows, long_len, rp, beg, len);
    for (int st = 0;;) {
        const int32_t first = (int32_t)row0 + lane / W;
        int32_t nbeg[R], nlen[R];
        const bool more = ++st < steps && row0 + G * R < rows;
        if (more)
            bounds<R, G>(first + G * R, rows, long_len, rp, nbeg, nlen);
        row_group<V, A, OffT, W, U, R>(first, v, beg, len, val, ix, x, y);
        if (!more)
            return;
        row0 += G * R;
#pragma unroll
        for (int i = 0; i < R; i++) {
            beg[i] = nbeg[i];
            len[i] = nlen[i];
        }
    }
}

template <typename V, typename A, typename OffT, int W, int U>
cudaError_t launch(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
{
    const int64_t per_block = (int64_t)CSRDU_WARPS * (32 / W) * (CSRDU_VEC_LOADS / U) * d->steps;
    const int64_t piece_blocks = ((int64_t)d->npieces + CSRDU_WARPS - 1) / CSRDU_WARPS;
    const int64_t blocks = piece_blocks + ((int64_t)d->rows + per_block - 1) / per_block;
    if (blocks == 0)
        return cudaSuccess;
    const cols<OffT> ix = {static_cast<const OffT *>(d->off), d->base, d->hi, d->hi_bytes};
    csrdu_vector<V, A, OffT, W, U><<<(unsigned)blocks, 32 * CSRDU_WARPS, 0, s>>>(
        (int32_t)piece_blocks, d->npieces, d->tasks, d->rows, d->long_len, d->steps, d->row_ptr, values_of<V>(d),
        ix, split_sink<A>{static_cast<A *>(d->partial), d->splits, d->nsplits, d->count}, static_cast<const A *>(x), static_cast<A *>(y));
    return cudaGetLastError();
}

// The vector kernel's launch for by_types, by lanes and batch: W below 32
// loads one entry a row per batch (U = 1).
struct VectorLaunch {
    template <typename V, typename A, typename OffT>
    static cudaError_t run(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
    {
        switch (d->lanes) {
        case 2: return launch<V, A, OffT, 2, 1>(d, x, y, s);
        case 4: return launch<V, A, OffT, 4, 1>(d, x, y, s);
        case 8: return launch<V, A, OffT, 8, 1>(d, x, y, s);
        case 16: return launch<V, A, OffT, 16, 1>(d, x, y, s);
        default: break;
        }
        switch (d->batch) {
        case 1: return launch<V, A, OffT, 32, 1>(d, x, y, s);
        case 2: return launch<V, A, OffT, 32, 2>(d, x, y, s);
        default: return launch<V, A, OffT, 32, 4>(d, x, y, s);
        }
    }
};

} // namespace

extern "C" int csrdu_launch_vector(const csrdu_dev *d, const void *x, void *y, void *stream)
{
    return by_types<VectorLaunch>(d, x, y, stream);
}
