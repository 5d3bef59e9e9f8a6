// Merge-path SpMV (merge, tilespmv): the block-level pieces of the tile
// kernel (merge_tiles.cuh): the search of a tile's start by one warp, the
// thread's search inside the staged tile, and the block-wide segmented scan
// of the threads' open rows.
#ifndef SPMVLAB_PLUGINS_COMMON_MERGE_BLOCK_CUH
#define SPMVLAB_PLUGINS_COMMON_MERGE_BLOCK_CUH

#include <cuda_runtime.h>

#include <stdint.h>

#include "merge_path.h"

// Loads through the read-only path written as volatile asm, which the
// compiler neither moves nor sinks into the branch that uses the value: a
// thread's loads are issued in the order written, all before their first
// use, so they are in flight together (as CUB's loads are).
__device__ __forceinline__ int32_t merge_ldg(const int32_t *p)
{
    int32_t v;
    asm volatile("ld.global.nc.b32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ float merge_ldg(const float *p)
{
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ double merge_ldg(const double *p)
{
    double v;
    asm volatile("ld.global.nc.f64 %0, [%1];" : "=d"(v) : "l"(p));
    return v;
}

// merge_path_search done by a whole warp: each round its 32 lanes test 32
// evenly spaced row ends of the range still open at once, which cuts the
// range 32-fold (merge_warp_narrow), so a path of 4 million rows takes 5
// rounds of independent loads instead of 22 dependent ones. Every lane gets
// the point. d is the same for the whole warp.
__device__ __forceinline__ merge_coord merge_path_search_warp(int64_t d, const int32_t *__restrict__ row_end,
                                                              int32_t rows, int32_t nnz)
{
    const int lane = threadIdx.x & 31;
    int64_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
    while (lo < hi) {
        const int64_t probe = merge_warp_probe(lo, hi, lane);
        const bool before = (int64_t)merge_ldg(row_end + probe) <= d - probe - 1;
        if (!merge_warp_narrow(&lo, &hi, __popc(__ballot_sync(0xffffffffu, before))))
            break;
    }
    merge_coord c = {(int32_t)lo, (int32_t)(d - lo)};
    return c;
}

// merge_path_search inside one tile, in 32-bit arithmetic: d, the tile's
// rows and non-zeros are all below the tile's size.
__device__ __forceinline__ merge_coord merge_tile_search(int32_t d, const int32_t *s_end, int32_t rows, int32_t nnz)
{
    int32_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
    while (lo < hi) {
        const int32_t mid = (lo + hi) >> 1;
        if (s_end[mid] <= d - mid - 1)
            lo = mid + 1;
        else
            hi = mid;
    }
    merge_coord c = {lo, d - lo};
    return c;
}

// The warps' share of the block scan: each warp's first and last key and
// the sum of its last key's run within the warp.
template <typename A> struct merge_scan_smem {
    int32_t first[MERGE_WARPS], last[MERGE_WARPS];
    A total[MERGE_WARPS];
};

// The sum of warp w's last run and of the earlier warps that continue it,
// for a run of `key` (0 when warp w does not end in key).
template <typename A>
__device__ __forceinline__ A merge_run_back(int32_t key, int w, const merge_scan_smem<A> &s)
{
    A v = 0;
    for (; w >= 0 && s.last[w] == key; w--) {
        v += s.total[w];
        if (s.first[w] != key)
            break;
    }
    return v;
}

// Block-wide segmented scan of (key, v) over the threads in order, keys
// never decreasing. incl: the sum of v over this and earlier threads of
// this key; excl: the previous thread's incl (0 for thread 0), which is
// what this thread's first row gets from earlier threads, as a thread
// starts in the row the previous one left open. One __syncthreads, after
// which every thread of the block has left anything before the call.
template <typename A>
__device__ __forceinline__ void merge_block_scan(int32_t key, A v, merge_scan_smem<A> &s, A &excl, A &incl)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int o = 1; o < 32; o *= 2) {
        const int32_t ko = __shfl_up_sync(0xffffffffu, key, o);
        const A vo = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o && ko == key)
            v += vo;
    }
    if (lane == 31) {
        s.last[warp] = key;
        s.total[warp] = v;
    }
    if (lane == 0)
        s.first[warp] = key;
    __syncthreads();
    if (warp > 0 && key == s.first[warp]) // the run reaches back past this warp
        v += merge_run_back<A>(key, warp - 1, s);
    incl = v;
    excl = __shfl_up_sync(0xffffffffu, v, 1);
    if (lane == 0)
        excl = warp > 0 ? merge_run_back<A>(s.last[warp - 1], warp - 1, s) : A(0);
}

#endif
