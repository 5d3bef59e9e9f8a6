// csrdu stream kernel (`kernel = stream`): CSR-stream row tiles of one
// block (Greathouse & Daga, SC'14) over the compressed index. A tile holds
// whole rows, at most CSRDU_STREAM_TILE entries and CSRDU_STREAM_ROWS rows;
// each of its 128 threads issues the loads of 8 entries (value, offset,
// base) and the tile's row bounds at once, gathers x, stages the products
// in shared memory; after one barrier, csrdu_stream_lanes(rows) lanes a
// row (one thread for two rows in turn past 128 rows) add the row's
// products and meet in a shuffle tree. Three dependent
// global loads a tile (task, entries, x) and 1024 entries in flight a
// block. Rows longer than the long-row limit (long_len, auto
// CSRDU_STREAM_LONG or the tile's entries) are row pieces of one warp (the
// blocks before the tiles); a split row's pieces add up in the warp that
// finishes the last of them (row_piece), so one launch computes y.
#include <cuda_runtime.h>

#include <stdint.h>

#include "csrdu.h"
#include "csrdu_device.cuh"

namespace {

using namespace csrdu_gpu;

constexpr int kThreads = 32 * CSRDU_WARPS;
constexpr int kSlots = CSRDU_STREAM_TILE / kThreads;
static_assert(CSRDU_STREAM_ROWS <= 2 * kThreads, "a tile's rows are at most two a thread");

template <typename V, typename A, typename OffT>
__global__ void __launch_bounds__(kThreads)
    csrdu_stream(int32_t piece_blocks, int32_t npieces, const csrdu_task *__restrict__ tasks,
                 const int32_t *__restrict__ rp, V val, cols<OffT> ix, split_sink<A> sink,
                 const A *__restrict__ x, A *__restrict__ y)
{
    __shared__ A prod[CSRDU_STREAM_TILE];
    __shared__ int32_t bound[CSRDU_STREAM_ROWS + 1];
    const int tid = (int)threadIdx.x;
    if ((int32_t)blockIdx.x < piece_blocks) { // block-uniform: no barrier below is reached
        const int64_t t = (int64_t)blockIdx.x * CSRDU_WARPS + (tid >> 5);
        if (t < npieces)
            row_piece<V, A, OffT>(tasks[t], tid & 31, val, ix, sink, x, y);
        return;
    }
    const csrdu_task tk = tasks[npieces + (blockIdx.x - piece_blocks)];
    const int32_t n = tk.k1 - tk.k0, nrows = tk.r1 - tk.r0;
    constexpr int kBounds = (CSRDU_STREAM_ROWS + kThreads) / kThreads; // row bounds a thread loads
    int32_t rb[kBounds];
#pragma unroll
    for (int q = 0; q < kBounds; q++) // kept in registers: stored only after the entries' loads are issued
        rb[q] = tid + kThreads * q <= nrows ? __ldg(rp + tk.r0 + tid + kThreads * q) : 0;
    A a[kSlots];
    int32_t b[kSlots], c[kSlots];
    uint32_t o[kSlots];
#pragma unroll
    for (int j = 0; j < kSlots; j++) { // every load first (csrdu_device.cuh)
        const int32_t i = tid + kThreads * j;
        a[j] = A(0);
        b[j] = 0;
        o[j] = 0;
        if (i < n) {
            a[j] = (A)val(tk.k0 + i);
            ix.load(tk.k0 + i, b[j], o[j]);
        }
    }
#pragma unroll
    for (int j = 0; j < kSlots; j++) {
        const int32_t i = tid + kThreads * j;
        c[j] = i < n ? ix.decode(tk.k0 + i, b[j], o[j]) : -1;
    }
#pragma unroll
    for (int j = 0; j < kSlots; j++)
        if (c[j] >= 0)
            prod[tid + kThreads * j] = a[j] * __ldg(x + c[j]);
#pragma unroll
    for (int q = 0; q < kBounds; q++)
        if (tid + kThreads * q <= nrows)
            bound[tid + kThreads * q] = rb[q] - tk.k0;
    __syncthreads();
    const int g = csrdu_stream_lanes(nrows), l = tid % g;
    for (int32_t first = 0; first < nrows; first += kThreads / g) { // block-uniform trips: every lane shuffles
        const int32_t r = first + tid / g;
        A s = 0;
        if (r < nrows) {
            int32_t i = bound[r] + l;
            const int32_t e = bound[r + 1];
            for (; i + 7 * g < e; i += 8 * g) { // 8 shared loads issued, then added in order: only the adds wait on each other
                A p[8];
#pragma unroll
                for (int j = 0; j < 8; j++)
                    p[j] = prod[i + j * g];
#pragma unroll
                for (int j = 0; j < 8; j++)
                    s += p[j];
            }
            for (; i < e; i += g)
                s += prod[i];
        }
        for (int w = g / 2; w > 0; w /= 2)
            s += __shfl_down_sync(kFull, s, w, g);
        if (r < nrows && l == 0)
            y[tk.r0 + r] = s;
    }
}

// The stream kernel's launch for by_types.
struct StreamLaunch {
    template <typename V, typename A, typename OffT>
    static cudaError_t run(const csrdu_dev *d, const void *x, void *y, cudaStream_t s)
    {
        const int64_t piece_blocks = ((int64_t)d->npieces + CSRDU_WARPS - 1) / CSRDU_WARPS;
        const int64_t blocks = piece_blocks + (d->ntasks - d->npieces);
        if (blocks == 0)
            return cudaSuccess;
        const cols<OffT> ix = {static_cast<const OffT *>(d->off), d->base, d->hi, d->hi_bytes};
        csrdu_stream<V, A, OffT><<<(unsigned)blocks, kThreads, 0, s>>>(
            (int32_t)piece_blocks, d->npieces, d->tasks, d->row_ptr, values_of<V>(d), ix,
            split_sink<A>{static_cast<A *>(d->partial), d->splits, d->nsplits, d->count}, static_cast<const A *>(x), static_cast<A *>(y));
        return cudaGetLastError();
    }
};

} // namespace

extern "C" int csrdu_launch_stream(const csrdu_dev *d, const void *x, void *y, void *stream)
{
    return by_types<StreamLaunch>(d, x, y, stream);
}
