/*
 * jds on the CPU: the kernels of jds.cu replayed lane by lane, with the same
 * fused multiply-adds in the same order and the same shuffle trees, so
 * spmv_host and the GPU agree bit for bit.
 */
#include <math.h>

#include "jds.h"

/* For one value type V with fused multiply-add FMA: NAME_tree (lane 0 after
 * the butterfly over n lanes), NAME_piece (a warp's sum over entries
 * [b, e), lane l taking b + l, b + l + 32, ...), and NAME: every short row
 * (T lanes, lane t taking diagonals t, t + T, ...), then the long rows. */
#define JDS_HOST(NAME, V, FMA)                                                             \
    static V NAME##_tree(V *v, int32_t n)                                                  \
    {                                                                                      \
        for (int32_t h = n / 2; h >= 1; h /= 2)                                            \
            for (int32_t t = 0; t < h; t++)                                                \
                v[t] = v[t] + v[t + h];                                                    \
        return v[0];                                                                       \
    }                                                                                      \
    static V NAME##_piece(const jds_format *f, const V *x, int32_t b, int32_t e)           \
    {                                                                                      \
        const V *val = f->val;                                                             \
        V lane[JDS_WARP];                                                                  \
        for (int32_t l = 0; l < JDS_WARP; l++) {                                           \
            lane[l] = 0;                                                                   \
            for (int32_t i = b + l; i < e; i += JDS_WARP)                                  \
                lane[l] = FMA(val[i], x[f->col[i]], lane[l]);                              \
        }                                                                                  \
        return NAME##_tree(lane, JDS_WARP);                                                \
    }                                                                                      \
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
        for (int32_t j = 0; j < f->nlong; j++) {                                           \
            int32_t np = f->piece_ptr[j + 1] - f->piece_ptr[j];                            \
            int32_t b = f->long_ptr[j], e = f->long_ptr[j + 1];                            \
            if (np == 1) {                                                                 \
                y[f->perm[j]] = NAME##_piece(f, x, b, e);                                  \
                continue;                                                                  \
            }                                                                              \
            V lane[JDS_WARP];                                                              \
            for (int32_t l = 0; l < JDS_WARP; l++) {                                       \
                lane[l] = 0;                                                               \
                for (int32_t q = l; q < np; q += JDS_WARP) {                               \
                    int32_t qb = b + q * JDS_PIECE;                                        \
                    int32_t qe = qb + JDS_PIECE < e ? qb + JDS_PIECE : e;                  \
                    lane[l] = lane[l] + NAME##_piece(f, x, qb, qe);                        \
                }                                                                          \
            }                                                                              \
            y[f->perm[j]] = NAME##_tree(lane, JDS_WARP);                                   \
        }                                                                                  \
    }

JDS_HOST(jds_host_f64, double, fma)
JDS_HOST(jds_host_f32, float, fmaf)
