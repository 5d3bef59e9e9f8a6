/*
 * spmv_host of the cusparse plugin: y = A·x on the CPU from the very arrays
 * uploaded to cuSPARSE, walked in their own layout (CSR rows, COO runs of
 * one row, Sliced-ELL columns of a slice skipping column -1, BSR blocks
 * skipping columns past the matrix). A wrong conversion therefore fails the
 * CPU suite. Each family is written once for every (value, vector,
 * accumulator) combination the plugin offers:
 *   f64      double values, double x and y, double sums
 *   f64s32   float values (mixed mode), double x and y, double sums: every
 *            product is the f32-rounded value times x, in f64
 *   f32      float everything
 *   f16      binary16 values and vectors, float sums rounded once
 */
#include "cusparse_layout.h"

#define CUSPARSE_SAME(v) (v)
#define CUSPARSE_HALF_IN(v) spmvlab_half_to_float(v)
#define CUSPARSE_HALF_OUT(v) spmvlab_float_to_half(v)

/* SUF: name suffix; VT, XT, AT: value, vector and accumulator types;
 * LV, LX: loads to AT; SY: store of an AT sum into y. */
#define CUSPARSE_HOST_FAMILIES(SUF, VT, XT, AT, LV, LX, SY)                                               \
    /* The sum of entries first, first + step, ... before end, in that order;                             \
     * column -1 (Sliced-ELL padding) adds nothing. */                                                    \
    static AT dot_##SUF(const cusparse_layout *L, const XT *x, int64_t first, int64_t end, int64_t step)  \
    {                                                                                                     \
        const VT *v = L->val;                                                                             \
        AT s = 0;                                                                                         \
        for (int64_t k = first; k < end; k += step)                                                       \
            if (L->idx[k] >= 0)                                                                           \
                s += (AT)LV(v[k]) * (AT)LX(x[L->idx[k]]);                                                 \
        return s;                                                                                         \
    }                                                                                                     \
    static void host_csr_##SUF(const cusparse_layout *L, const XT *x, XT *y)                              \
    {                                                                                                     \
        for (int32_t i = 0; i < L->rows; i++)                                                             \
            y[i] = SY(dot_##SUF(L, x, L->ptr[i], L->ptr[i + 1], 1));                                      \
    }                                                                                                     \
    /* Entries are sorted by row: one run per non-empty row. */                                           \
    static void host_coo_##SUF(const cusparse_layout *L, const XT *x, XT *y)                              \
    {                                                                                                     \
        for (int32_t i = 0; i < L->rows; i++)                                                             \
            y[i] = SY((AT)0);                                                                             \
        for (int64_t k = 0, end; k < L->n_idx; k = end) {                                                 \
            end = k + 1;                                                                                  \
            while (end < L->n_idx && L->ptr[end] == L->ptr[k])                                            \
                end++;                                                                                    \
            y[L->ptr[k]] = SY(dot_##SUF(L, x, k, end, 1));                                                \
        }                                                                                                 \
    }                                                                                                     \
    /* Slot j of row r in a slice at off + j*C + r. */                                                    \
    static void host_sell_##SUF(const cusparse_layout *L, const XT *x, XT *y)                             \
    {                                                                                                     \
        int32_t C = L->slice;                                                                             \
        for (int64_t s = 0; s + 1 < L->n_ptr; s++)                                                        \
            for (int32_t r = 0; r < C && s * C + r < L->rows; r++)                                        \
                y[s * C + r] = SY(dot_##SUF(L, x, L->ptr[s] + r, L->ptr[s + 1], C));                      \
    }                                                                                                     \
    static void host_bsr_##SUF(const cusparse_layout *L, const XT *x, XT *y)                              \
    {                                                                                                     \
        const VT *v = L->val;                                                                             \
        int32_t b = L->block;                                                                             \
        for (int32_t I = 0; I < L->brows; I++)                                                            \
            for (int32_t r = 0; r < b && I * b + r < L->rows; r++) {                                      \
                AT sum = 0;                                                                               \
                for (int32_t k = L->ptr[I]; k < L->ptr[I + 1]; k++) {                                     \
                    const VT *blk = v + ((int64_t)k * b + r) * b;                                         \
                    int32_t c0 = L->idx[k] * b;                                                           \
                    for (int32_t c = 0; c < b && c0 + c < L->cols; c++)                                   \
                        sum += (AT)LV(blk[c]) * (AT)LX(x[c0 + c]);                                        \
                }                                                                                         \
                y[I * b + r] = SY(sum);                                                                   \
            }                                                                                             \
    }                                                                                                     \
    static void host_##SUF(const cusparse_layout *L, const XT *x, XT *y)                                  \
    {                                                                                                     \
        switch (L->family) {                                                                              \
        case CUSPARSE_FAMILY_CSR: host_csr_##SUF(L, x, y); break;                                         \
        case CUSPARSE_FAMILY_COO: host_coo_##SUF(L, x, y); break;                                         \
        case CUSPARSE_FAMILY_SELL: host_sell_##SUF(L, x, y); break;                                       \
        case CUSPARSE_FAMILY_BSR: host_bsr_##SUF(L, x, y); break;                                         \
        }                                                                                                 \
    }

CUSPARSE_HOST_FAMILIES(f64, double, double, double, CUSPARSE_SAME, CUSPARSE_SAME, CUSPARSE_SAME)
CUSPARSE_HOST_FAMILIES(f64s32, float, double, double, CUSPARSE_SAME, CUSPARSE_SAME, CUSPARSE_SAME)
CUSPARSE_HOST_FAMILIES(f32, float, float, float, CUSPARSE_SAME, CUSPARSE_SAME, CUSPARSE_SAME)
CUSPARSE_HOST_FAMILIES(f16, uint16_t, uint16_t, float, CUSPARSE_HALF_IN, CUSPARSE_HALF_IN, CUSPARSE_HALF_OUT)

void cusparse_layout_spmv_f64(const cusparse_layout *L, const double *x, double *y)
{
    if (L->storage == SPMVLAB_F32)
        host_f64s32(L, x, y);
    else
        host_f64(L, x, y);
}

void cusparse_layout_spmv_f32(const cusparse_layout *L, const float *x, float *y) { host_f32(L, x, y); }

void cusparse_layout_spmv_f16(const cusparse_layout *L, const uint16_t *x, uint16_t *y) { host_f16(L, x, y); }
