// bccoo kernel: one thread block a chunk of BCCOO_CHUNK blocks, one thread
// BCCOO_PER_THREAD consecutive blocks. A thread loads its flags byte, its
// column base and deltas and its blocks' values (slot-major: coalesced),
// adds its blocks into H sums, ends a segment at each row-end flag; a
// block-wide segmented scan passes the open segment to the next thread,
// the last thread's goes to the chunk's carry, added by the fix-up
// (../common/carry_fixup.cuh).
#include <cuda_runtime.h>

#include <stdint.h>

#include "bccoo.h"
#include "../common/carry_fixup.cuh"
#include "../common/launch.cuh"

namespace {

constexpr int WARPS = BCCOO_THREADS / 32;

// Exclusive sum of n over the block's threads (the segments before this
// thread within the chunk).
__device__ __forceinline__ int32_t block_exclusive_sum(int32_t n, int32_t *s_warp)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int32_t v = n;
#pragma unroll
    for (int s = 1; s < 32; s *= 2) {
        int32_t o = __shfl_up_sync(0xffffffffu, v, s);
        if (lane >= s)
            v += o;
    }
    if (lane == 31)
        s_warp[warp] = v;
    __syncthreads();
    for (int w = 0; w < warp; w++)
        v += s_warp[w];
    return v - n;
}

// Inclusive segmented scan of H sums keyed by segment (keys never
// decrease): the warp scan of ../common/carry_fixup.cuh, then the totals
// of earlier warps that end in this thread's key.
template <typename A, int H>
__device__ __forceinline__ void block_segmented_scan(int32_t key, A (&v)[H], int32_t *s_first, int32_t *s_last,
                                                     A (*s_total)[H])
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    warp_segmented_scan<A, H>(key, v);
    const int32_t first = __shfl_sync(0xffffffffu, key, 0);
    if (lane == 31) {
        s_last[warp] = key;
#pragma unroll
        for (int r = 0; r < H; r++)
            s_total[warp][r] = v[r];
    }
    if (lane == 0)
        s_first[warp] = first;
    __syncthreads();
    if (key == first)
        for (int w = warp - 1; w >= 0 && s_last[w] == key; w--) {
#pragma unroll
            for (int r = 0; r < H; r++)
                v[r] += s_total[w][r];
            if (s_first[w] != key)
                break;
        }
}

// Writes the H sums of segment s, and the zeros of the empty block rows
// before it (after it too, for the last segment) when brow maps segments.
template <typename A, int H>
__device__ __forceinline__ void write_segment(const bccoo_dev &d, int32_t s, const A (&sum)[H], A *__restrict__ y)
{
    int32_t br = d.brow ? __ldg(d.brow + s) : s;
    int32_t from = d.brow ? (s ? __ldg(d.brow + s - 1) + 1 : 0) : br;
    int32_t to = d.brow && s == d.segments - 1 ? d.block_rows : br + 1;
    for (int32_t b = from; b < to; b++)
#pragma unroll
        for (int r = 0; r < H; r++)
            if ((int64_t)b * H + r < d.rows)
                y[(int64_t)b * H + r] = b == br ? sum[r] : A(0);
}

