/*
 * bccoo on the CPU: the kernel's work from the format's own arrays. Each
 * thread of each chunk decodes its block columns, adds its blocks into h
 * sums and ends a segment at each row-end flag; the segment a thread
 * leaves open passes to the next thread (the block scan) or chunk (the
 * fix-up), in block order. Empty block rows are written as zeros by the
 * writer of the next segment (the last one's writer fills the rows after).
 */
#include <math.h>

#include "bccoo_format.h"

/* Writes the h sums of segment s and the zeros of the empty block rows
 * before it (and after it, for the last segment). */
#define BCCOO_WRITE(T)                                                                             \
    static void write_segment_##T(const bccoo_format *f, int32_t s, const T *sum, T *y)            \
    {                                                                                              \
        const bccoo_arrays *a = &f->a;                                                             \
        int32_t br = a->brow ? a->brow[s] : s;                                                     \
        int32_t from = a->brow ? (s ? a->brow[s - 1] + 1 : 0) : br;                                \
        int32_t to = a->brow && s == a->segments - 1 ? a->block_rows : br + 1;                     \
        for (int32_t b = from; b < to; b++)                                                        \
            for (int r = 0; r < a->h && (int64_t)b * a->h + r < f->rows; r++)                      \
                y[(int64_t)b * a->h + r] = b == br ? sum[r] : 0;                                   \
    }

#define BCCOO_HOST(NAME, T, FMA)                                                                   \
    BCCOO_WRITE(T)                                                                                 \
    void NAME(const bccoo_format *f, const T *x, T *y)                                             \
    {                                                                                              \
        const bccoo_arrays *a = &f->a;                                                             \
        const int h = a->h, w = a->w, hw = h * w;                                                  \
        const T *val = (const T *)a->val;                                                          \
        T *open = (T *)f->carry_val;                                                               \
        int32_t open_seg = -1;                                                                     \
        if (a->segments == 0)                                                                      \
            for (int32_t r = 0; r < f->rows; r++)                                                  \
                y[r] = 0;                                                                          \
        for (int64_t c = 0; c < a->chunks; c++) {                                                  \
            int32_t seg = a->seg0[c];                                                              \
            for (int t = 0; t < BCCOO_THREADS; t++) {                                              \
                uint8_t fl = a->flags[c * BCCOO_THREADS + t];                                      \
                T acc[4] = {0, 0, 0, 0};                                                           \
                for (int i = 0; i < BCCOO_PER_THREAD; i++) {                                       \
                    int64_t bc = bccoo_block_col(a, c, t, i);                                      \
                    for (int r = 0; r < h; r++)                                                    \
                        for (int cc = 0; cc < w; cc++) {                                           \
                            int64_t col = bc * w + cc;                                             \
                            int64_t at = c * BCCOO_CHUNK * hw + ((int64_t)i * hw + r * w + cc) * BCCOO_THREADS + t; \
                            if (col < f->cols)                                                     \
                                acc[r] = FMA(val[at], x[col], acc[r]);                             \
                        }                                                                          \
                    if (!((fl >> i) & 1))                                                          \
                        continue;                                                                  \
                    for (int r = 0; r < h && seg == open_seg; r++)                                 \
                        acc[r] += open[r];                                                         \
                    write_segment_##T(f, seg++, acc, y);                                           \
                    open_seg = -1;                                                                 \
                    for (int r = 0; r < h; r++)                                                    \
                        acc[r] = 0;                                                                \
                }                                                                                  \
                for (int r = 0; r < h; r++)                                                        \
                    open[r] = seg == open_seg ? open[r] + acc[r] : acc[r];                         \
                open_seg = seg;                                                                    \
            }                                                                                      \
        }                                                                                          \
    }

BCCOO_HOST(bccoo_host_f64, double, fma)
BCCOO_HOST(bccoo_host_f32, float, fmaf)
