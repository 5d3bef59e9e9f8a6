/*
 * Merge-based CSR SpMV (Merrill, Garland, SC'16), shared by the merge
 * plugin (its whole format) and tilespmv (its deferred CSR part): the tile
 * geometry, the merge-path search, the device view of one CSR, and on the
 * host the auto rules, the tiles' starts, the scratch bytes and the CPU
 * replay of the kernels. The kernels are in merge_tiles.cuh and
 * merge_block.cuh, their launch sequence in merge_path.cuh; the format and
 * its options in plugins/merge (merge.c, README.md).
 */
#ifndef SPMVLAB_PLUGINS_COMMON_MERGE_PATH_H
#define SPMVLAB_PLUGINS_COMMON_MERGE_PATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <spmvlab/plugin.h>

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

/* Device pointers and sizes of one CSR, for the launch (merge_path.cuh). */
typedef struct merge_dev {
    const int32_t *row_ptr;  /* rows + 1 offsets; row_ptr + 1 are the row ends */
    const int32_t *col_idx;  /* nnz column indices */
    const void *val;         /* nnz values of the run's dtype (or of the launch's V, merge_path.cuh) */
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

/* ---- host side: the auto rules, the tiles' starts, the scratch ---- */

/* Under auto: direct products whatever the column locality; on the
 * corpus's tune part they beat staged ones on nearly every member, random
 * gathers included (plugins/merge/README.md, "auto"). Items: 4 in f64 and
 * 6 in f32, but 10 on a large part with local columns, where a thread's
 * longer run of neighbouring columns pays (plugins/merge/README.md): from
 * MERGE_LOCAL_NNZ non-zeros and a share of new x sectors below
 * MERGE_LOCAL_SHARE_F64 (sectors of 4 columns) or MERGE_LOCAL_SHARE_F32
 * (of 8 columns). */
#define MERGE_ITEMS_F64 4
#define MERGE_ITEMS_F32 6
#define MERGE_ITEMS_LOCAL 10
#define MERGE_LOCAL_NNZ (1 << 20)
#define MERGE_LOCAL_SHARE_F64 0.34
#define MERGE_LOCAL_SHARE_F32 0.5
/* Rows sampled (evenly spread) for the share, so conversion stays cheap. */
#define MERGE_SHARE_SAMPLE_ROWS 65536

/* The share of non-zeros whose x load starts a new 32-byte sector within
 * its row: distinct sectors (col / 4 in f64, col / 8 in f32; columns are
 * sorted, so a new sector is a change of col / per) over non-zeros, summed
 * over up to MERGE_SHARE_SAMPLE_ROWS rows spread evenly; rows with skip[i]
 * set count as empty (skip may be NULL). 0 without entries. */
static inline double merge_gather_share(int32_t rows, const int32_t *row_ptr, const int32_t *col_idx,
                                        const uint8_t *skip, int per_sector)
{
    const int64_t samples = rows < MERGE_SHARE_SAMPLE_ROWS ? rows : MERGE_SHARE_SAMPLE_ROWS;
    int64_t sectors = 0, nnz = 0;
    for (int64_t s = 0; s < samples; s++) {
        const int32_t i = (int32_t)(s * rows / samples);
        if (skip && skip[i])
            continue;
        int64_t last = -1;
        for (int32_t k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
            const int64_t sector = col_idx[k] / per_sector;
            sectors += sector != last;
            last = sector;
        }
        nnz += row_ptr[i + 1] - row_ptr[i];
    }
    return nnz ? (double)sectors / (double)nnz : 0.0;
}

/* A part's rows are uneven enough for the merge-path pass (tilespmv's
 * deferred part, vbr's remainder) above this std / mean of their lengths:
 * rows of equal length gain nothing from balancing. */
#define MERGE_UNEVEN_ROWS_CV 1.0

/* std / mean of n row lengths from their sum and sum of squares; 0 when
 * n or the sum is 0. */
static inline double merge_length_cv(int64_t n, double sum, double sq)
{
    if (n == 0 || sum == 0)
        return 0.0;
    const double mean = sum / (double)n, var = sq / (double)n - mean * mean;
    return var > 0 ? sqrt(var) / mean : 0.0;
}

/* auto's products and items for a part of nnz entries whose share of new
 * x sectors is share: direct products; MERGE_ITEMS_LOCAL items on a large
 * part with local columns, else MERGE_ITEMS_F64 or MERGE_ITEMS_F32. */
static inline void merge_auto_choice(int f64, double share, int64_t nnz, int *products, int *items)
{
    const double local = f64 ? MERGE_LOCAL_SHARE_F64 : MERGE_LOCAL_SHARE_F32;
    *products = MERGE_PRODUCTS_DIRECT;
    if (nnz >= MERGE_LOCAL_NNZ && share < local)
        *items = MERGE_ITEMS_LOCAL;
    else
        *items = f64 ? MERGE_ITEMS_F64 : MERGE_ITEMS_F32;
}

/* search = auto: the tiles' starts found once at conversion, whatever the
 * size. A tile block then reads its two ends instead of searching them on
 * the row ends in every SpMV (block), and no search kernel runs before the
 * tiles (launch); 8 bytes a tile more on the device. On the corpus's tune
 * members of 6e6 entries it ran 1.05-1.3 times as fast as the block search
 * (plugins/merge/README.md). */
static inline int merge_auto_search(void)
{
    return MERGE_SEARCH_CONVERT;
}

/* The whole auto plan of a merge pass over a CSR part of rows x cols with
 * nnz entries whose new-sector share is share: products, items, tiles and
 * where the search runs. The caller then finds the tiles' starts and
 * whether the fix-up runs (merge_search_tiles). */
static inline void merge_auto_plan(merge_dev *d, spmvlab_dtype dtype, int32_t rows, int32_t cols, int32_t nnz,
                                   double share)
{
    merge_auto_choice(dtype == SPMVLAB_F64, share, nnz, &d->products, &d->items);
    d->dtype = dtype;
    d->rows = rows;
    d->cols = cols;
    d->nnz = nnz;
    d->tiles = merge_tiles((int64_t)rows + nnz, d->items);
    d->search = merge_auto_search();
}

/* Every tile's start of d's path over the host row_ptr, into coords
 * (tiles + 1) when not NULL; returns 1 when some tile leaves a row open
 * after taking some of its non-zeros (that row needs the fix-up), else 0. */
static inline int merge_search_tiles(const merge_dev *d, const int32_t *row_ptr, merge_coord *coords)
{
    const int64_t length = (int64_t)d->rows + d->nnz;
    int fixup = 0;
    for (int32_t t = 0; t <= d->tiles; t++) {
        int64_t diag = (int64_t)t * merge_tile_items(d->items);
        merge_coord c = merge_path_search(diag < length ? diag : length, row_ptr + 1, d->rows, 0, d->nnz);
        fixup |= c.row < d->rows && c.nz > row_ptr[c.row];
        if (coords)
            coords[t] = c;
        else if (fixup)
            break;
    }
    return fixup;
}

/* Finds the tiles' starts of d's path over the host row_ptr and sets
 * d->fixup: into *coords, a new array of tiles + 1 the caller frees, when
 * the search is at convert, else *coords is NULL. Returns 0, or -1 when
 * that array cannot be allocated. */
static inline int merge_plan_tiles(merge_dev *d, const int32_t *row_ptr, merge_coord **coords)
{
    *coords = NULL;
    if (d->search == MERGE_SEARCH_CONVERT &&
        !(*coords = (merge_coord *)malloc(((size_t)d->tiles + 1) * sizeof **coords)))
        return -1;
    d->fixup = merge_search_tiles(d, row_ptr, *coords);
    return 0;
}

/* The device bytes of d's scratch beyond the CSR arrays, values of vs
 * bytes: the tiles' starts (tiles + 1, kept unless the tile blocks search)
 * and a carry (row and partial sum) a tile. */
static inline size_t merge_scratch_bytes(const merge_dev *d, size_t vs)
{
    const size_t tiles = (size_t)d->tiles;
    return (d->search != MERGE_SEARCH_BLOCK ? (tiles + 1) * sizeof(merge_coord) : 0) + tiles * (4 + vs);
}

/* The kernels' decomposition on the CPU, for one value type T (values
 * stored as V in MERGE_PATH_HOST_V, widened to T): NAME(d,
 * row_ptr, col_idx, val, s_end, x, y) computes y = A x for d's shape from
 * host copies of its CSR, s_end a scratch of merge_tile_items(d->items) + 1
 * int32. Each tile's start is searched on the whole path, each thread's
 * start on the tile's staged row ends, and each thread walks its items as
 * the device does; the row a thread leaves open passes to the next thread
 * (the block scan) or the next tile (the fix-up), in path order. Every row
 * of y is written. */
#define MERGE_PATH_HOST(NAME, T) MERGE_PATH_HOST_V(NAME, T, T)
#define MERGE_PATH_HOST_V(NAME, T, V)                                                              \
    static void NAME(const merge_dev *dv, const int32_t *row_ptr, const int32_t *col_idx,          \
                     const V *val, int32_t *s_end, const T *x, T *y)                                \
    {                                                                                              \
        const int items = dv->items, tile = merge_tile_items(items);                               \
        const int32_t rows = dv->rows, nnz = dv->nnz;                                              \
        int32_t open_row = -1; /* the row left open so far, and its partial sum */                \
        T open = 0;                                                                                \
        const int64_t length = (int64_t)rows + nnz;                                                \
        for (int32_t b = 0; b < dv->tiles; b++) {                                                  \
            int64_t d0 = (int64_t)b * tile, d1 = d0 + tile < length ? d0 + tile : length;          \
            merge_coord c0 = merge_path_search(d0, row_ptr + 1, rows, 0, nnz);                     \
            merge_coord c1 = merge_path_search(d1, row_ptr + 1, rows, 0, nnz);                     \
            int32_t tile_rows = c1.row - c0.row, tile_nz = c1.nz - c0.nz;                          \
            for (int32_t i = 0; i <= tile_rows; i++)                                               \
                s_end[i] = c0.row + i < rows ? row_ptr[c0.row + i + 1] - c0.nz : INT32_MAX;        \
            int32_t len = tile_rows + tile_nz;                                                     \
            for (int t = 0; t < MERGE_THREADS; t++) {                                              \
                int32_t d = t * items < len ? t * items : len;                                     \
                merge_coord p = merge_path_search(d, s_end, tile_rows, 0, tile_nz);                \
                int32_t steps = len - d < items ? len - d : items;                                 \
                T acc = 0;                                                                         \
                for (int s = 0; s < steps; s++) {                                                  \
                    if (p.nz < s_end[p.row]) {                                                     \
                        int64_t k = (int64_t)c0.nz + p.nz++;                                       \
                        acc += (T)val[k] * x[col_idx[k]];                                          \
                    } else {                                                                       \
                        int32_t r = c0.row + p.row++;                                              \
                        y[r] = r == open_row ? acc + open : acc;                                   \
                        open_row = -1;                                                             \
                        acc = 0;                                                                   \
                    }                                                                              \
                }                                                                                  \
                int32_t r = c0.row + p.row;                                                        \
                if (r == open_row) {                                                               \
                    open += acc;                                                                   \
                } else {                                                                           \
                    open_row = r;                                                                  \
                    open = acc;                                                                    \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

#ifdef __cplusplus
}
#endif
#endif
