/*
 * vbr's block finder and conversion (1D-VBL, Pinar and Heath). The row
 * partition joins consecutive rows with the same column pattern; a block
 * row of at least min_height rows, none longer than the long-row threshold,
 * goes to the block part, every other row to the CSR remainder. A kept
 * block row's blocks are the maximal runs of consecutive columns of its
 * pattern (cut at 255 columns): no global column partition, so a stray
 * entry splits only its own block row's run. The block part's values are
 * laid out for the slice kernel: 32 rows a slice, step by step, the rows
 * still running at a step in lane order.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vbr.h"
#include "../common/long_rows.h"

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

/* The blocks of row r's pattern: its runs of consecutive columns, each cut
 * into pieces of at most VBR_MAX_WIDTH. Written to bcol / bwid when given. */
static int32_t row_blocks(const spmvlab_matrix *A, int32_t r, int32_t *bcol, uint8_t *bwid)
{
    int32_t n = 0;
    for (int32_t k = A->row_ptr[r], e = A->row_ptr[r + 1]; k < e;) {
        int32_t w = 1;
        while (k + w < e && w < VBR_MAX_WIDTH && A->col_idx[k + w] == A->col_idx[k] + w)
            w++;
        if (bcol) {
            bcol[n] = A->col_idx[k];
            bwid[n] = (uint8_t)w;
        }
        n++;
        k += w;
    }
    return n;
}

void vbr_count_blocks(const spmvlab_matrix *A, const vbr_opts *o, uint8_t *in_block, vbr_count *c)
{
    memset(c, 0, sizeof *c);
    c->long_row = long_rows_threshold(A->rows, A->nnz);
    for (int32_t r0 = 0, r1; r0 < A->rows; r0 = r1) {
        for (r1 = r0 + 1; r1 < A->rows && same_pattern(A, r1 - 1); r1++)
            ;
        const int32_t h = r1 - r0, len = A->row_ptr[r0 + 1] - A->row_ptr[r0];
        const int keep = h >= o->min_height && len <= c->long_row;
        memset(in_block + r0, keep, (size_t)h);
        if (keep) {
            c->nbr++;
            c->nq += h;
            c->nblocks += row_blocks(A, r0, NULL, NULL);
            c->blocked_nnz += h * len;
        } else {
            c->nr += h;
            c->rem_nnz += h * len;
            c->rem_sq += (double)h * len * len;
            c->rem_max = len > c->rem_max ? len : c->rem_max;
        }
    }
}

/* Stores A's value k as value at of dst, in f's storage type. */
static void put_value(const vbr_fmt *f, void *dst, int64_t at, const spmvlab_matrix *A, int64_t k)
{
    if (f->dtype == SPMVLAB_F32)
        ((float *)dst)[at] = ((const float *)A->val)[k];
    else if (f->store_f32)
        ((float *)dst)[at] = (float)((const double *)A->val)[k];
    else
        ((double *)dst)[at] = ((const double *)A->val)[k];
}

/* qrow, qptr, qblk, bcol, bwid and rrow, rptr, rcol, rval: rows in matrix
 * order, each to its part; a block row's blocks once, at its first row. On
 * the merge path rptr runs over all rows, a block-part row empty. */
static void fill_rows(vbr_fmt *f, const spmvlab_matrix *A, const uint8_t *in_block)
{
    int32_t q = 0, i = 0, nb = 0, kb = 0;
    if (f->qptr)
        f->qptr[0] = 0;
    if (f->rptr)
        f->rptr[0] = 0;
    for (int32_t r = 0; r < A->rows; r++) {
        const int32_t b = A->row_ptr[r], len = A->row_ptr[r + 1] - b, ri = f->rem_merge ? r : i;
        if (in_block[r] && f->rem_merge)
            f->rptr[r + 1] = f->rptr[r];
        if (in_block[r]) {
            if (r == 0 || !in_block[r - 1] || !same_pattern(A, r - 1)) { /* a block row starts */
                kb = nb;
                nb += row_blocks(A, r, f->bcol + nb, f->bwid + nb);
            }
            if (f->qrow)
                f->qrow[q] = r;
            f->qblk[q] = kb;
            f->qptr[q + 1] = f->qptr[q] + len;
            q++;
        } else {
            if (f->rrow)
                f->rrow[i] = r;
            const int32_t at = f->rptr[ri];
            for (int32_t k = 0; k < len; k++) {
                f->rcol[at + k] = A->col_idx[b + k];
                put_value(f, f->rval, (int64_t)at + k, A, (int64_t)b + k);
            }
            f->rptr[ri + 1] = at + len;
            i++;
        }
    }
}

/* bval slice by slice: at step t, the t-th entry of each lane's row whose
 * length exceeds t, in lane order (the kernel's ballot positions). */
