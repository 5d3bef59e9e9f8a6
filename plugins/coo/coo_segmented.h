/*
 * The chunked segmented-reduction COO kernel shared by the coo and hyb
 * plugins: its plan (C) and its execution on the CPU (spmv_host of both).
 *
 * Entries are sorted by row. Warp w owns the chunk [w·interval,
 * (w+1)·interval) of them (interval a multiple of 32, one chunk per warp,
 * enough warps to fill the device). It walks its chunk in tiles of 32
 * consecutive entries (coalesced loads, COO_SEG_UNROLL tiles loaded before
 * any is reduced), folds the run carried from the previous tile into lane 0,
 * and runs an inclusive scan restricted to runs of equal rows. A run that
 * ends inside the chunk and is not the chunk's first row belongs to this warp
 * alone: it is written with a plain store (coo: y zeroed before) or a plain
 * add (hyb: y holds the ELL sum). Only the chunk's first run and the run it
 * carries out can be shared with a neighbouring chunk: those use atomicAdd,
 * and the carry-outs of a block's 8 warps (consecutive chunks) are first
 * combined by the same scan, so a row of any length costs at most two
 * atomics per block it touches. No atomic per non-zero.
 */
#ifndef SPMVLAB_COO_SEGMENTED_H
#define SPMVLAB_COO_SEGMENTED_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/plugin.h"

#define COO_SEG_BLOCK 256 /* threads per block: 8 warps combine their carries */
#define COO_SEG_WARP 32   /* lanes of one scan */
#define COO_SEG_UNROLL 4  /* tiles of 32 entries loaded before they are reduced */
#define COO_SEG_HOST_WARPS 8448 /* warps planned without a device (132 SMs x 64) */

/* The launch plan: entries per warp (a multiple of 32) and warps. */
typedef struct coo_seg_plan {
    int32_t interval; /* entries per warp's chunk, a multiple of 32; 0 when no entries */
    int32_t warps;    /* chunks, one warp each; grid = ceil(warps / 8) blocks */
    int32_t stream;   /* 1: row, column and value loads evict-first (ld.global.cs), leaving
                       * L1 and L2 to the gathers of x; 0: the read-only cache (ld.global.nc) */
    const int32_t *starts;   /* NULL: chunk w is [w interval, (w + 1) interval); else (segmented
                              * kernel, coo_seg_snap) chunk w is [starts[w], starts[w + 1]), every
                              * start a row start; coo_seg_starts_len(warps) entries */
    const int32_t *d_starts; /* device copy of starts */
} coo_seg_plan;

/* Entries of a starts array: one per warp of the grid's whole blocks, and
 * the end (the grid runs ceil(warps / 8) blocks of 8 warps). */
static inline size_t coo_seg_starts_len(int32_t warps)
{
    return ((size_t)warps + 7) / 8 * 8 + 1;
}

/* The first entry of warp w's chunk (at most `entries`). */
static inline long long coo_seg_begin(coo_seg_plan p, int32_t entries, long long w)
{
    long long b = p.starts ? p.starts[w] : w * (long long)p.interval;
    return b < entries ? b : entries;
}

/* Rows of at most this many entries, and of at most one chunk, let
 * coo_seg_snap move the chunk edges to row starts: a chunk then differs from
 * the interval by less than one row, at most twice the interval, so warps
 * stay balanced. A longer row would leave its warp the slowest by far
 * (README.md, "Chunk edges at row starts"). */
#define COO_SNAP_MAX_ROW 256

/* Whether plan p's edges may move to row starts when the longest row holds
 * `longest` entries. */
static inline int coo_seg_can_snap(coo_seg_plan p, int32_t longest)
{
    return p.warps > 0 && longest <= COO_SNAP_MAX_ROW && longest <= p.interval;
}

/* The edges of plan p moved to row starts (each nominal edge w interval to
 * the first entry at or after it that starts a row), so no row is split
 * between chunks: with the owner write there are no carries and no carry
 * pass, every row is stored by its one warp. Returns a malloc'd starts
 * array (coo_seg_starts_len(p.warps) entries; the caller frees it), or NULL
 * when coo_seg_can_snap refuses the longest row, when there are no entries,
 * or when out of memory. row: `entries` row-sorted row indices. */
static inline int32_t *coo_seg_snap(coo_seg_plan p, const int32_t *row, int32_t entries)
{
    if (entries <= 0)
        return NULL;
    int32_t longest = 0;
    for (int32_t k = 0, run = 1; k < entries; k++, run++) {
        if (k > 0 && row[k] != row[k - 1])
            run = 1;
        longest = run > longest ? run : longest;
    }
    if (!coo_seg_can_snap(p, longest))
        return NULL;
    size_t n = coo_seg_starts_len(p.warps);
    int32_t *s = (int32_t *)malloc(n * sizeof *s);
    if (!s)
        return NULL;
    s[0] = 0;
    for (size_t w = 1; w < n; w++) {
        long long b = w * (long long)p.interval;
        if (b >= entries)
            b = entries;
        while (b < entries && b > 0 && row[b] == row[b - 1])
            b++;
        s[w] = (int32_t)(b < s[w - 1] ? s[w - 1] : b);
    }
    return s;
}

