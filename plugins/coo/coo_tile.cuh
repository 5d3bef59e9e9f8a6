// One tile of the blocked COO kernel (coo_blocked.h): the lanes' sequential
// sums, one run-restricted warp scan, the writes. Shared by the kernel that
// loads its arrays into registers (coo_blocked.cuh) and the one that stages
// them in shared memory (coo_staged.cuh).
#ifndef SPMVLAB_COO_TILE_CUH
#define SPMVLAB_COO_TILE_CUH

#include "coo_blocked.h"
#include "coo_segmented.cuh"

namespace coo_blk {

using coo_seg::kFullMask;

__device__ __forceinline__ double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }

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

} // namespace coo_blk

#endif
