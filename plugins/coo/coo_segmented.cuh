// The chunked segmented-reduction COO kernel shared by coo and hyb; the
// algorithm is described in coo_segmented.h, whose coo_seg_host_* runs it on
// the CPU in the same order.
#ifndef SPMVLAB_COO_SEGMENTED_CUH
#define SPMVLAB_COO_SEGMENTED_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "coo_segmented.h"

namespace coo_seg {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarps = COO_SEG_BLOCK / COO_SEG_WARP;

// The product rounded on its own, never fused into a later addition, as the
// plain product of coo_seg_host_*.
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }

// Inclusive scan of v over the warp restricted to runs of equal r; returns
// the ballot of run heads (bit l: lane l starts a run).
template <typename T> __device__ __forceinline__ unsigned run_scan(T &v, int32_t r, int lane)
{
    const int32_t r_prev = __shfl_up_sync(kFullMask, r, 1);
    const unsigned heads = __ballot_sync(kFullMask, lane == 0 || r != r_prev);
    const int start = 31 - __clz((int)(heads & ((2u << lane) - 1u)));
    for (int d = 1; d < COO_SEG_WARP; d <<= 1) {
        const T u = __shfl_up_sync(kFullMask, v, (unsigned)d);
        if (lane - d >= start)
            v += u;
    }
    return heads;
}

// A row, column or value load: evict-first streaming (kCs, ld.global.cs: the
// arrays are read once, so L1 and L2 stay with x) or the read-only path.
template <bool kCs, typename V> __device__ __forceinline__ V ld(const V *p)
{
    return kCs ? __ldcs(p) : __ldg(p);
}

// How a kernel writes y: kAdd adds the rows a chunk owns to y (hyb, after
// its ELL kernel); kStore stores them after a memset of y; kOwn stores every
// row exactly once without a memset (coo_owner.h): empty rows get 0, and
// the partial sum of a row continued from the previous chunk goes to the
// warp's carry slot, added by the carry kernel after every owner stored.
enum Write { kAdd = 0, kStore = 1, kOwn = 2 };

// Where a warp's run sums go. shared: the row whose run is not stored
// plainly (kAdd, kStore: the chunk's first row, added atomically; kOwn: the
// first row when it continues from the previous chunk, else -1).
template <typename T> struct Sink {
    T *y;
    T *carry; // kOwn: the warp's carry slot
    int32_t shared;
};

// Writes a run's sum: the shared run atomically (kOwn: to the carry slot),
// runs owned by this warp alone with a plain store (kStore, kOwn) or add.
template <typename T, int kWrite>
__device__ __forceinline__ void put(const Sink<T> &s, int32_t r, T v)
{
    if (r == s.shared) {
        if (kWrite == kOwn)
            *s.carry = v;
        else
            atomicAdd(s.y + r, v);
    } else if (kWrite == kAdd) {
        s.y[r] += v;
    } else {
        s.y[r] = v;
    }
}

// A warp's chunk [begin, end) of the entries, its first row and (kOwn only)
// the row of the entry before it (-1 for the first chunk or no entries).
struct Chunk {
    long long begin, end;
    int32_t first_row, prev_row;
};

// starts: NULL for chunks of `interval` entries, else the snapped chunk
// edges of coo_seg_snap (one per warp of the grid, and the end).
template <int kWrite>
__device__ __forceinline__ Chunk chunk_of(int32_t entries, int32_t interval,
                                          const int32_t *__restrict__ row,
                                          const int32_t *__restrict__ starts = nullptr)
{
    Chunk c;
    const long long w = (long long)blockIdx.x * kWarps + (int)(threadIdx.x / COO_SEG_WARP);
    if (starts) {
        c.begin = __ldg(starts + w);
        c.end = __ldg(starts + w + 1);
    } else {
        c.begin = w * interval;
        c.end = c.begin + interval < entries ? c.begin + interval : entries;
    }
    c.first_row = c.begin < c.end ? __ldg(row + c.begin) : -1;
    c.prev_row = kWrite == kOwn && c.begin > 0 && c.begin < c.end ? __ldg(row + c.begin - 1) : -1;
    return c;
}