static void fill_slices(vbr_fmt *f, const spmvlab_matrix *A)
{
    int64_t pos = 0;
    for (int32_t q0 = 0; q0 < f->nq; q0 += VBR_WARP) {
        const int32_t lanes = f->nq - q0 < VBR_WARP ? f->nq - q0 : VBR_WARP;
        int32_t most = 0;
        for (int32_t l = 0; l < lanes; l++) {
            int32_t len = f->qptr[q0 + l + 1] - f->qptr[q0 + l];
            most = len > most ? len : most;
        }
        for (int32_t t = 0; t < most; t++)
            for (int32_t l = 0; l < lanes; l++) {
                const int32_t q = q0 + l, row = f->qrow ? f->qrow[q] : q;
                if (t >= f->qptr[q + 1] - f->qptr[q])
                    continue;
                if (f->vs.kind == SPMVLAB_STORE_NATIVE)
                    put_value(f, f->bval, pos++, A, (int64_t)A->row_ptr[row] + t);
                else if (f->vs.elem) /* the entry's code; a pattern stores nothing */
                    memcpy((char *)f->bval + (size_t)pos++ * f->vs.elem,
                           (const char *)f->vs.src + (size_t)(A->row_ptr[row] + t) * f->vs.elem, f->vs.elem);
            }
    }
}

spmvlab_status vbr_build(vbr_fmt *f, const spmvlab_matrix *A, const uint8_t *in_block, const vbr_count *c,
                         spmvlab_err *err)
{
    const size_t vs = f->store_f32 || f->dtype == SPMVLAB_F32 ? 4 : 8, i4 = sizeof(int32_t);
    f->nbr = c->nbr;
    f->nq = c->nq;
    f->nblocks = c->nblocks;
    f->blocked_nnz = c->blocked_nnz;
    f->nr = c->nr;
    f->rem_nnz = c->rem_nnz;
    int bad = 0;
    /* one extra byte each so that NULL means failure even for 0 bytes */
    if (f->nq > 0) {
        f->qrow = f->nq < f->rows ? malloc((size_t)f->nq * i4) : NULL;
        f->qptr = malloc(((size_t)f->nq + 1) * i4);
        f->qblk = malloc((size_t)f->nq * i4);
        f->bcol = malloc((size_t)f->nblocks * i4 + 1);
        f->bwid = malloc((size_t)f->nblocks + 1);
        f->bval = malloc((size_t)f->blocked_nnz * (f->vs.kind == SPMVLAB_STORE_NATIVE ? vs : f->vs.elem) + 1);
        bad |= (f->nq < f->rows && !f->qrow) || !f->qptr || !f->qblk || !f->bcol || !f->bwid || !f->bval;
    }
    if (f->nr > 0) {
        const int map = f->nr < f->rows && !f->rem_merge; /* merge: rptr over all rows, no map */
        f->rrow = map ? malloc((size_t)f->nr * i4) : NULL;
        f->rptr = malloc(((size_t)(f->rem_merge ? f->rows : f->nr) + 1) * i4);
        f->rcol = malloc((size_t)f->rem_nnz * i4 + 1);
        f->rval = malloc((size_t)f->rem_nnz * vs + 1);
        bad |= (map && !f->rrow) || !f->rptr || !f->rcol || !f->rval;
    }
    if (bad)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %d vbr blocks and %d remainder rows",
                            f->nblocks, f->nr);
    fill_rows(f, A, in_block);
    fill_slices(f, A);
    return SPMVLAB_OK;
}

double vbr_count_bytes(const vbr_count *c, int32_t rows, double s)
{
    double bytes = 0;
    if (c->nq > 0) /* qrow only when the block part holds some of the rows, not all */
        bytes += (c->nq < rows ? 4.0 * c->nq : 0) + 4.0 * ((double)c->nq + 1) + 4.0 * c->nq + 5.0 * c->nblocks +
                 s * c->blocked_nnz;
    if (c->nr > 0 && c->merge) /* a row pointer of all rows, no map; the pass's scratch */
        bytes += 4.0 * ((double)rows + 1) + (4 + s) * c->rem_nnz + c->scratch;
    else if (c->nr > 0)
        bytes += (c->nr < rows ? 4.0 * c->nr : 0) + 4.0 * ((double)c->nr + 1) + (4 + s) * c->rem_nnz;
    return bytes;
}

double vbr_bytes(const vbr_fmt *f)
{
    const double run = (double)spmvlab_dtype_size(f->dtype);
    vbr_count c = {f->nbr, f->nq, f->nblocks, f->blocked_nnz, f->nr, f->rem_nnz, 0, 0, 0, f->rem_merge, 0};
    if (f->rem_merge)
        c.scratch = (double)merge_scratch_bytes(&f->mdev, (size_t)run);
    const double s = f->store_f32 ? 4 : run, coded = f->vs.kind == SPMVLAB_STORE_NATIVE ? s : (double)f->vs.elem;
    /* codes: the block values' bytes less what they save, plus the table */
    return vbr_count_bytes(&c, f->rows, s) - (s - coded) * f->blocked_nnz + (double)f->vs.table_bytes;
}
