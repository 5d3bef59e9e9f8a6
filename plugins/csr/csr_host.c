/*
 * csr on the CPU: each kernel's decomposition and summation order, so that
 * f32 results follow the device's rounding (products rounded where the
 * device stages them, fma where it fuses).
 */
#include <math.h>
#include <string.h>

#include "csr_format.h"

/* Entry k's value as a T: the value, its code's table entry or the pattern. */
#define CSR_VAL(T, k) SPMVLAB_VALUE_HOST(T, &f->vs, f->val, k)

/* A 32-lane shuffle-down tree on the host: lane l adds lane l + s for
 * s = w/2, ..., 1; lane 0 holds the sum. */
#define CSR_TREE(lane, w)                                                                 \
    for (int s_ = (w) / 2; s_ > 0; s_ /= 2)                                               \
        for (int l_ = 0; l_ < s_; l_++)                                                   \
            (lane)[l_] += (lane)[l_ + s_];

#define CSR_DEFINE_HOST(T, FMA, SUFFIX)                                                   \
    /* scalar (w = 1) and vector: lane l adds entries l, l+w, ...; tree */                \
    static void csr_lanes_##SUFFIX(const csr_format *f, const T *x, T *y)                 \
    {                                                                                     \
        const int w = f->width;                                                           \
        for (int32_t i = 0; i < f->rows; i++) {                                           \
            T lane[32] = {0};                                                             \
            for (int l = 0; l < w; l++)                                                   \
                for (int32_t k = f->row_ptr[i] + l; k < f->row_ptr[i + 1]; k += w)        \
                    lane[l] = FMA(CSR_VAL(T, k), x[f->col_idx[k]], lane[l]);                     \
            CSR_TREE(lane, w)                                                             \
            y[i] = lane[0];                                                               \
        }                                                                                 \
    }                                                                                     \
                                                                                          \
    /* adaptive row blocks: staged products, g lanes per row, tree */                     \
    static void csr_blocks_##SUFFIX(const csr_format *f, const T *x, T *y)                \
    {                                                                                     \
        T prod[CSR_AD_CAP];                                                               \
        for (int32_t b = 0; b < f->plan.blocks; b++) {                                    \
            const int32_t first = f->plan.blk_row[b];                                     \
            int32_t rows = f->plan.blk_row[b + 1] - first;                                \
            while (rows > 0 && f->row_ptr[first + rows] - f->row_ptr[first + rows - 1] > CSR_AD_LONG) \
                rows--; /* trailing long rows: their pieces */                            \
            const int32_t base = f->row_ptr[first], n = f->row_ptr[first + rows] - base;  \
            if (rows == 0)                                                                \
                continue;                                                                 \
            for (int32_t k = 0; k < n; k++)                                               \
                prod[k] = CSR_VAL(T, base + k) * x[f->col_idx[base + k]];                        \
            int g = 1;                                                                    \
            while (g < 32 && 2 * g * rows <= CSR_AD_BLOCK)                                \
                g *= 2;                                                                   \
            for (int32_t r = 0; r < rows; r++) {                                          \
                T lane[32] = {0};                                                         \
                const int32_t s = f->row_ptr[first + r] - base;                           \
                const int32_t e = f->row_ptr[first + r + 1] - base;                       \
                for (int l = 0; l < g; l++)                                               \
                    for (int32_t k = s + l; k < e; k += g)                                \
                        lane[l] += prod[k];                                               \
                CSR_TREE(lane, g)                                                         \
                y[first + r] = lane[0];                                                   \
            }                                                                             \
        }                                                                                 \
    }                                                                                     \
                                                                                          \
    /* adaptive long rows: per piece, thread sums, warp trees, (0+2)+(1+3);             \
     * a row of several pieces adds their sums in the last block's warp order */          \
    static void csr_pieces_##SUFFIX(const csr_format *f, const T *x, T *y)                \
    {                                                                                     \
        for (int32_t p0 = 0; p0 < f->plan.pieces;) {                                      \
            const int32_t row = f->plan.piece_row[p0];                                    \
            const int32_t rs = f->row_ptr[row], re = f->row_ptr[row + 1];                 \
            const int32_t np = (re - rs + CSR_AD_PIECE - 1) / CSR_AD_PIECE;               \
            T lane[32] = {0};                                                             \
            for (int32_t j = 0; j < np; j++) {                                            \
                const int32_t beg = rs + j * CSR_AD_PIECE;                                \
                const int32_t end = re - beg < CSR_AD_PIECE ? re : beg + CSR_AD_PIECE;    \
                T t[CSR_AD_BLOCK] = {0}, ws[CSR_AD_BLOCK / 32];                           \
                for (int tid = 0; tid < CSR_AD_BLOCK; tid++)                              \
                    for (int32_t k = beg + tid; k < end; k += CSR_AD_BLOCK)               \
                        t[tid] = FMA(CSR_VAL(T, k), x[f->col_idx[k]], t[tid]);                   \
                for (int w = 0; w < CSR_AD_BLOCK / 32; w++) {                             \
                    CSR_TREE(t + 32 * w, 32)                                              \
                    ws[w] = t[32 * w];                                                    \
                }                                                                         \
                const T total = (ws[0] + ws[2]) + (ws[1] + ws[3]);                        \
                if (np == 1)                                                              \
                    y[row] = total;                                                       \
                else                                                                      \
                    lane[j % 32] += total;                                                \
            }                                                                             \
            if (np > 1) {                                                                 \
                CSR_TREE(lane, 32)                                                        \
                y[row] = lane[0];                                                         \
            }                                                                             \
            p0 += np;                                                                     \
        }                                                                                 \
    }                                                                                     \
                                                                                          \
    void csr_host_##SUFFIX(const csr_format *f, const T *x, T *y)                         \
    {                                                                                     \
        if (f->kernel != CSR_ADAPTIVE) {                                                  \
            csr_lanes_##SUFFIX(f, x, y);                                                  \
            return;                                                                       \
        }                                                                                 \
        csr_blocks_##SUFFIX(f, x, y);                                                     \
        csr_pieces_##SUFFIX(f, x, y);                                                     \
    }

CSR_DEFINE_HOST(double, fma, f64)
CSR_DEFINE_HOST(float, fmaf, f32)
