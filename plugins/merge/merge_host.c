/*
 * merge on the CPU: the kernels' decomposition from the CSR arrays. Each
 * tile's start is searched on the whole path, each thread's start on the
 * tile's staged row ends, and each thread walks its items as the device
 * does; the row a thread leaves open passes to the next thread (the block
 * scan) or the next tile (the fix-up), in path order.
 */
#include "merge_format.h"

#define MERGE_HOST(NAME, T)                                                                        \
    void NAME(const merge_format *f, const T *x, T *y)                                             \
    {                                                                                              \
        const int items = f->dev.items, tile = merge_tile_items(items);                           \
        const T *val = (const T *)f->val;                                                          \
        int32_t *s_end = f->s_end;                                                                 \
        int32_t open_row = -1; /* the row left open so far, and its partial sum */                \
        T open = 0;                                                                                \
        const int64_t length = (int64_t)f->rows + f->nnz;                                          \
        for (int32_t b = 0; b < f->dev.tiles; b++) {                                               \
            int64_t d0 = (int64_t)b * tile, d1 = d0 + tile < length ? d0 + tile : length;          \
            merge_coord c0 = merge_path_search(d0, f->row_ptr + 1, f->rows, 0, f->nnz);            \
            merge_coord c1 = merge_path_search(d1, f->row_ptr + 1, f->rows, 0, f->nnz);            \
            int32_t tile_rows = c1.row - c0.row, tile_nz = c1.nz - c0.nz;                          \
            for (int32_t i = 0; i <= tile_rows; i++)                                               \
                s_end[i] = c0.row + i < f->rows ? f->row_ptr[c0.row + i + 1] - c0.nz : INT32_MAX;   \
            int32_t len = tile_rows + tile_nz;                                                     \
            for (int t = 0; t < MERGE_THREADS; t++) {                                              \
                int32_t d = t * items < len ? t * items : len;                                     \
                merge_coord p = merge_path_search(d, s_end, tile_rows, 0, tile_nz);                \
                int32_t steps = len - d < items ? len - d : items;                                 \
                T acc = 0;                                                                         \
                for (int s = 0; s < steps; s++) {                                                  \
                    if (p.nz < s_end[p.row]) {                                                     \
                        int64_t k = (int64_t)c0.nz + p.nz++;                                       \
                        acc += val[k] * x[f->col_idx[k]];                                          \
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

MERGE_HOST(merge_host_f64, double)
MERGE_HOST(merge_host_f32, float)
