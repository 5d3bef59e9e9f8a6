/*
 * vbr's conversion. The row partition joins consecutive rows with the same
 * column pattern (at most max_height of them); the column partition joins
 * consecutive columns j and j + 1 unless some row holds one of them without
 * the other. A block row's first row then lists its blocks: each run of its
 * entries over one column partition is a dense h x w block. Blocks of at
 * least min_entries entries are kept (values column-major); the entries of
 * the others form the CSR remainder, absent when empty.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vbr.h"

int64_t vbr_f32_unsafe(const spmvlab_matrix *A)
{
    const double *v = A->val;
    for (int64_t k = 0; A->dtype == SPMVLAB_F64 && k < A->nnz; k++) {
        double m = fabs(v[k]);
        if (m > FLT_MAX || (m != 0 && m < FLT_MIN))
            return k;
    }
    return -1;
}

/* 1 when rows i and i + 1 of A hold the same columns. */
static int same_pattern(const spmvlab_matrix *A, int32_t i)
{
    int32_t a = A->row_ptr[i], n = A->row_ptr[i + 1] - a, b = A->row_ptr[i + 1];
    return A->row_ptr[i + 2] - b == n && memcmp(A->col_idx + a, A->col_idx + b, (size_t)n * sizeof(int32_t)) == 0;
}

/* The row partition into f->rpart (rows + 1 entries allocated). */
static void partition_rows(vbr_fmt *f, const spmvlab_matrix *A, int max_h)
{
    int32_t nbr = 0;
    f->rpart[0] = 0;
    for (int32_t i = 1; i < A->rows; i++)
        if (i - f->rpart[nbr] >= max_h || !same_pattern(A, i - 1))
            f->rpart[++nbr] = i;
    f->nbr = A->rows > 0 ? nbr + 1 : 0;
    f->rpart[f->nbr] = A->rows;
    for (int32_t b = 0; b < f->nbr; b++)
        f->max_h = f->rpart[b + 1] - f->rpart[b] > f->max_h ? f->rpart[b + 1] - f->rpart[b] : f->max_h;
}

/* The column partition into f->cpart (cols + 1 allocated) and part_of[col];
 * brk has cols bytes of scratch. */
static void partition_cols(vbr_fmt *f, const spmvlab_matrix *A, uint8_t *brk, int32_t *part_of)
{
    memset(brk, 0, (size_t)A->cols);
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int32_t j = A->col_idx[k];
            if (j + 1 < A->cols && (k + 1 == A->row_ptr[i + 1] || A->col_idx[k + 1] != j + 1))
                brk[j] = 1; /* j without j + 1 */
            if (j > 0 && (k == A->row_ptr[i] || A->col_idx[k - 1] != j - 1))
                brk[j - 1] = 1; /* j without j - 1 */
        }
    int32_t ncp = 0;
    f->cpart[0] = 0;
    for (int32_t j = 0; j < A->cols; j++) {
        if (j > 0 && brk[j - 1])
            f->cpart[++ncp] = j;
        part_of[j] = ncp;
    }
    f->ncp = A->cols > 0 ? ncp + 1 : 0;
    f->cpart[f->ncp] = A->cols;
}

/* Stores A's value k as value at of dst, in f's storage type. */
static void put_value(const vbr_fmt *f, void *dst, int64_t at, const spmvlab_matrix *A, int32_t k)
{
    if (f->dtype == SPMVLAB_F32)
        ((float *)dst)[at] = ((const float *)A->val)[k];
    else if (f->store_f32)
        ((float *)dst)[at] = (float)((const double *)A->val)[k];
    else
        ((double *)dst)[at] = ((const double *)A->val)[k];
}

/* Walks the blocks of every block row: counts them, the block pointers
 * and each row's remainder length into rptr[row + 1] (fill 0), or writes
 * blocks and remainder (fill 1, rptr already summed). */
