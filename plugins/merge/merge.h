/*
 * merge: what the plugin glue (merge.c), the CPU execution (merge_host.c)
 * and the kernels (merge.cu) share: the tile geometry, the merge-path
 * search and the device view of one instance. The format is described at
 * the top of merge.c.
 */
#ifndef SPMVLAB_MERGE_H
#define SPMVLAB_MERGE_H

#include <stdint.h>

#include <spmvlab/plugin.h>
#include "../common/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__CUDACC__)
#define MERGE_HD __host__ __device__ __forceinline__
#else
#define MERGE_HD static inline
#endif

/* Threads of one thread block; its tile is MERGE_THREADS * items path items. */
#define MERGE_THREADS 128
#define MERGE_WARPS (MERGE_THREADS / 32)
/* Threads per block of the search kernel (one thread a tile boundary). */
#define MERGE_SEARCH_THREADS 256

/* Where the tiles' starts are found (merge_dev.search): by two warps of
 * every tile block; by a search kernel before every SpMV; once at convert. */
enum merge_search_place { MERGE_SEARCH_BLOCK, MERGE_SEARCH_LAUNCH, MERGE_SEARCH_CONVERT };
/* How a tile's products val[k] * x[col[k]] are made (merge_dev.products):
 * all of the tile's staged in shared memory by coalesced loads before the
 * walk, or each thread loading its own non-zeros as it walks. */
enum merge_products_kind { MERGE_PRODUCTS_STAGED, MERGE_PRODUCTS_DIRECT };

/* A point of the merge path: `row` row ends and `nz` non-zeros consumed. */
typedef struct merge_coord {
    int32_t row, nz;
} merge_coord;

/* The point where the merge path crosses diagonal d (row + nz == d) of the
 * merge of the row ends row_end[0 .. rows) with the non-zero indices
 * base, base + 1, ..., base + nnz - 1. A row end goes first when it is at or
 * below the next non-zero index (an empty row ends before the non-zero that
 * follows it). Binary search over the diagonal: O(log min(rows, nnz)). */
MERGE_HD merge_coord merge_path_search(int64_t d, const int32_t *row_end, int32_t rows, int64_t base, int32_t nnz)
{
    int64_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
    while (lo < hi) {
        int64_t mid = (lo + hi) >> 1;
        if ((int64_t)row_end[mid] <= base + (d - mid - 1))
            lo = mid + 1;
        else
            hi = mid;
    }
    merge_coord c = {(int32_t)lo, (int32_t)(d - lo)};
    return c;
}

/* The search of one diagonal by a warp (merge_path_search_warp in
 * merge_block.cuh): each round, lane l tests row end
 * merge_warp_probe(lo, hi, l) of the range [lo, hi) still open; the lanes
 * whose row end goes before the diagonal are a prefix of `below` lanes, and
 * merge_warp_narrow cuts the range to the part between the last of them and
 * the next probe, 32 times smaller. It returns 0 when the crossing is lo
 * (no lane below). The CPU tests replay the rounds with these two. */
MERGE_HD int64_t merge_warp_probe(int64_t lo, int64_t hi, int lane) { return lo + (((hi - lo) * lane) >> 5); }
MERGE_HD int merge_warp_narrow(int64_t *lo, int64_t *hi, int below)
{
    if (below == 0)
        return 0;
    int64_t l = *lo, h = *hi;
    *hi = below < 32 ? merge_warp_probe(l, h, below) : h;
    *lo = merge_warp_probe(l, h, below - 1) + 1;
    return 1;
}

/* Path items of one tile and the number of tiles of a path of `length`. */
MERGE_HD int32_t merge_tile_items(int items) { return MERGE_THREADS * items; }
MERGE_HD int32_t merge_tiles(int64_t length, int items)
{
    return (int32_t)((length + merge_tile_items(items) - 1) / merge_tile_items(items));
}

/* Device pointers and sizes of one instance, for the launcher. */
typedef struct merge_dev {
    const int32_t *row_ptr;  /* rows + 1 offsets; row_ptr + 1 are the row ends */
    const int32_t *col_idx;  /* nnz column indices */
    const void *val;         /* nnz values of the run's dtype */
    merge_coord *coords;     /* tiles + 1 tile starts (search launch or convert); NULL: block search */
    int32_t *carry_row;      /* per tile: the row its last thread left open */
    void *carry_val;         /* per tile: that row's partial sum (run dtype) */
    int32_t rows, cols, nnz, tiles;
    int items;               /* path items per thread: 4, 6, 7, 10 or 14 */
    int search;              /* enum merge_search_place */
    int products;            /* enum merge_products_kind */
    int fixup;               /* 1: a tile leaves a row open with some of its products */
    spmvlab_dtype dtype;     /* the run's: f64 or f32 */
} merge_dev;

/* y = A*x: [search kernel], tiles, [fix-up]. Asynchronous on stream; returns 0 or
 * a cudaError_t code. */
SPMVLAB_LAUNCHER_DECLS(merge, merge_dev)

#ifdef __cplusplus
}
#endif
#endif