/* One chunk per resident warp of the device (so every warp has the same
 * work and there is no tail wave), each a whole number of tiles of `tile`
 * entries (32 for this kernel, 32 x COO_BLK_ITEMS for coo_blocked.h).
 * blocks_per_sm: the kernel's occupancy (cudaOccupancyMaxActiveBlocks...),
 * 0 when unknown (no device): then the device's thread limit, or 132 SMs. */
static inline coo_seg_plan coo_seg_make_plan(const spmvlab_device *dev, int blocks_per_sm,
                                             int32_t entries, int32_t tile)
{
    coo_seg_plan p = {0, 0, 0, NULL, NULL};
    long long max_warps = COO_SEG_HOST_WARPS;
    if (dev && dev->present && dev->sm_count > 0 && blocks_per_sm > 0)
        max_warps = (long long)dev->sm_count * blocks_per_sm * (COO_SEG_BLOCK / COO_SEG_WARP);
    else if (dev && dev->present && dev->sm_count > 0 && dev->max_threads_per_sm >= COO_SEG_WARP)
        max_warps = (long long)dev->sm_count * (dev->max_threads_per_sm / COO_SEG_WARP);
    long long tiles = ((long long)entries + tile - 1) / tile;
    if (tiles == 0)
        return p;
    long long warps = tiles < max_warps ? tiles : max_warps;
    long long interval = (tiles + warps - 1) / warps * tile;
    p.interval = (int32_t)interval;
    p.warps = (int32_t)(((long long)entries + interval - 1) / interval);
    return p;
}

/* Chunks of `chunk` entries rounded up to whole tiles, as many warps as that
 * takes (several waves on a large matrix). */
static inline coo_seg_plan coo_seg_fixed_plan(int32_t entries, int32_t chunk, int32_t tile)
{
    coo_seg_plan p = {0, 0, 0, NULL, NULL};
    if (entries <= 0)
        return p;
    long long interval = ((long long)chunk + tile - 1) / tile * tile;
    if (interval > entries)
        interval = ((long long)entries + tile - 1) / tile * tile;
    p.interval = (int32_t)interval;
    p.warps = (int32_t)(((long long)entries + interval - 1) / interval);
    return p;
}

/* The kernel on the CPU in value type T (SUFFIX f64 or f32): the same tiles,
 * carries, scan order and block combination; every store, add and atomic
 * becomes y[row] += sum (y holds 0 or the ELL sum before).
 * coo_seg_scan_heads_* is the warp's run-restricted Hillis-Steele scan
 * (offsets 1, 2, ..., 16) over runs starting where head[l] = 1;
 * coo_seg_scan_* first sets head[l] = 1 where lane l starts a run of r. */
