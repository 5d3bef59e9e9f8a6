// The blocked COO kernel shared by coo and hyb: 8 (or 4) consecutive entries
// per lane, reduced in order by the lane, then one warp scan per tile of
// 32 x 8 (or 4) entries. The algorithm is described in coo_blocked.h,
// whose coo_blk_host_* runs it on the CPU in the same order.
#ifndef SPMVLAB_COO_BLOCKED_CUH
#define SPMVLAB_COO_BLOCKED_CUH

#include "coo_blocked.h"
#include "coo_segmented.cuh"

namespace coo_blk {

using coo_seg::kFullMask;
using coo_seg::kWarps;
constexpr int kStep = COO_BLK_STEP; // entries per lane and step: 8 (one tile of 8, or two of 4)

__device__ __forceinline__ double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }

// N (4 or 8) consecutive values from an address aligned to N values: 16-byte
// loads, evict-first when kCs (coo_seg::ld).
using coo_seg::ld;
template <int N, bool kCs> __device__ __forceinline__ void load(const int32_t *p, int32_t *v)
{
#pragma unroll
    for (int q = 0; q < N / 4; q++) {
        const int4 a = ld<kCs>(reinterpret_cast<const int4 *>(p) + q);
        v[4 * q] = a.x, v[4 * q + 1] = a.y, v[4 * q + 2] = a.z, v[4 * q + 3] = a.w;
    }
}
template <int N, bool kCs> __device__ __forceinline__ void load(const double *p, double *v)
{
#pragma unroll
    for (int q = 0; q < N / 2; q++) {
        const double2 a = ld<kCs>(reinterpret_cast<const double2 *>(p) + q);
        v[2 * q] = a.x, v[2 * q + 1] = a.y;
    }
}
template <int N, bool kCs> __device__ __forceinline__ void load(const float *p, float *v)
{
#pragma unroll
    for (int q = 0; q < N / 4; q++) {
        const float4 a = ld<kCs>(reinterpret_cast<const float4 *>(p) + q);
        v[4 * q] = a.x, v[4 * q + 1] = a.y, v[4 * q + 2] = a.z, v[4 * q + 3] = a.w;
    }
}

// One tile of 32 x kItems entries whose rows r, values a and gathered x b
// the lanes hold (row -1 past the end): the lane's sequential sums, the
// carry folded into lane 0, one segmented warp scan, the writes; carry_row
// and carry become lane 31's scanned tail. See coo_blocked.h.
template <typename T, int kWrite, int kItems>
__device__ __forceinline__ void reduce_tile(const int32_t *r, const T *a, const T *b, int lane,
                                            const coo_seg::Sink<T> &sink, int32_t &carry_row,
                                            T &carry)
{
    // The lane's own entries in order: the head run's sum in hs, inner runs
    // written at once, the tail run's sum left in s.
    const int32_t hr = r[0];
    int32_t cr = r[0];
    bool multi = false;
    T s = 0, hs = 0;
#pragma unroll
    for (int j = 0; j < kItems; j++) {
        if (r[j] != cr) {
            if (!multi) {
                hs = s;
                multi = true;
            } else if (cr >= 0) {
                coo_seg::put<T, kWrite>(sink, cr, s);
            }
            cr = r[j];
            s = 0;
        }
        if (r[j] >= 0)
            s = fma_rn(a[j], b[j], s);
    }
    if (lane == 0) { // the run carried from the previous tile
        if (hr == carry_row) {
            if (multi)
                hs += carry;
            else
                s += carry;
        } else if (carry_row >= 0) {
            coo_seg::put<T, kWrite>(sink, carry_row, carry);
        }
    }
    // Segmented scan of the tail sums over the lanes.
    const int32_t prev_tail = __shfl_up_sync(kFullMask, cr, 1);
    const int32_t next_head = __shfl_down_sync(kFullMask, hr, 1);
    const unsigned segs = __ballot_sync(kFullMask, lane == 0 || multi || hr != prev_tail);
    const int start = 31 - __clz((int)(segs & ((2u << lane) - 1u)));
#pragma unroll
    for (int d = 1; d < COO_SEG_WARP; d <<= 1) {
        const T u = __shfl_up_sync(kFullMask, s, (unsigned)d);
        if (lane - d >= start)
            s += u;
    }
    const T prev_sum = __shfl_up_sync(kFullMask, s, 1);
    if (multi && hr >= 0)
        coo_seg::put<T, kWrite>(sink, hr, lane > 0 && prev_tail == hr ? hs + prev_sum : hs);
    if (lane < COO_SEG_WARP - 1 && cr >= 0 && next_head != cr)
        coo_seg::put<T, kWrite>(sink, cr, s);
    carry_row = __shfl_sync(kFullMask, cr, COO_SEG_WARP - 1);
    carry = __shfl_sync(kFullMask, s, COO_SEG_WARP - 1);
}

