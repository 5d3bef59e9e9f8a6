/*
 * DASP balanced path, host side: the row-length rule that picks it and its
 * conversion. The path runs every row as CSR on the CUDA cores, in equal
 * pieces of work, one warp each: by merge path over the rows + nnz items
 * (bal_kernel = merge, dasp_balanced.cu) or by non-zeros in tiles of
 * 32 stream_k (bal_kernel = stream, dasp_stream.cu). The conversion
 * finds, for every warp, the coordinate (row, non-zero) it starts at and
 * the crossing rows (rows spanning warps) it leaves pieces of; the stream
 * kernel's values and columns are stored tile by tile in its lanes' load
 * order, with each lane's first row. Linear in rows + nnz, plus one binary
 * search per warp (merge) or per lane (stream).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dasp_format.h"

double dasp_row_cv(const spmvlab_matrix *A)
{
    if (A->rows == 0 || A->nnz == 0)
        return 0.0;
    /* sum L^2 exactly in 64 bits would overflow for rows of 2^31 entries:
     * doubles keep 53 bits, far more than the rule's two digits need. */
    double sq = 0.0;
    for (int32_t i = 0; i < A->rows; i++) {
        double len = (double)(A->row_ptr[i + 1] - A->row_ptr[i]);
        sq += len * len;
    }
    double mean = (double)A->nnz / A->rows, var = sq / A->rows - mean * mean;
    return var > 0.0 ? sqrt(var) / mean : 0.0;
}

/* The share of A's rows without entries (0 for a matrix without rows). */
static double empty_row_share(const spmvlab_matrix *A)
{
    int64_t empty = 0;
    for (int32_t i = 0; i < A->rows; i++)
        empty += A->row_ptr[i + 1] == A->row_ptr[i];
    return A->rows > 0 ? (double)empty / A->rows : 0.0;
}

/* balance = auto's rule (dasp_format.h): uneven rows go balanced, unless
 * most rows are empty or a large matrix's unevenness is a few huge rows. */
int dasp_balance_rule(const spmvlab_matrix *A)
{
    if (A->nnz == 0)
        return 0;
    double cv = dasp_row_cv(A);
    if (cv < DASP_AUTO_BALANCE_CV || empty_row_share(A) >= DASP_CLASSES_EMPTY_SHARE)
        return 0;
    return !(A->nnz >= DASP_CLASSES_SKEW_NNZ && cv >= DASP_CLASSES_SKEW_CV);
}

/* Allocates the host copy of array id, n elements of es bytes set to fill. */
static int bal_make(dasp_format *f, int id, size_t n, size_t es, int fill)
{
    f->a[id].bytes = n * es;
    f->a[id].host = malloc(n * es > 0 ? n * es : 1);
    if (!f->a[id].host)
        return -1;
    memset(f->a[id].host, fill, n * es);
    return 0;
}

/* The merge coordinate on diagonal d of A's merge path (row ends against
 * non-zero indices, a row end first on ties): *row rows closed, *nz
 * non-zeros taken, *row + *nz = d. */
static void bal_search(const spmvlab_matrix *A, int64_t d, int32_t *row, int32_t *nz)
{
    int64_t lo = d - A->nnz > 0 ? d - A->nnz : 0, hi = d < A->rows ? d : A->rows;
    while (lo < hi) {
        int64_t p = (lo + hi) / 2;
        if (A->row_ptr[p + 1] <= d - p - 1)
            lo = p + 1;
        else
            hi = p;
    }
    *row = (int32_t)lo;
    *nz = (int32_t)(d - lo);
}

/* The first row of non-zero n: the rows ending at or before n are closed
 * (upper bound of n among the row ends). */
static int32_t bal_row_of(const spmvlab_matrix *A, int64_t n)
{
    int64_t lo = 0, hi = A->rows;
    while (lo < hi) {
        int64_t p = (lo + hi) / 2;
        if (A->row_ptr[p + 1] <= n)
            lo = p + 1;
        else
            hi = p;
    }
    return (int32_t)lo;
}

/* bal_kernel = stream: warp w takes non-zeros [w S, (w + 1) S) from row
 * row_of(w S) (warp 0 from row 0, so leading empty rows are closed); each
 * lane's first row is stored, and the values and columns go tile by tile
 * in the lanes' 16-byte-chunk order (padding: value 0, column -1). */
static int str_fill(dasp_format *f, const spmvlab_matrix *A, int64_t warps, int32_t *wr, int32_t *wn)
{
    const int K = f->str_k, S = 32 * K;
    const size_t es = spmvlab_dtype_size(A->dtype), n = (size_t)warps * S;
    if (bal_make(f, DASP_A_BAL_COL, n, 4, 0xff) || bal_make(f, DASP_A_BAL_VAL, n, es, 0) ||
        bal_make(f, DASP_A_BAL_LANE_ROW, (size_t)warps * 32, 4, 0))
        return -1;
    int32_t *lr = f->a[DASP_A_BAL_LANE_ROW].host, *col = f->a[DASP_A_BAL_COL].host;
    char *val = f->a[DASP_A_BAL_VAL].host;
    for (int64_t w = 0; w <= warps; w++) {
        wn[w] = (int32_t)(w * S < A->nnz ? w * S : A->nnz);
        wr[w] = w == 0 ? 0 : bal_row_of(A, wn[w]);
        for (int l = 0; w < warps && l < 32; l++) {
            int64_t a = w * S + (int64_t)l * K;
            lr[32 * w + l] = w == 0 && l == 0 ? 0 : bal_row_of(A, a < A->nnz ? a : A->nnz);
        }
    }
    for (int64_t j = 0; j < A->nnz; j++) {
        int64_t w = j / S;
        int o = (int)(j % S), l = o / K, k = o % K;
        col[w * S + dasp_str_index(l, k, 4)] = A->col_idx[j];
        memcpy(val + (size_t)(w * S + dasp_str_index(l, k, (int)es)) * es, (const char *)A->val + j * es,
               es);
    }
    return 0;
}

