/*
 * The blocked COO kernel shared by the coo and hyb plugins ("thread-sequential
 * then warp", Merrill & Garland, SC'16): its constants and its execution on
 * the CPU (spmv_host of both). The plan is coo_seg_make_plan with tiles of
 * COO_BLK_TILE entries.
 *
 * Entries are sorted by row. Warp w owns the chunk [w·interval,
 * (w+1)·interval) (interval a multiple of COO_BLK_TILE = 256). It walks the
 * chunk in tiles of 32 × items entries (items = COO_BLK_ITEMS = 8, or 4);
 * lane l of a tile holds the items consecutive entries starting at
 * l × items, loaded with 16-byte vector loads; 8 entries per lane (one tile
 * of 8 or two of 4) are loaded together (all row, column and value loads in
 * flight, then all the gathers of x). Each lane first reduces its own entries
 * in order (fma into a running sum, restarted at every new row), which splits
 * them into a head run (its first row), runs that start and end inside the
 * lane, and a tail run (its last row; the head when the lane holds one row).
 * Inner runs belong to this lane alone and are written at once. Then one
 * run-restricted warp scan over the lanes' tail sums joins the runs that
 * cross lanes: a lane starts a new segment when it holds more than one row
 * or when its head row is not the previous lane's tail row. A lane whose
 * head run ends inside it adds the previous lane's scanned tail (when it is
 * the same row) and writes it; a lane whose tail run ends at its last entry
 * (the next lane starts another row) writes its scanned tail; lane 31's
 * scanned tail is the carry into the next tile, folded into lane 0's head
 * there. So a tile of 256 entries costs one warp scan, not eight (with
 * items = 4, a tile of 128 entries one).
 *
 * Writes follow coo_segmented.h: a run of the chunk's first row may be shared
 * with the previous chunk (atomicAdd); every other run that ends inside the
 * chunk belongs to this warp (plain store after the memset, plain add in
 * hyb); the chunk's last run is its carry-out, and the carry-outs of a
 * block's 8 warps are combined by the same scan as the segmented kernel's
 * and added atomically (the owner write of coo_owner.h differs). Padding
 * (past the last entry) has row -1, never written; only the last chunk has
 * any.
 */
#ifndef SPMVLAB_COO_BLOCKED_H
#define SPMVLAB_COO_BLOCKED_H

#include "coo_segmented.h"

#define COO_BLK_ITEMS 8 /* consecutive entries per lane and tile: two int4 of rows, of columns */
#define COO_BLK_STEP 8  /* entries per lane loaded together: one tile of 8 or two of 4 */
#define COO_BLK_TILE (COO_SEG_WARP * COO_BLK_STEP) /* chunk granule: entries per warp step */

/* The kernel on the CPU in value type T with FMA (fma or fmaf): the same
 * chunks, lanes, sequential sums, scan order (coo_seg_scan_heads_*, a Hillis-Steele
 * scan restricted to segments that start where seg[l] = 1) and carries; every
 * store, add and atomic becomes y[row] += sum. Expand COO_SEG_DEFINE_HOST
 * with the same T and SUFFIX first (its scan combines the carry-outs). */
#define COO_BLK_DEFINE_HOST(T, FMA, SUFFIX)                                                      \
    /* One tile: lanes' sequential sums, the carry folded into lane 0, the                    \
     * scan, the writes; *carry_row / *carry updated to lane 31's tail. */                     \
    static void coo_blk_tile_##SUFFIX(int items, long long base, long long end,                  \
                                      const int32_t *row, const int32_t *col, const T *val,      \
                                      const T *x, T *y, int32_t *carry_row, T *carry)            \
    {                                                                                            \
        int32_t hr[COO_SEG_WARP], tr[COO_SEG_WARP];                                              \
        int multi[COO_SEG_WARP], seg[COO_SEG_WARP];                                              \
        T hs[COO_SEG_WARP], ts[COO_SEG_WARP];                                                    \
        for (int l = 0; l < COO_SEG_WARP; l++) {                                                 \
            int32_t cr = -1, h = -1;                                                             \
            T s = 0;                                                                             \
            multi[l] = 0;                                                                        \
            hs[l] = 0;                                                                           \
            for (int j = 0; j < items; j++) {                                                    \
                long long k = base + (long long)l * items + j;                                   \
                int32_t r = k < end ? row[k] : -1;                                               \
                if (j == 0)                                                                      \
                    cr = h = r;                                                                  \
                if (r != cr) {                                                                   \
                    if (!multi[l]) {                                                             \
                        hs[l] = s;                                                               \
                        multi[l] = 1;                                                            \
                    } else if (cr >= 0) {                                                        \
                        y[cr] += s;                                                              \
                    }                                                                            \
                    cr = r;                                                                      \
                    s = 0;                                                                       \
                }                                                                                \
                if (r >= 0)                                                                      \
                    s = FMA(val[k], x[col[k]], s);                                               \
            }                                                                                    \
            hr[l] = h;                                                                           \
            tr[l] = cr;                                                                          \
            ts[l] = s;                                                                           \
        }                                                                                        \
        if (hr[0] == *carry_row) {                                                               \
            if (multi[0])                                                                        \
                hs[0] += *carry;                                                                 \
            else                                                                                 \
                ts[0] += *carry;                                                                 \
        } else if (*carry_row >= 0) {                                                            \
            y[*carry_row] += *carry;                                                             \
        }                                                                                        \
        for (int l = 0; l < COO_SEG_WARP; l++)                                                   \
            seg[l] = l == 0 || multi[l] || hr[l] != tr[l - 1];                                   \
        coo_seg_scan_heads_##SUFFIX(ts, seg);                                                          \
        for (int l = 0; l < COO_SEG_WARP; l++) {                                                 \
            if (multi[l] && hr[l] >= 0)                                                          \
                y[hr[l]] += l > 0 && tr[l - 1] == hr[l] ? hs[l] + ts[l - 1] : hs[l];             \
            if (l < COO_SEG_WARP - 1 && tr[l] >= 0 && hr[l + 1] != tr[l])                        \
                y[tr[l]] += ts[l];                                                               \
        }                                                                                        \
        *carry_row = tr[COO_SEG_WARP - 1];                                                       \
        *carry = ts[COO_SEG_WARP - 1];                                                           \
    }                                                                                            \
                                                                                                 \
    static void coo_blk_host_##SUFFIX(coo_seg_plan p, int items, int32_t entries,                \
                                      const int32_t *row, const int32_t *col, const T *val,      \
                                      const T *x, T *y, T *carries)                              \
    {                                                                                            \
        coo_seg_chunks_##SUFFIX(p, items, entries, row, col, val, x, y, carries,                 \
                                coo_blk_tile_##SUFFIX);                                          \
    }

#endif