// One warp per chunk of `interval` row-sorted entries (a multiple of
// COO_BLK_TILE); see coo_blocked.h. A step loads kStep / kItems tiles of
// 32 x kItems entries (8 entries per lane: all row, column and value loads,
// then all gathers, in flight together) and reduces them in order. With
// kItems = 8 a lane's two 16-byte row loads (and its value loads) are 32
// bytes apart, half a sector each; with kItems = 4 the row and column loads
// of a warp are one contiguous 512-byte stretch, at the price of two scans
// per step. The arrays are 16-byte aligned (cudaMalloc); the launcher
// checks. At most 64 registers, so 4 blocks (32 warps) stay resident per SM.
template <typename T, int kWrite, int kItems, bool kCs>
__global__ void __launch_bounds__(COO_SEG_BLOCK, 4)
    kernel(int32_t entries, int32_t interval, int32_t rows, const int32_t *__restrict__ row,
           const int32_t *__restrict__ col, const T *__restrict__ val, const T *__restrict__ x,
           T *__restrict__ y, T *__restrict__ carries)
{
    static_assert(kItems == 4 || kItems == 8, "4 or 8 entries per lane and tile");
    constexpr int kTiles = kStep / kItems, kTile = COO_SEG_WARP * kItems;
    const int lane = (int)(threadIdx.x % COO_SEG_WARP);
    const coo_seg::Chunk ch = coo_seg::chunk_of<kWrite>(entries, interval, row);
    const coo_seg::Sink<T> sink = coo_seg::sink_of<T, kWrite>(ch, y, carries);
    const long long end = ch.end;
    int32_t last_row = ch.prev_row; // kOwn: the row before the tile's first entry

    int32_t carry_row = -1; // no warp returns early: all reach finish's __syncthreads
    T carry = 0;
    for (long long base = ch.begin; base < end; base += kTiles * kTile) {
        int32_t r[kStep], c[kStep];
        T a[kStep], b[kStep];
#pragma unroll
        for (int t = 0; t < kTiles; t++) {
            const long long k0 = base + t * kTile + (long long)lane * kItems;
            if (k0 + kItems <= end) { // whole: vector loads (k0 is a multiple of kItems)
                load<kItems, kCs>(row + k0, r + t * kItems);
                load<kItems, kCs>(col + k0, c + t * kItems);
                load<kItems, kCs>(val + k0, a + t * kItems);
            } else { // the last tiles of the last chunk: row -1 past the end
#pragma unroll
                for (int j = 0; j < kItems; j++) {
                    const bool in = k0 + j < end;
                    r[t * kItems + j] = in ? ld<kCs>(row + k0 + j) : -1;
                    c[t * kItems + j] = in ? ld<kCs>(col + k0 + j) : 0;
                    a[t * kItems + j] = in ? ld<kCs>(val + k0 + j) : (T)0;
                }
            }
        }
#pragma unroll
        for (int j = 0; j < kStep; j++) // all gathers in flight together
            b[j] = r[j] >= 0 ? __ldg(x + c[j]) : (T)0;
#pragma unroll
        for (int t = 0; t < kTiles; t++)
            if (base + t * kTile < end) { // warp-uniform
                reduce_tile<T, kWrite, kItems>(r + t * kItems, a + t * kItems, b + t * kItems,
                                               lane, sink, carry_row, carry);
                if (kWrite == coo_seg::kOwn) { // after the sums: the tile's values are dead
                    const int32_t up = __shfl_up_sync(kFullMask, r[t * kItems + kItems - 1], 1);
                    coo_seg::zero_gaps<T, kItems>(y, lane > 0 ? up : last_row, r + t * kItems,
                                                  lane);
                    last_row = carry_row; // lane 31's last row
                }
            }
    }
    coo_seg::finish<T, kWrite>(ch, sink, carry_row, carry, entries, rows, row);
}

// Blocks of kernel<T, kWrite, 8, true> (the default loads) resident on one SM (the 4-entry variant has
// the same register bound); 0 when the runtime cannot say (no device).
template <typename T, int kWrite> int blocks_per_sm()
{
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel<T, kWrite, 8, true>, COO_SEG_BLOCK,
                                                      0) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

// Whether the blocked kernel can read these arrays (16-byte vector loads).
inline bool aligned(const void *row, const void *col, const void *val)
{
    return ((uintptr_t)row | (uintptr_t)col | (uintptr_t)val) % 16 == 0;
}

// Launches the kernel with `items` (4 or 8) entries per lane and tile for
// plan p (interval a multiple of COO_BLK_TILE); kWrite as coo_seg::launch.
// Returns cudaGetLastError(), cudaSuccess when there is nothing to do,
// cudaErrorMisalignedAddress for arrays not 16-byte aligned.
template <typename T, int kWrite>
cudaError_t launch(coo_seg_plan p, int items, int32_t entries, int32_t rows, const int32_t *row,
                   const int32_t *col, const void *val, const void *x, void *y, void *carries,
                   cudaStream_t stream)
{
    if (entries <= 0 || p.warps <= 0 || p.interval <= 0)
        return cudaSuccess;
    if (!aligned(row, col, val) || p.interval % COO_BLK_TILE != 0 || p.starts)
        return cudaErrorMisalignedAddress; // snapped edges are the segmented kernel's only
    const unsigned blocks = (unsigned)(((long long)p.warps + kWarps - 1) / kWarps);
    const T *v = static_cast<const T *>(val), *xx = static_cast<const T *>(x);
    T *yy = static_cast<T *>(y), *cc = static_cast<T *>(carries);
    auto k = items == 4 ? (p.stream ? kernel<T, kWrite, 4, true> : kernel<T, kWrite, 4, false>)
                        : (p.stream ? kernel<T, kWrite, 8, true> : kernel<T, kWrite, 8, false>);
    k<<<blocks, COO_SEG_BLOCK, 0, stream>>>(entries, p.interval, rows, row, col, v, xx, yy, cc);
    return cudaGetLastError();
}

} // namespace coo_blk

#endif
