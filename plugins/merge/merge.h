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
/* Threads per block of the search kernel (one thread a tile boundary). */
#define MERGE_SEARCH_THREADS 256

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
    merge_coord *coords;     /* tiles + 1 tile starts (searched per call, or at convert) */
    int32_t *carry_row;      /* per tile: the row its last thread left open */
    void *carry_val;         /* per tile: that row's partial sum (run dtype) */
    int32_t rows, cols, nnz, tiles;
    int items;               /* path items per thread: 4, 7, 10 or 14 */
    int search_per_call;     /* 1: the search kernel runs before every SpMV */
    spmvlab_dtype dtype;     /* the run's: f64 or f32 */
} merge_dev;

/* y = A*x: [search], tiles, fix-up. Asynchronous on stream; returns 0 or
 * a cudaError_t code. */
SPMVLAB_LAUNCHER_DECLS(merge, merge_dev)

#ifdef __cplusplus
}
#endif
#endif