template <typename A, int H, int W>
__global__ void __launch_bounds__(BCCOO_THREADS) bccoo_chunks(const bccoo_dev d, const A *__restrict__ x, A *__restrict__ y)
{
    constexpr int P = BCCOO_PER_THREAD;
    __shared__ int32_t s_warp[WARPS], s_first[WARPS], s_last[WARPS];
    __shared__ A s_total[WARPS][H];
    __shared__ A s_incl[BCCOO_THREADS][H];
    const int t = threadIdx.x;
    const int64_t c = blockIdx.x, g = c * BCCOO_THREADS + t;
    const A *__restrict__ val = static_cast<const A *>(d.val) + c * BCCOO_CHUNK * H * W;

    const uint32_t fl = __ldg(d.flags + g);
    const int32_t base = __ldg(d.base + g);
    int32_t col[P];
    if (base >= 0) {
        int32_t b = base;
#pragma unroll
        for (int i = 0; i < P; i++) {
            b += i ? __ldg(d.delta + bccoo_pos(c, t, i)) : 0;
            col[i] = b;
        }
    } else {
#pragma unroll
        for (int i = 0; i < P; i++)
            col[i] = __ldg(d.esc + bccoo_escape_index(base, i));
    }
    int32_t seg = d.seg0[c] + block_exclusive_sum(__popc(fl), s_warp);
    const int32_t start = seg;
    A first[H], acc[H];
#pragma unroll
    for (int r = 0; r < H; r++)
        first[r] = acc[r] = A(0);
#pragma unroll
    for (int i = 0; i < P; i++) {
        A xv[W];
#pragma unroll
        for (int cc = 0; cc < W; cc++) {
            int64_t k = (int64_t)col[i] * W + cc;
            xv[cc] = W == 1 || k < d.cols ? __ldg(x + k) : A(0);
        }
#pragma unroll
        for (int r = 0; r < H; r++)
#pragma unroll
            for (int cc = 0; cc < W; cc++)
                acc[r] = fma(__ldg(val + ((int64_t)i * H * W + r * W + cc) * BCCOO_THREADS + t), xv[cc], acc[r]);
        if ((fl >> i) & 1u) {
            if (seg == start) {
#pragma unroll
                for (int r = 0; r < H; r++)
                    first[r] = acc[r];
            } else {
                write_segment<A, H>(d, seg, acc, y);
            }
            seg++;
#pragma unroll
            for (int r = 0; r < H; r++)
                acc[r] = A(0);
        }
    }
    // The open segment's sums; a thread without a row end passes its sums
    // on inside the scan.
    block_segmented_scan<A, H>(seg, acc, s_first, s_last, s_total);
#pragma unroll
    for (int r = 0; r < H; r++)
        s_incl[t][r] = acc[r];
    __syncthreads();
    if (seg > start) {
#pragma unroll
        for (int r = 0; r < H; r++)
            first[r] += t > 0 ? s_incl[t - 1][r] : A(0);
        write_segment<A, H>(d, start, first, y);
    }
    if (t == BCCOO_THREADS - 1) {
        d.carry_key[c] = seg;
#pragma unroll
        for (int r = 0; r < H; r++)
            static_cast<A *>(d.carry_val)[c * H + r] = acc[r];
    }
}

template <typename A, int H, int W> cudaError_t launch_shape(const bccoo_dev *d, const A *x, A *y, cudaStream_t s)
{
    bccoo_chunks<A, H, W><<<(unsigned)d->chunks, BCCOO_THREADS, 0, s>>>(*d, x, y);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || d->chunks < 2)
        return e;
    return launch_carry_fixup<A, H>(d->chunks, d->carry_key, static_cast<const A *>(d->carry_val), d->segments,
                                    d->brow, d->rows, y, s);
}

template <typename A, int H> cudaError_t by_width(const bccoo_dev *d, const A *x, A *y, cudaStream_t s)
{
    switch (d->w) {
    case 1: return launch_shape<A, H, 1>(d, x, y, s);
    case 2: return launch_shape<A, H, 2>(d, x, y, s);
    default: return launch_shape<A, H, 4>(d, x, y, s);
    }
}

template <typename A> cudaError_t launch_typed(const bccoo_dev *d, const A *x, A *y, cudaStream_t s)
{
    if (d->segments == 0) // no entries: every row is 0
        return d->rows ? cudaMemsetAsync(y, 0, sizeof(A) * (size_t)d->rows, s) : cudaSuccess;
    switch (d->h) {
    case 1: return by_width<A, 1>(d, x, y, s);
    case 2: return by_width<A, 2>(d, x, y, s);
    default: return by_width<A, 4>(d, x, y, s);
    }
}

} // namespace

SPMVLAB_TYPED_LAUNCHER(bccoo_launch, bccoo_dev, f->rows > 0)

SPMVLAB_CUDA_ERROR_STRING(bccoo)
