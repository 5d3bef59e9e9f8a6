/*
 * tilespmv on the CPU: the kernel of tilespmv.cu run chunk by chunk and
 * lane by lane from the format's arrays — half-warp h takes tiles h, h + 2,
 * ... of a chunk, lane i of it row i of each tile, with the kernel's
 * per-kind loops and fused multiply-adds, and the halves added at the end;
 * a WHOLE chunk's deferred rows by `lanes` lanes and a butterfly; split
 * tile rows zeroed, then their chunks added in the plan's order (one order
 * the GPU's atomics may take) — so the CPU checks every tile layout and the
 * plan the GPU relies on. On the merge path the deferred part is first
 * replayed in the merge-path kernels' decomposition (MERGE_PATH_HOST,
 * ../common/merge_path.h) into every row of y, nothing is zeroed, and
 * WHOLE chunks add their tiles as PIECE chunks do.
 */
#include <math.h>

#include "../common/lane_tree.h"
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
    LANE_TREE_HOST(tree_##SUFFIX, T)                                                               \
    /* Deferred entries [b, e) summed by n lanes, lane l taking b + l, b + l + n, ... */            \
    static T deferred_sum_##SUFFIX(const tilespmv_fmt *f, int32_t b, int32_t e, int n, const T *x) \
    {                                                                                              \
        T lane[TILE_WARP];                                                                         \
        const T *dval = (const T *)f->dval;                                                        \
        for (int l = 0; l < n; l++) {                                                              \
            lane[l] = 0;                                                                           \
            for (int32_t k = b + l; k < e; k += n)                                                 \
                lane[l] = FMA(dval[k], x[f->dcol[k]], lane[l]);                                    \
        }                                                                                          \
        return tree_##SUFFIX(lane, n);                                                             \
    }                                                                                              \
    MERGE_PATH_HOST(merge_replay_##SUFFIX, T)                                                      \
    void tilespmv_host_##SUFFIX(const tilespmv_fmt *f, const T *x, T *y)                           \
    {                                                                                              \
        const int merge = f->path == TILESPMV_DEFER_MERGE;                                         \
        if (merge)                                                                                 \
            merge_replay_##SUFFIX(&f->mdev, f->dptr, f->dcol, (const T *)f->dval, f->s_end, x, y); \
        for (int32_t s = 0; !merge && s < f->nsplit; s++)                                          \
            for (int32_t r = f->split[s] * TILE; r < f->split[s] * TILE + TILE && r < f->rows; r++) \
                y[r] = 0;                                                                          \
        for (int32_t c = 0; c < f->nchunks; c++) {                                                 \
            const int32_t *ch = f->chunk + CHUNK_INTS * c;                                         \
            if (ch[0] == CHUNK_DEFERRED) {                                                         \
                y[ch[1]] += deferred_sum_##SUFFIX(f, ch[2], ch[3], TILE_WARP, x);                  \
                continue;                                                                          \
            }                                                                                      \
            for (int i = 0; i < TILE && ch[1] * TILE + i < f->rows; i++) {                         \
                const int32_t row = ch[1] * TILE + i;                                              \
                T half[2] = {0, 0};                                                                \
                for (int h = 0; h < 2; h++)                                                        \
                    for (int32_t g = ch[2] + h; g < ch[3]; g += 2)                                 \
                        half[h] = tile_row_sum_##SUFFIX(f, g, i, x, half[h]);                      \
                if (ch[0] == CHUNK_PIECE || merge) {                                               \
                    y[row] += half[0] + half[1];                                                   \
                    continue;                                                                      \
                }                                                                                  \
                T d = f->ndef > 0 ? deferred_sum_##SUFFIX(f, f->dptr[row], f->dptr[row + 1], f->lanes, x) \
                                  : (T)0;                                                          \
                y[row] = (half[0] + half[1]) + d;                                                  \
            }                                                                                      \
        }                                                                                          \
    }

TILESPMV_HOST(double, fma, f64)
TILESPMV_HOST(float, fmaf, f32)
