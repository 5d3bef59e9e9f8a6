/*
 * sell on the CPU: the kernels of sell.cu replayed lane by lane, with the
 * same fused multiply-adds in the same order and the same shuffle trees,
 * so spmv_host and the GPU agree bit for bit.
 */
#include <math.h>

#include "sell_format.h"

/* Column of slot i of slice s, SELL_PAD_COL for padding, from whichever
 * index layout f holds (sell_index.c): a base per slice or per slot column
 * (the C slots from (i / C) C). */
static int32_t sell_host_col(const sell_fmt *f, int32_t s, int32_t i)
{
    if (f->index_bits == 32)
        return f->col[i];
    int32_t g = f->index_column ? i / f->C : s, first = f->index_column ? g * f->C : f->slice_ptr[s];
    int32_t a = f->aux[g];
    uint32_t l = f->lo[i];
    if (a < 0)
        return (int32_t)(((uint32_t)f->hi[~a + (i - first)] << 16) | l);
    return l == SELL_PAD_OFF ? SELL_PAD_COL : a + (int32_t)l;
}

/* Value of slot i widened from its storage type, as the kernels load it. */
static double sell_host_val_f64(const sell_fmt *f, int32_t i)
{
    return f->val_f32 ? (double)((const float *)f->val)[i] : ((const double *)f->val)[i];
}
static float sell_host_val_f32(const sell_fmt *f, int32_t i)
{
    return ((const float *)f->val)[i];
}

/* For one value type V with fused multiply-add FMA and slot values VAL(f, i):
 * - NAME_tree: lane 0's value after the butterfly __shfl_xor_sync tree over
 *   n lanes (offsets n/2, ..., 1), v overwritten;
 * - NAME_piece: the long-row piece kernel's warp sum over entries
 *   [b, e) (lane l adds b + l, b + l + 32, ... in order);
 * - NAME: the slice kernel for every sorted position (T lanes per row, lane t
 *   adds slots t, t + T, ...), then the long rows, which overwrite theirs. */
#define SELL_HOST(NAME, V, FMA, VAL)                                                       \
    static V NAME##_tree(V *v, int32_t n)                                                  \
    {                                                                                      \
        for (int32_t h = n / 2; h >= 1; h /= 2)                                            \
            for (int32_t t = 0; t < h; t++)                                                \
                v[t] = v[t] + v[t + h];                                                    \
        return v[0];                                                                       \
    }                                                                                      \
    static V NAME##_piece(const sell_fmt *f, const V *x, int32_t b, int32_t e)             \
    {                                                                                      \
        const V *val = f->long_val;                                                        \
        V lane[SELL_WARP];                                                                 \
        for (int32_t l = 0; l < SELL_WARP; l++) {                                          \
            lane[l] = 0;                                                                   \
            for (int32_t i = b + l; i < e; i += SELL_WARP)                                 \
                lane[l] = FMA(val[i], x[f->long_col[i]], lane[l]);                         \
        }                                                                                  \
        return NAME##_tree(lane, SELL_WARP);                                               \
    }                                                                                      \
    void NAME(const sell_fmt *f, const V *x, V *y)                                         \
    {                                                                                      \
        const int32_t T = f->threads_per_row;                                              \
        V part[SELL_WARP];                                                                 \
        for (int32_t p = 0; p < f->rows; p++) {                                            \
            int32_t s = p / f->C, w = (f->slice_ptr[s + 1] - f->slice_ptr[s]) / f->C;      \
            int32_t base = f->slice_ptr[s] + (p - s * f->C);                               \
            for (int32_t t = 0; t < T; t++)                                                \
                part[t] = 0;                                                               \
            for (int32_t k = 0; k < w; k++) {                                              \
                int32_t i = base + k * f->C, c = sell_host_col(f, s, i);                   \
                if (c != SELL_PAD_COL)                                                     \
                    part[k % T] = FMA(VAL(f, i), x[c], part[k % T]);                       \
            }                                                                              \
            y[f->perm ? f->perm[p] : p] = NAME##_tree(part, T);                            \
        }                                                                                  \
        for (int32_t j = 0; j < f->nlong; j++) {                                           \
            int32_t p0 = f->piece_ptr[j], np = f->piece_ptr[j + 1] - p0;                   \
            int32_t b = f->long_ptr[j], e = f->long_ptr[j + 1];                            \
            if (np == 1) {                                                                 \
                y[f->long_row[j]] = NAME##_piece(f, x, b, e);                              \
                continue;                                                                  \
            }                                                                              \
            V lane[SELL_WARP];                                                             \
            for (int32_t l = 0; l < SELL_WARP; l++) {                                      \
                lane[l] = 0;                                                               \
                for (int32_t q = l; q < np; q += SELL_WARP) {                              \
                    int32_t qb = b + q * SELL_PIECE;                                       \
                    int32_t qe = qb + SELL_PIECE < e ? qb + SELL_PIECE : e;                \
                    lane[l] = lane[l] + NAME##_piece(f, x, qb, qe);                        \
                }                                                                          \
            }                                                                              \
            y[f->long_row[j]] = NAME##_tree(lane, SELL_WARP);                              \
        }                                                                                  \
    }

SELL_HOST(sell_host_f64, double, fma, sell_host_val_f64)
SELL_HOST(sell_host_f32, float, fmaf, sell_host_val_f32)