#define COO_SEG_DEFINE_HOST(T, SUFFIX)                                                           \
    static void coo_seg_scan_heads_##SUFFIX(T v[COO_SEG_WARP], const int head[COO_SEG_WARP])    \
    {                                                                                            \
        int start[COO_SEG_WARP];                                                                 \
        T u[COO_SEG_WARP];                                                                       \
        for (int l = 0; l < COO_SEG_WARP; l++)                                                   \
            start[l] = head[l] ? l : start[l - 1];                                               \
        for (int d = 1; d < COO_SEG_WARP; d <<= 1) {                                             \
            memcpy(u, v, sizeof u);                                                              \
            for (int l = d; l < COO_SEG_WARP; l++)                                               \
                if (l - d >= start[l])                                                           \
                    v[l] += u[l - d];                                                            \
        }                                                                                        \
    }                                                                                            \
    static void coo_seg_scan_##SUFFIX(T v[COO_SEG_WARP], const int32_t r[COO_SEG_WARP],          \
                                      int head[COO_SEG_WARP])                                    \
    {                                                                                            \
        for (int l = 0; l < COO_SEG_WARP; l++)                                                   \
            head[l] = l == 0 || r[l] != r[l - 1];                                                \
        coo_seg_scan_heads_##SUFFIX(v, head);                                                    \
    }                                                                                            \
    /* The run scan of 32 (row, sum) pairs (row -1: none), each run's total                      \
     * added to y once, as the kernels' one atomicAdd per run end. */                            \
    static void coo_seg_add_runs_##SUFFIX(T v[COO_SEG_WARP], const int32_t r[COO_SEG_WARP], T *y)\
    {                                                                                            \
        int head[COO_SEG_WARP];                                                                  \
        coo_seg_scan_##SUFFIX(v, r, head);                                                       \
        for (int l = 0; l < COO_SEG_WARP; l++)                                                   \
            if (r[l] >= 0 && (l == COO_SEG_WARP - 1 || head[l + 1]))                             \
                y[r[l]] += v[l];                                                                 \
    }                                                                                            \
                                                                                                 \
    /* One warp tile of 32 entries from base (entries past end are row -1):   \
     * the products, the carry in, the scan, every finished run added. */     \
    static void coo_seg_tile_##SUFFIX(int items, long long base, long long end,                  \
                                      const int32_t *row, const int32_t *col, const T *val,      \
                                      const T *x, T *y, int32_t *carry_row, T *carry)            \
    {                                                                                            \
        (void)items;                                                                             \
        int head[COO_SEG_WARP];                                                                  \
        int32_t r[COO_SEG_WARP];                                                                 \
        T v[COO_SEG_WARP];                                                                       \
        for (int l = 0; l < COO_SEG_WARP; l++) {                                                 \
            long long k = base + l;                                                              \
            r[l] = k < end ? row[k] : -1;                                                        \
            v[l] = k < end ? val[k] * x[col[k]] : (T)0;                                          \
        }                                                                                        \
        if (r[0] == *carry_row)                                                                  \
            v[0] += *carry;                                                                      \
        else if (*carry_row >= 0)                                                                \
            y[*carry_row] += *carry;                                                             \
        coo_seg_scan_##SUFFIX(v, r, head);                                                       \
        for (int l = 0; l < COO_SEG_WARP - 1; l++)                                               \
            if (r[l] >= 0 && head[l + 1])                                                        \
                y[r[l]] += v[l];                                                                 \
        *carry_row = r[COO_SEG_WARP - 1];                                                        \
        *carry = v[COO_SEG_WARP - 1];                                                            \
    }                                                                                            \
                                                                                                 \
    /* The chunks of plan p as the kernels walk them, tile by tile (tiles of \
     * 32 x items entries): each warp's carry out, then the block's scan of  \
     * the carries. tile is coo_seg_tile_* or coo_blk_tile_*. carries: NULL, \
     * or the owner write (coo_owner.h): a warp's run of a first row that    \
     * continues from the previous chunk goes to carries[warp] (y[row] is    \
     * set aside meanwhile; y starts zeroed, so a sum added to 0 is the      \
     * kernel's plain store), the carry-out to y without the block's scan.   \
     * coo_own_add_* then adds the carries, as the carry kernel does. */      \
    static void coo_seg_chunks_##SUFFIX(coo_seg_plan p, int items, int32_t entries,              \
                                        const int32_t *row, const int32_t *col, const T *val,    \
                                        const T *x, T *y, T *carries,                            \
                                        void (*tile)(int, long long, long long, const int32_t *, \
                                                     const int32_t *, const T *, const T *, T *, \
                                                     int32_t *, T *))                            \
    {                                                                                            \
        enum { per_block = COO_SEG_BLOCK / COO_SEG_WARP };                                       \
        for (long long b = 0; b * per_block < p.warps; b++) {                                    \
            int32_t out_rows[COO_SEG_WARP];                                                      \
            T out_sums[COO_SEG_WARP];                                                            \
            for (int l = 0; l < COO_SEG_WARP; l++) {                                             \
                out_rows[l] = -1;                                                                \
                out_sums[l] = 0;                                                                 \
            }                                                                                    \
            for (int w = 0; w < per_block; w++) {                                                \
                long long begin = coo_seg_begin(p, entries, b * per_block + w);                  \
                long long end = coo_seg_begin(p, entries, b * per_block + w + 1);                \
                int32_t carry_row = -1;                                                          \
                T carry = 0;                                                                     \
                const int shared = carries && begin > 0 && begin < end &&                        \
                                   row[begin - 1] == row[begin];                                 \
                const T aside = shared ? y[row[begin]] : (T)0;                                   \
                if (shared)                                                                      \
                    y[row[begin]] = 0;                                                           \
                for (long long base = begin; base < end; base += COO_SEG_WARP * items)           \
                    tile(items, base, end, row, col, val, x, y, &carry_row, &carry);             \
                if (carries && carry_row >= 0)                                                   \
                    y[carry_row] += carry;                                                       \
                if (shared) {                                                                    \
                    carries[b * per_block + w] = y[row[begin]];                                  \
                    y[row[begin]] = aside;                                                       \
                }                                                                                \
                out_rows[w] = carries ? -1 : carry_row;                                          \
                out_sums[w] = carry;                                                             \
            }                                                                                    \
            coo_seg_add_runs_##SUFFIX(out_sums, out_rows, y);                                    \
        }                                                                                        \
    }                                                                                            \
                                                                                                 \
    static void coo_seg_host_##SUFFIX(coo_seg_plan p, int32_t entries, const int32_t *row,       \
                                      const int32_t *col, const T *val, const T *x, T *y,        \
                                      T *carries)                                                \
    {                                                                                            \
        coo_seg_chunks_##SUFFIX(p, 1, entries, row, col, val, x, y, carries,                     \
                                coo_seg_tile_##SUFFIX);                                          \
    }

#endif
