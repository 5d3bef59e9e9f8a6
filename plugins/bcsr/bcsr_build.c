/*
 * bcsr's conversion for a chosen shape: two passes over the block rows of
 * the CSR input. The first classifies each aligned r x c block (kept when
 * r*c <= max_fill * its entries) and counts kept blocks per block row and
 * remainder entries per row; the second places values, row-major within a
 * block and blocks in ascending column order within a block row, and
 * copies the left-over entries into the CSR remainder.
 */
#include <stdlib.h>
#include <string.h>

#include "bcsr.h"

#define BCSR_KEPT (-1)  /* count[] marker: the block is kept */
#define BCSR_LEFT (-2)  /* count[] marker: its entries go to the remainder */

static int cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Collects the block columns block row br touches into touched (count[]
 * holds their entry counts) and marks each kept or left. Returns how many. */
static int32_t classify(const spmvlab_matrix *A, const bcsr_fmt *f, int32_t br, int32_t *count,
                        int32_t *touched)
{
    int32_t nt = 0, lo = br * f->r, hi = lo + f->r < A->rows ? lo + f->r : A->rows;
    for (int32_t k = A->row_ptr[lo]; k < A->row_ptr[hi]; k++) {
        int32_t bc = bcsr_div(A->col_idx[k], f->c);
        if (count[bc]++ == 0)
            touched[nt++] = bc;
    }
    for (int32_t t = 0; t < nt; t++) {
        int32_t n = count[touched[t]];
        count[touched[t]] = (double)(f->r * f->c) <= f->max_fill * (double)n ? BCSR_KEPT : BCSR_LEFT;
    }
    return nt;
}

/* The first pass: block pointers, remainder row lengths (into rptr). */
static void count_pass(bcsr_fmt *f, const spmvlab_matrix *A, int32_t *count, int32_t *touched)
{
    f->bptr[0] = 0;
    f->rptr[0] = 0;
    int32_t blocks = 0;
    for (int32_t br = 0; br < f->nbr; br++) {
        int32_t nt = classify(A, f, br, count, touched);
        for (int32_t t = 0; t < nt; t++)
            blocks += count[touched[t]] == BCSR_KEPT;
        int32_t lo = br * f->r, hi = lo + f->r < A->rows ? lo + f->r : A->rows;
        for (int32_t i = lo; i < hi; i++) {
            int32_t left = 0;
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
                left += count[bcsr_div(A->col_idx[k], f->c)] == BCSR_LEFT;
            f->rptr[i + 1] = f->rptr[i] + left;
        }
        for (int32_t t = 0; t < nt; t++)
            count[touched[t]] = 0;
        f->bptr[br + 1] = blocks;
    }
    f->nblocks = blocks;
    f->rem_nnz = f->rptr[A->rows];
}

/* The second pass: block columns and values, remainder entries. */
static void fill_pass(bcsr_fmt *f, const spmvlab_matrix *A, int32_t *count, int32_t *touched,
                      int32_t *slot)
{
    const size_t vs = f->vs.elem, rc = (size_t)f->r * (size_t)f->c; /* values or codes: the same copy */
    const char *src = f->vs.src;
    char *bval = f->bval, *rval = f->rval;
    for (int32_t br = 0; br < f->nbr; br++) {
        int32_t nt = classify(A, f, br, count, touched);
        qsort(touched, (size_t)nt, sizeof *touched, cmp_int32);
        int32_t b = f->bptr[br];
        for (int32_t t = 0; t < nt; t++) {
            int32_t bc = touched[t];
            if (count[bc] != BCSR_KEPT)
                continue;
            /* The last block column may stick out of the matrix: shift it
             * left so every x it reads exists (convert ensures cols >= c). */
            int32_t col0 = bc * f->c;
            f->bcol[b] = col0 + f->c > A->cols ? A->cols - f->c : col0;
            slot[bc] = b++;
        }
        int32_t lo = br * f->r, hi = lo + f->r < A->rows ? lo + f->r : A->rows;
        for (int32_t i = lo; i < hi; i++) {
            int32_t q = f->rptr ? f->rptr[i] : 0;
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                int32_t col = A->col_idx[k], bc = bcsr_div(col, f->c);
                if (count[bc] == BCSR_KEPT) {
                    int32_t s = slot[bc];
                    size_t at = (size_t)s * rc + (size_t)(i - lo) * (size_t)f->c + (size_t)(col - f->bcol[s]);
                    if (vs)
                        memcpy(bval + at * vs, src + (size_t)k * vs, vs);
                } else {
                    f->rcol[q] = col;
                    if (vs)
                        memcpy(rval + (size_t)q * vs, src + (size_t)k * vs, vs);
                    q++;
                }
            }
        }
        for (int32_t t = 0; t < nt; t++)
            count[touched[t]] = 0;
    }
}

spmvlab_status bcsr_build(bcsr_fmt *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    const size_t rc = (size_t)f->r * (size_t)f->c;
    size_t ncb = (size_t)(A->cols / f->c) + 2;
    f->nbr = (A->rows + f->r - 1) / f->r;
    int32_t *count = calloc(ncb, sizeof *count), *touched = malloc(ncb * sizeof *touched),
            *slot = malloc(ncb * sizeof *slot);
    f->bptr = malloc(((size_t)f->nbr + 1) * sizeof *f->bptr);
    f->rptr = malloc(((size_t)A->rows + 1) * sizeof *f->rptr);
    spmvlab_status st = SPMVLAB_OK;
    if (!count || !touched || !slot || !f->bptr || !f->rptr) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the bcsr block rows");
        goto done;
    }
    count_pass(f, A, count, touched);
    /* block padding is code 0, +0.0; one pattern value only for full blocks */
    int64_t pads = (int64_t)f->nblocks * (int64_t)rc - ((int64_t)A->nnz - f->rem_nnz);
    st = spmvlab_value_store_choose(ctx, A, f->values_mode, pads == 0, pads, &f->vs, err);
    if (st != SPMVLAB_OK)
        goto done;
    /* auto: whole bytes (4 bits ran the corpus's few-valued bands 0.95-1.05
     * of them, README.md); 4-bit codes are placed a byte each, then packed
     * by bcsr_convert */
    st = spmvlab_value_store_code_bits(ctx, &f->vs, f->code_bits, 0, err);
    if (st != SPMVLAB_OK)
        goto done;
    const size_t vs = f->vs.elem;
    if (f->rem_nnz == 0) { /* no remainder: no arrays, no pointers */
        free(f->rptr);
        f->rptr = NULL;
    }
    /* one extra byte each so that NULL means failure even for 0 bytes */
    f->bcol = malloc((size_t)f->nblocks * sizeof *f->bcol + 1);
    f->bval = calloc((size_t)f->nblocks * rc * vs + 1, 1); /* padding: all-zero bits, +0.0 or code 0 */
    f->rcol = f->rem_nnz ? malloc((size_t)f->rem_nnz * sizeof *f->rcol) : NULL;
    f->rval = f->rem_nnz ? malloc((size_t)f->rem_nnz * vs + 1) : NULL;
    if (!f->bcol || !f->bval || (f->rem_nnz && (!f->rcol || !f->rval))) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d bcsr blocks of %dx%d",
                       f->nblocks, f->r, f->c);
        goto done;
    }
    fill_pass(f, A, count, touched, slot);
done:
    free(count);
    free(touched);
    free(slot);
    return st;
}