// The warp's sink; carries: kOwn's slots, one per warp of the plan.
template <typename T, int kWrite>
__device__ __forceinline__ Sink<T> sink_of(const Chunk &c, T *y, T *carries)
{
    Sink<T> s;
    s.y = y;
    const long long warp = (long long)blockIdx.x * kWarps + threadIdx.x / COO_SEG_WARP;
    s.carry = kWrite == kOwn ? carries + warp : nullptr;
    s.shared = kWrite != kOwn ? c.first_row : c.prev_row == c.first_row ? c.first_row : -1;
    return s;
}

// Gaps longer than this many rows are zeroed by the whole warp, shorter
// ones by the lane that finds them (kOwn).
constexpr int kShortGap = 8;

// kOwn: zeroes the empty rows between a lane's N consecutive entries rows
// r (row -1: past the end) and before them down from prev (the row of the
// entry before r[0]; -1 before the first entry). Every empty row lies
// between exactly one such pair, so it is written once. Long gaps are
// written by all 32 lanes together, so mostly empty rows do not serialise a
// lane over thousands of rows.
template <typename T, int N>
__device__ __forceinline__ void zero_gaps(T *__restrict__ y, int32_t prev, const int32_t *r,
                                          int lane)
{
    bool long_gap = false;
    int32_t lo = prev;
#pragma unroll
    for (int j = 0; j < N; j++) {
        if (r[j] - lo - 1 > kShortGap)
            long_gap = true;
        else
            for (int32_t g = lo + 1; g < r[j]; g++)
                y[g] = 0;
        lo = r[j];
    }
    for (unsigned lanes = __ballot_sync(kFullMask, long_gap); lanes != 0; lanes &= lanes - 1) {
        const int src = __ffs((int)lanes) - 1;
        int32_t low = __shfl_sync(kFullMask, prev, src);
#pragma unroll
        for (int j = 0; j < N; j++) {
            const int32_t high = __shfl_sync(kFullMask, r[j], src);
            if (high - low - 1 > kShortGap)
                for (int32_t g = low + 1 + lane; g < high; g += COO_SEG_WARP)
                    y[g] = 0;
            low = high;
        }
    }
}

// The end of a chunk. kOwn: lane 0 writes the carry-out run (owned unless
// it is the shared first row) and the last chunk zeroes the rows after the
// last entry. Else the carry-outs of the block's warps (consecutive chunks)
// are combined by one scan and added atomically, as they may continue in
// the next chunk. Every warp of the block calls it (__syncthreads).
template <typename T, int kWrite>
__device__ __forceinline__ void finish(const Chunk &c, const Sink<T> &s, int32_t carry_row,
                                       T carry, int32_t entries, int32_t rows,
                                       const int32_t *__restrict__ row)
{
    __shared__ int32_t out_rows[kWarps];
    __shared__ T out_sums[kWarps];
    const int lane = (int)(threadIdx.x % COO_SEG_WARP), w = (int)(threadIdx.x / COO_SEG_WARP);
    if (kWrite == kOwn) {
        if (lane == 0 && carry_row >= 0)
            put<T, kWrite>(s, carry_row, carry);
        if (c.begin < c.end && c.end == entries)
            for (int32_t g = __ldg(row + entries - 1) + 1 + lane; g < rows; g += COO_SEG_WARP)
                s.y[g] = 0;
        return;
    }
    if (lane == 0) {
        out_rows[w] = carry_row;
        out_sums[w] = carry;
    }
    __syncthreads();
    if (w == 0) {
        int32_t r = lane < kWarps ? out_rows[lane] : -1;
        T v = lane < kWarps ? out_sums[lane] : (T)0;
        const unsigned heads = run_scan(v, r, lane);
        if (r >= 0 && (lane == COO_SEG_WARP - 1 || ((heads >> (lane + 1)) & 1u)))
            atomicAdd(s.y + r, v);
    }
}

