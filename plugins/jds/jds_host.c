/*
 * jds on the CPU: the kernels of jds.cu replayed lane by lane, with the same
 * fused multiply-adds in the same order and the same shuffle trees, so
 * spmv_host and the GPU agree bit for bit.
 */
#include <math.h>

#include "jds.h"

/* For one value type V with fused multiply-add FMA: NAME_tree and
 * NAME_long (the long rows, ../common/long_rows.h), and NAME: every short
 * row (T lanes, lane t taking diagonals t, t + T, ...), then the long rows. */
#define JDS_HOST(NAME, V, FMA)                                                             \
    LONG_ROWS_HOST(NAME, V, FMA, JDS_PIECE)                                                \
    void NAME(const jds_format *f, const V *x, V *y)                                       \
    {                                                                                      \
        const V *val = f->val;                                                             \
        const int32_t T = f->threads_per_row;                                              \
        V part[JDS_WARP];                                                                  \
        for (int32_t r = 0; r < f->rows - f->nlong; r++) {                                 \
            for (int32_t t = 0; t < T; t++)                                                \
                part[t] = 0;                                                               \
            for (int32_t d = 0; d < f->diagonals && r < f->jd_ptr[d + 1] - f->jd_ptr[d];   \
                 d++) {                                                                    \
                int32_t k = f->jd_ptr[d] + r;                                              \
                part[d % T] = FMA(val[k], x[f->col[k]], part[d % T]);                      \
            }                                                                              \
            y[f->perm[f->nlong + r]] = NAME##_tree(part, T);                               \
        }                                                                                  \
        NAME##_long(f->nlong, f->perm, f->long_ptr, f->piece_ptr, f->col, val, x, y);      \
    }

JDS_HOST(jds_host_f64, double, fma)
JDS_HOST(jds_host_f32, float, fmaf)