spmvlab_status dasp_bal_build(dasp_format *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    const int64_t total = (int64_t)A->rows + A->nnz;
    int64_t warps = (total + DASP_BAL_ITEMS - 1) / DASP_BAL_ITEMS;
    if (f->bal_stream) /* at least one warp while there are rows: it closes the empty ones */
        warps = A->rows == 0 ? 0 : A->nnz == 0 ? 1 : (A->nnz + 32 * f->str_k - 1) / (32 * f->str_k);
    const size_t es = spmvlab_dtype_size(A->dtype), ps = A->dtype == SPMVLAB_F64 ? 8 : 4;
    if (warps > INT32_MAX / 64)
        return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT, "%lld balanced-path warps exceed the 32-bit limit",
                            (long long)warps);
    if (bal_make(f, DASP_A_BAL_ROW_PTR, (size_t)A->rows + 1, 4, 0) ||
        bal_make(f, DASP_A_BAL_W_ROW, (size_t)warps + 1, 4, 0) ||
        bal_make(f, DASP_A_BAL_W_NZ, (size_t)warps + 1, 4, 0) ||
        bal_make(f, DASP_A_BAL_W_CROSS, 2 * (size_t)warps, 4, 0xff) ||
        bal_make(f, DASP_A_BAL_TAIL, (size_t)warps, ps, 0) ||
        (!f->bal_stream && (bal_make(f, DASP_A_BAL_COL, (size_t)A->nnz, 4, 0) ||
                            bal_make(f, DASP_A_BAL_VAL, (size_t)A->nnz, es, 0))))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the balanced path of %lld warps",
                            (long long)warps);
    memcpy(f->a[DASP_A_BAL_ROW_PTR].host, A->row_ptr, ((size_t)A->rows + 1) * 4);
    int32_t *wr = f->a[DASP_A_BAL_W_ROW].host, *wn = f->a[DASP_A_BAL_W_NZ].host, *wc = f->a[DASP_A_BAL_W_CROSS].host;
    if (f->bal_stream) {
        if (str_fill(f, A, warps, wr, wn))
            return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld stream tiles",
                                (long long)warps);
    } else {
        memcpy(f->a[DASP_A_BAL_COL].host, A->col_idx, (size_t)A->nnz * 4);
        memcpy(f->a[DASP_A_BAL_VAL].host, A->val, (size_t)A->nnz * es);
        for (int64_t w = 0; w <= warps; w++)
            bal_search(A, w * DASP_BAL_ITEMS < total ? w * DASP_BAL_ITEMS : total, &wr[w], &wn[w]);
    }
    /* Warp w leaves a tail piece of row wr[w + 1] when it took some of that
     * row's entries (wn[w + 1] past the row's start); consecutive tails of
     * one row belong to one crossing row, closed by the first warp after
     * them (its head piece: the entries it adds before the row's end). */
    int64_t nx = 0;
    for (int64_t w = 0; w < warps; w++) {
        int32_t r1 = wr[w + 1];
        if (r1 < A->rows && wn[w + 1] > A->row_ptr[r1])
            wc[2 * w] = w > 0 && wc[2 * w - 2] >= 0 && wr[w] == r1 ? wc[2 * w - 2] : (int32_t)nx++;
        if (w > 0 && wc[2 * w - 2] >= 0 && wr[w] < wr[w + 1])
            wc[2 * w + 1] = wc[2 * w - 2];
    }
    f->bal_warps = warps;
    f->bal_cross = nx;
    if (bal_make(f, DASP_A_BAL_X_ROW, (size_t)nx, 4, 0) || bal_make(f, DASP_A_BAL_X_W0, (size_t)nx, 4, 0) ||
        bal_make(f, DASP_A_BAL_X_W1, (size_t)nx, 4, 0) || bal_make(f, DASP_A_BAL_HEAD, (size_t)nx, ps, 0) ||
        bal_make(f, DASP_A_BAL_COUNT, (size_t)nx, 4, 0))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld crossing rows", (long long)nx);
    int32_t *xr = f->a[DASP_A_BAL_X_ROW].host, *x0 = f->a[DASP_A_BAL_X_W0].host, *x1 = f->a[DASP_A_BAL_X_W1].host;
    for (int64_t w = warps; w-- > 0;) { /* backwards: x0 ends at the first tail of each */
        if (wc[2 * w] >= 0) {
            xr[wc[2 * w]] = wr[w + 1];
            x0[wc[2 * w]] = (int32_t)w;
        }
        if (wc[2 * w + 1] >= 0)
            x1[wc[2 * w + 1]] = (int32_t)w;
    }
    return SPMVLAB_OK;
}
