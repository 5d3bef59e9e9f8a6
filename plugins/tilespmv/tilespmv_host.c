/*
 * tilespmv on the CPU: the kernel of tilespmv.cu run lane by lane from the
 * format's arrays — half-warp h takes tiles h, h + 2, ... of a tile row,
 * lane i of it row i of each tile, with the kernel's per-kind loops and
 * fused multiply-adds, and the halves added at the end — so the CPU checks
 * every tile layout the GPU relies on.
 */
#include <math.h>

#include "tilespmv.h"

#define TILESPMV_HOST(T, FMA, SUFFIX)                                                               \
    /* Row i's share of tile g: the kernel's loop for the tile's kind. */                          \
    static T tile_row_sum_##SUFFIX(const tilespmv_fmt *f, int32_t g, int i, const T *x, T acc)     \
    {                                                                                              \
        const T *v = (const T *)f->val + f->voff[g];                                               \
        const uint8_t *ix = f->idx + f->ioff[g];                                                   \
        const int32_t c0 = f->tcol[g] * TILE;                                        \
        int32_t n = f->voff[g + 1] - f->voff[g];                                                   \
        const int p = f->param[g], ncol = f->cols - c0 < TILE ? f->cols - c0 : TILE;               \
        const T *xt = x + c0;                                                                      \
        switch (f->kind[g]) {                                                                      \
        case TILE_CSR:                                                                             \
            for (int k = ix[i], e = i < TILE - 1 ? ix[i + 1] : n; k < e; k++)                      \
                acc = FMA(v[k], xt[ix[TILE + k]], acc);                                            \
            break;                                                                                 \
        case TILE_HYB:                                                                             \
        case TILE_ELL:                                                                             \
            for (int k = 0; k < p; k++)                                                            \
                acc = FMA(v[k * TILE + i], xt[ix[k * TILE + i]], acc);                             \
            if (f->kind[g] == TILE_ELL)                                                            \
                break;                                                                             \
            v += TILE * p, ix += TILE * p, n -= TILE * p; /* the HYB tail: COO */                  \
            for (int k = 0; k < n; k++)                                                            \
                if (ix[k] >> 4 == i)                                                               \
                    acc = FMA(v[k], xt[ix[k] & 15], acc);                                          \
            break;                                                                                 \
        case TILE_COO:                                                                             \
            for (int k = 0; k < n; k++)                                                            \
                if (ix[k] >> 4 == i)                                                               \
                    acc = FMA(v[k], xt[ix[k] & 15], acc);                                          \
            break;                                                                                 \
        case TILE_DENSE:                                                                           \
            for (int j = 0; j < ncol; j++)                                                         \
                acc = FMA(v[j * TILE + i], xt[j], acc);                                            \
            break;                                                                                 \
        case TILE_DNSROW:                                                                          \
            for (int k = 0; k < p; k++)                                                            \
                if (ix[k] == i)                                                                    \
                    for (int j = 0; j < ncol; j++)                                                 \
                        acc = FMA(v[k * TILE + j], xt[j], acc);                                    \
            break;                                                                                 \
        default: /* TILE_DNSCOL */                                                                 \
            for (int k = 0; k < p; k++)                                                            \
                acc = FMA(v[k * TILE + i], xt[ix[k]], acc);                                        \
        }                                                                                          \
        return acc;                                                                                \
    }                                                                                              \
    void tilespmv_host_##SUFFIX(const tilespmv_fmt *f, const T *x, T *y)                           \
    {                                                                                              \
        for (int32_t tr = 0; tr < f->tile_rows; tr++)                                              \
            for (int i = 0; i < TILE && tr * TILE + i < f->rows; i++) {                            \
                T half[2] = {0, 0};                                                                \
                for (int h = 0; h < 2; h++)                                                        \
                    for (int32_t g = f->tptr[tr] + h; g < f->tptr[tr + 1]; g += 2)                 \
                        half[h] = tile_row_sum_##SUFFIX(f, g, i, x, half[h]);                      \
                y[tr * TILE + i] = half[0] + half[1];                                              \
            }                                                                                      \
    }

TILESPMV_HOST(double, fma, f64)
TILESPMV_HOST(float, fmaf, f32)