// One warp per chunk of `interval` row-sorted entries, or of the snapped
// edges `starts` (coo_seg_snap); see coo_segmented.h (kOwn: coo_owner.h;
// rows and carries are read only then).
template <typename T, int kWrite, bool kCs>
__global__ void __launch_bounds__(COO_SEG_BLOCK)
    kernel(int32_t entries, int32_t interval, int32_t rows, const int32_t *__restrict__ row,
           const int32_t *__restrict__ col, const T *__restrict__ val, const T *__restrict__ x,
           T *__restrict__ y, T *__restrict__ carries, const int32_t *__restrict__ starts)
{
    const int lane = (int)(threadIdx.x % COO_SEG_WARP);
    const Chunk ch = chunk_of<kWrite>(entries, interval, row, starts);
    const Sink<T> sink = sink_of<T, kWrite>(ch, y, carries);
    int32_t last_row = ch.prev_row; // kOwn: the row before the tile's first entry

    int32_t carry_row = -1; // no warp returns early: all reach finish's __syncthreads
    T carry = 0;
    for (long long base = ch.begin; base < ch.end; base += COO_SEG_UNROLL * COO_SEG_WARP) {
        int32_t r[COO_SEG_UNROLL], c[COO_SEG_UNROLL];
        T a[COO_SEG_UNROLL], v[COO_SEG_UNROLL];
#pragma unroll
        for (int u = 0; u < COO_SEG_UNROLL; u++) { // every load of the group in flight at once
            const long long k = base + u * COO_SEG_WARP + lane;
            r[u] = -1;
            c[u] = 0;
            a[u] = 0;
            if (k < ch.end) {
                r[u] = ld<kCs>(row + k);
                c[u] = ld<kCs>(col + k);
                a[u] = ld<kCs>(val + k);
            }
        }
#pragma unroll
        for (int u = 0; u < COO_SEG_UNROLL; u++)
            v[u] = r[u] >= 0 ? mul(a[u], __ldg(x + c[u])) : (T)0;
#pragma unroll
        for (int u = 0; u < COO_SEG_UNROLL; u++) {
            if (base + u * COO_SEG_WARP >= ch.end) // warp-uniform: tiles are whole but the last
                break;
            if (lane == 0) {
                if (r[u] == carry_row)
                    v[u] += carry;
                else if (carry_row >= 0)
                    put<T, kWrite>(sink, carry_row, carry);
            }
            const unsigned heads = run_scan(v[u], r[u], lane);
            if (lane < COO_SEG_WARP - 1 && r[u] >= 0 && ((heads >> (lane + 1)) & 1u))
                put<T, kWrite>(sink, r[u], v[u]);
            carry_row = __shfl_sync(kFullMask, r[u], COO_SEG_WARP - 1);
            carry = __shfl_sync(kFullMask, v[u], COO_SEG_WARP - 1);
            if (kWrite == kOwn) {
                const int32_t up = __shfl_up_sync(kFullMask, r[u], 1);
                zero_gaps<T, 1>(y, lane > 0 ? up : last_row, &r[u], lane);
                last_row = carry_row; // lane 31's row
            }
        }
    }
    finish<T, kWrite>(ch, sink, carry_row, carry, entries, rows, row);
}

// Blocks of kernel<T, kWrite> resident on one SM; 0 when the runtime cannot
// say (no device).
template <typename T, int kWrite> int blocks_per_sm()
{
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel<T, kWrite, true>, COO_SEG_BLOCK, 0) !=
        cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

// Launches the kernel for plan p (kStore: y was zeroed on the stream
// before, coo; kAdd: the runs are added to what y holds, hyb; kOwn: y is
// written whole, carries holds plan.warps slots). Returns
// cudaGetLastError(), or cudaSuccess when there is nothing to do.
template <typename T, int kWrite>
cudaError_t launch(coo_seg_plan p, int32_t entries, int32_t rows, const int32_t *row,
                   const int32_t *col, const void *val, const void *x, void *y, void *carries,
                   cudaStream_t stream)
{
    if (entries <= 0 || p.warps <= 0 || p.interval <= 0)
        return cudaSuccess;
    const unsigned blocks = (unsigned)(((long long)p.warps + kWarps - 1) / kWarps);
    auto k = p.stream ? kernel<T, kWrite, true> : kernel<T, kWrite, false>;
    k<<<blocks, COO_SEG_BLOCK, 0, stream>>>(entries, p.interval, rows, row, col,
                                            static_cast<const T *>(val), static_cast<const T *>(x),
                                            static_cast<T *>(y), static_cast<T *>(carries),
                                            p.d_starts);
    return cudaGetLastError();
}

} // namespace coo_seg

#endif
