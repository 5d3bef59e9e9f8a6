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
    return f->val_f32 ? (double)((const float *)f->val)[i] : SPMVLAB_VALUE_HOST(double, &f->vs, f->val, i);
}
static float sell_host_val_f32(const sell_fmt *f, int32_t i)
{
    return SPMVLAB_VALUE_HOST(float, &f->vs, f->val, i);
}

/* For one value type V with fused multiply-add FMA and slot values VAL(f, i):
 * NAME_tree and NAME_long (the long rows, ../common/long_rows.h), and NAME:
 * the slice kernel for every sorted position (T lanes per row, lane t adds
 * slots t, t + T, ...), then the long rows, which overwrite theirs. */
#define SELL_HOST(NAME, V, FMA, VAL)                                                       \
    LONG_ROWS_HOST(NAME, V, FMA, SELL_PIECE)                                               \
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
        NAME##_long(f->nlong, f->long_row, f->long_ptr, f->piece_ptr, f->long_col,         \
                    (const V *)f->long_val, x, y);                                         \
    }

SELL_HOST(sell_host_f64, double, fma, sell_host_val_f64)
SELL_HOST(sell_host_f32, float, fmaf, sell_host_val_f32)