static void walk_blocks(vbr_fmt *f, const spmvlab_matrix *A, const vbr_opts *o, const int32_t *part_of, int fill)
{
    int32_t nb = 0, nv = 0;
    if (!fill)
        f->rem_nnz = 0;
    for (int32_t b = 0; b < f->nbr; b++) {
        int32_t r0 = f->rpart[b], h = f->rpart[b + 1] - r0, len = A->row_ptr[r0 + 1] - A->row_ptr[r0], rem = 0;
        for (int32_t q = 0; q < len;) {
            int32_t k = A->row_ptr[r0] + q, p = part_of[A->col_idx[k]], w = f->cpart[p + 1] - f->cpart[p];
            if ((int64_t)h * w >= o->min_entries) {
                if (fill) {
                    f->bcol[nb] = p;
                    f->voff[nb] = nv;
                    for (int32_t ii = 0; ii < h; ii++)
                        for (int32_t jj = 0; jj < w; jj++)
                            put_value(f, f->bval, (int64_t)nv + (int64_t)jj * h + ii, A, A->row_ptr[r0 + ii] + q + jj);
                }
                nb++;
                nv += h * w;
            } else if (fill) { /* the same w columns of each of the h rows */
                for (int32_t ii = 0; ii < h; ii++)
                    for (int32_t jj = 0; jj < w; jj++) {
                        int32_t at = f->rptr[r0 + ii] + rem + jj, src = A->row_ptr[r0 + ii] + q + jj;
                        f->rcol[at] = A->col_idx[src];
                        put_value(f, f->rval, at, A, src);
                    }
                rem += w;
            } else {
                rem += w;
            }
            q += w; /* the row holds all w columns of the partition */
        }
        if (!fill) {
            f->bptr[b + 1] = nb;
            for (int32_t ii = 0; ii < h; ii++)
                f->rptr[r0 + ii + 1] = rem;
            f->rem_nnz += rem * h;
        }
    }
    if (fill)
        f->voff[nb] = nv;
    f->nblocks = nb;
    f->blocked_nnz = nv;
}

/* Allocates the arrays sized by the counting walk; returns 0 or -1. */
static int alloc_blocks(vbr_fmt *f)
{
    size_t vs = f->store_f32 || f->dtype == SPMVLAB_F32 ? 4 : 8;
    /* one extra byte each so that NULL means failure even for 0 bytes */
    f->bcol = malloc((size_t)f->nblocks * sizeof *f->bcol + 1);
    f->voff = malloc(((size_t)f->nblocks + 1) * sizeof *f->voff);
    f->bval = malloc((size_t)f->blocked_nnz * vs + 1);
    f->rcol = f->rem_nnz ? malloc((size_t)f->rem_nnz * sizeof *f->rcol) : NULL;
    f->rval = f->rem_nnz ? malloc((size_t)f->rem_nnz * vs) : NULL;
    return f->bcol && f->voff && f->bval && (!f->rem_nnz || (f->rcol && f->rval)) ? 0 : -1;
}

spmvlab_status vbr_build(vbr_fmt *f, const spmvlab_matrix *A, const vbr_opts *o, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    spmvlab_status st = SPMVLAB_OK;
    uint8_t *brk = malloc((size_t)A->cols + 1);
    int32_t *part_of = malloc(((size_t)A->cols + 1) * sizeof *part_of);
    f->rpart = malloc(((size_t)A->rows + 1) * sizeof *f->rpart);
    f->cpart = malloc(((size_t)A->cols + 1) * sizeof *f->cpart);
    f->bptr = malloc(((size_t)A->rows + 1) * sizeof *f->bptr);
    f->rptr = malloc(((size_t)A->rows + 1) * sizeof *f->rptr);
    if (!brk || !part_of || !f->rpart || !f->cpart || !f->bptr || !f->rptr) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the vbr partitions");
        goto done;
    }
    partition_rows(f, A, o->max_height);
    partition_cols(f, A, brk, part_of);
    f->bptr[0] = f->rptr[0] = 0;
    walk_blocks(f, A, o, part_of, 0);
    for (int32_t i = 0; i < A->rows; i++)
        f->rptr[i + 1] += f->rptr[i];
    if (f->rem_nnz == 0) { /* no remainder: no arrays, no pointers */
        free(f->rptr);
        f->rptr = NULL;
    }
    if (alloc_blocks(f)) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d vbr blocks", f->nblocks);
        goto done;
    }
    walk_blocks(f, A, o, part_of, 1);
done:
    free(brk);
    free(part_of);
    return st;
}
