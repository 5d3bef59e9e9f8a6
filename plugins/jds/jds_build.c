/*
 * jds: the rules (long_row, threads_per_row), the stable sort by length,
 * the jagged diagonals of the short rows and the long rows' pieces, built
 * on the host from the CSR input. jds.c uploads the result.
 */
#include <stdlib.h>
#include <string.h>

#include "jds.h"

int32_t jds_rule_long_row(int32_t rows, int32_t nnz)
{
    return long_rows_threshold(rows, nnz);
}

int32_t jds_rule_tpr(double mean_len, int64_t rows, int64_t resident_warps)
{
    return long_rows_tpr(mean_len, rows, resident_warps);
}

/* Stable counting sort of the rows by length, longest first, into f->perm.
 * Returns the longest length, or -1 without memory. */
static int32_t jds_sort_rows(jds_format *f, const int32_t *row_ptr)
{
    int32_t longest = 0;
    for (int32_t i = 0; i < f->rows; i++) {
        int32_t len = row_ptr[i + 1] - row_ptr[i];
        longest = len > longest ? len : longest;
    }
    int32_t *next = calloc((size_t)longest + 2, sizeof *next); /* next slot per length */
    if (!next)
        return -1;
    for (int32_t i = 0; i < f->rows; i++)
        next[row_ptr[i + 1] - row_ptr[i]]++;
    int32_t pos = 0; /* rows longer than len come first */
    for (int32_t len = longest; len >= 0; len--) {
        int32_t n = next[len];
        next[len] = pos;
        pos += n;
    }
    for (int32_t i = 0; i < f->rows; i++)
        f->perm[next[row_ptr[i + 1] - row_ptr[i]]++] = i;
    free(next);
    return longest;
}

/* The short rows (sorted positions nlong ..) as jagged diagonals: entry d
 * of short row r at jd_ptr[d] + r; then the long rows one after another
 * from short_nnz on, with their pieces. */
static void jds_fill(jds_format *f, const spmvlab_matrix *A)
{
    const size_t es = spmvlab_dtype_size(A->dtype);
    const char *src = A->val;
    char *dst = f->val;
    int32_t nshort = f->rows - f->nlong;
    memset(f->jd_ptr, 0, ((size_t)f->diagonals + 1) * sizeof *f->jd_ptr);
    for (int32_t r = 0; r < nshort; r++) {
        int32_t len = A->row_ptr[f->perm[f->nlong + r] + 1] - A->row_ptr[f->perm[f->nlong + r]];
        for (int32_t d = 0; d < len; d++)
            f->jd_ptr[d + 1]++;
    }
    for (int32_t d = 0; d < f->diagonals; d++)
        f->jd_ptr[d + 1] += f->jd_ptr[d];
    for (int32_t r = 0; r < nshort; r++) {
        int32_t row = f->perm[f->nlong + r], b = A->row_ptr[row], len = A->row_ptr[row + 1] - b;
        for (int32_t d = 0; d < len; d++) {
            size_t k = (size_t)f->jd_ptr[d] + (size_t)r;
            f->col[k] = A->col_idx[b + d];
            memcpy(dst + k * es, src + (size_t)(b + d) * es, es);
        }
    }
    int32_t at = f->short_nnz, pieces = 0;
    f->long_ptr[0] = at;
    f->piece_ptr[0] = 0;
    for (int32_t j = 0; j < f->nlong; j++) {
        int32_t b = A->row_ptr[f->perm[j]], len = A->row_ptr[f->perm[j] + 1] - b;
        memcpy(f->col + at, A->col_idx + b, (size_t)len * sizeof *f->col);
        memcpy(dst + (size_t)at * es, src + (size_t)b * es, (size_t)len * es);
        at += len;
        f->long_ptr[j + 1] = at;
        for (int32_t q = 0; q < (len + JDS_PIECE - 1) / JDS_PIECE; q++)
            f->piece_of[pieces++] = j;
        f->piece_ptr[j + 1] = pieces;
        f->multi_piece |= len > JDS_PIECE;
    }
}

spmvlab_status jds_build(jds_format *f, const spmvlab_matrix *A, const jds_opts *o,
                         spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    f->perm = malloc(((size_t)A->rows + 1) * sizeof *f->perm);
    if (!f->perm || jds_sort_rows(f, A->row_ptr) < 0)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory to sort %d rows", A->rows);
    f->long_auto = o->long_row == SPMVLAB_AUTO;
    f->long_threshold = f->long_auto ? jds_rule_long_row(A->rows, A->nnz) : o->long_row;
    int32_t long_nnz = 0;
    int64_t pieces = 0;
    while (f->nlong < A->rows) {
        int32_t row = f->perm[f->nlong], len = A->row_ptr[row + 1] - A->row_ptr[row];
        if (len <= f->long_threshold)
            break;
        long_nnz += len;
        pieces += (len + JDS_PIECE - 1) / JDS_PIECE;
        f->nlong++;
    }
    f->npieces = (int32_t)pieces;
    f->short_nnz = A->nnz - long_nnz;
    f->diagonals = f->nlong < A->rows ? A->row_ptr[f->perm[f->nlong] + 1] - A->row_ptr[f->perm[f->nlong]] : 0;

    const spmvlab_device *dev = ctx->device;
    int64_t warps = dev->present && dev->sm_count > 0
                        ? (int64_t)dev->sm_count * dev->max_threads_per_sm / JDS_WARP
                        : JDS_DEFAULT_WARPS;
    int32_t nshort = A->rows - f->nlong;
    double mean = nshort > 0 ? (double)f->short_nnz / nshort : 0.0;
    f->tpr_auto = o->threads_per_row == SPMVLAB_AUTO;
    f->threads_per_row = f->tpr_auto ? jds_rule_tpr(mean, nshort, warps) : o->threads_per_row;
    if (f->tpr_auto && ((long_rows_uneven_wide(A->rows, A->row_ptr) && /* ../common/long_rows.h */
                         long_rows_waves_fit(nshort, LONG_ROWS_UNEVEN_WAVES, warps)) ||
                        (f->threads_per_row < LONG_ROWS_UNEVEN_TPR &&
                         long_rows_short_chains(f->diagonals, mean, nshort, warps))))
        f->threads_per_row = LONG_ROWS_UNEVEN_TPR;

    const size_t es = spmvlab_dtype_size(A->dtype), n = (size_t)A->nnz;
    f->jd_ptr = malloc(((size_t)f->diagonals + 1) * sizeof *f->jd_ptr);
    f->long_ptr = malloc(((size_t)f->nlong + 1) * sizeof *f->long_ptr);
    f->piece_ptr = malloc(((size_t)f->nlong + 1) * sizeof *f->piece_ptr);
    f->piece_of = malloc(((size_t)f->npieces + 1) * sizeof *f->piece_of);
    f->col = malloc((n ? n : 1) * sizeof *f->col);
    f->val = malloc((n ? n : 1) * es);
    if (!f->jd_ptr || !f->long_ptr || !f->piece_ptr || !f->piece_of || !f->col || !f->val)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d non-zeros", A->nnz);
    jds_fill(f, A);
    return SPMVLAB_OK;
}
