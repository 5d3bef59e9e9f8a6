/*
 * vbr — variable block row (Saad, "SPARSKIT", 1994; the 1D-VBL / VBR
 * family of Pinar and Heath, SC'99) with a CSR remainder.
 *
 * Format: the rows are cut into block rows, runs of consecutive rows with
 * one column pattern (at most max_height), and the columns into column
 * partitions, runs of consecutive columns that every row holds all or none
 * of; both come from the matrix's own structure, so every block (block row
 * x column partition) is dense and stores no zeros. A block of at least
 * min_entries entries is kept: one column-partition index and one value
 * offset per block, its h x w values column-major. The entries of smaller
 * blocks form a CSR remainder (rptr[rows + 1], rcol, rval), absent when
 * empty. Device bytes, s the stored value size (8 f64, 4 f32):
 *   8(nbr + 1) + 4(ncp + 1) + 8 nblocks + 4 + s blocked
 *   [+ 4(rows + 1) + (4 + s) rem]
 * Options: max_height (1..32, default 32), min_entries (1..1024, default
 * 4), values (native|f32: f32 storage of an f64 run, declared to the core).
 * Kernel (vbr.cu): a warp per block row, lane i of each group of h lanes
 * on row i, dense blocks times x slices, the remainder added in the same
 * launch. spmv_host runs the same lanes.
 * Limits: dtypes f64 and f32; values = f32 refuses a value f32 cannot hold
 * (status limit).
 */
#include <stdio.h>
#include <stdlib.h>

#include "vbr.h"

static const spmvlab_option vbr_options[] = {
    SPMVLAB_INT_OPTION(vbr_opts, max_height, "32", 1, VBR_WARP, "most rows of a block row (rows of one column pattern)"),
    SPMVLAB_INT_OPTION(vbr_opts, min_entries, "4", 1, 1024, "keep a dense block with at least this many entries; the rest go to the CSR remainder"),
    SPMVLAB_CHOICE_OPTION(vbr_opts, values, "native", "how the block values are stored"),
    SPMVLAB_CHOICE(values, "native", VBR_VALUES_NATIVE, "in the run's dtype"),
    SPMVLAB_CHOICE(values, "f32", VBR_VALUES_F32, "f32 for an f64 run (declared; computes in f64)"),
    {NULL},
};

/* Frees every host and device array (NULL and half-built formats allowed). */
static void vbr_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(vbr_fmt, f, fmt);
    void *const dev[] = {f->d_rpart, f->d_cpart, f->d_bptr, f->d_bcol, f->d_voff,
                         f->d_bval,  f->d_rptr,  f->d_rcol, f->d_rval};
    void *const host[] = {f->rpart, f->cpart, f->bptr, f->bcol, f->voff, f->bval, f->rptr, f->rcol, f->rval};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* LIMIT naming the first value f32 storage cannot hold, else OK. */
static spmvlab_status vbr_check_f32(spmvlab_ctx *ctx, const spmvlab_matrix *A, spmvlab_err *err)
{
    int64_t k = vbr_f32_unsafe(A);
    if (k < 0)
        return SPMVLAB_OK;
    int32_t r = 0;
    while (A->row_ptr[r + 1] <= k)
        r++;
    double v = ((const double *)A->val)[k];
    return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                     "values = f32 cannot store the value %.17g at row %d, column %d: it %s; use values = native", v,
                     r, A->col_idx[k], v > 1 || v < -1 ? "overflows f32" : "falls below the smallest normal f32");
}

/* Finds the partitions, builds blocks and remainder, uploads them. Returns
 * OK; UNSUPPORTED for f16; LIMIT for values = f32 with a value f32 cannot
 * hold; NOMEM or the core's status when an allocation fails. On failure
 * nothing is kept. */
static spmvlab_status vbr_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    const vbr_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(vbr_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    f->store_f32 = A->dtype == SPMVLAB_F64 && o->values == VBR_VALUES_F32;
    spmvlab_status st = f->store_f32 ? vbr_check_f32(ctx, A, err) : SPMVLAB_OK;
    if (st == SPMVLAB_OK)
        st = vbr_build(f, A, o, err);
    const size_t vs = f->store_f32 ? 4 : spmvlab_dtype_size(f->dtype), i4 = sizeof(int32_t);
    const size_t nbr1 = f->rpart ? (size_t)f->nbr + 1 : 0, ncp1 = f->cpart ? (size_t)f->ncp + 1 : 0;
    const spmvlab_array arrays[] = {
        {(void **)&f->d_rpart, f->rpart, nbr1 * i4},
        {(void **)&f->d_cpart, f->cpart, ncp1 * i4},
        {(void **)&f->d_bptr, f->bptr, nbr1 * i4},
        {(void **)&f->d_bcol, f->bcol, (size_t)f->nblocks * i4},
        {(void **)&f->d_voff, f->voff, f->voff ? ((size_t)f->nblocks + 1) * i4 : 0},
        {&f->d_bval, f->bval, (size_t)f->blocked_nnz * vs},
        {(void **)&f->d_rptr, f->rptr, f->rptr ? ((size_t)f->rows + 1) * i4 : 0},
        {(void **)&f->d_rcol, f->rcol, (size_t)f->rem_nnz * i4},
        {&f->d_rval, f->rval, (size_t)f->rem_nnz * vs},
    };
    if (st == SPMVLAB_OK)
        st = spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err);
    if (st == SPMVLAB_OK && f->store_f32)
        ctx->declare_storage(ctx, SPMVLAB_F32);
    if (st == SPMVLAB_OK)
        ctx->log(ctx, "vbr: %d block rows, %d column partitions, %d blocks, %d remainder entries", f->nbr, f->ncp,
                 f->nblocks, f->rem_nnz);
    return spmvlab_converted(st, f, vbr_destroy, out);
}

/* y = A x on the device in one launch. Returns CUDA_ERROR with the
 * runtime's text when the launch failed. */
SPMVLAB_SPMV_BY_LAUNCHER(vbr, vbr_fmt, f)

SPMVLAB_SPMV_HOST_F64_F32(vbr, vbr_fmt, dtype)

/* Facts for reports: the partitions, blocks, the share of entries they
 * hold, the remainder, the device bytes per non-zero and the storage. */
static void vbr_describe(const void *fmt, char *buf, size_t len)
{
    const vbr_fmt *f = fmt;
    double vs = f->store_f32 ? 4 : (double)spmvlab_dtype_size(f->dtype);
    double bytes = 8.0 * ((double)f->nbr + 1) + 4.0 * ((double)f->ncp + 1) + 8.0 * f->nblocks + 4 +
                   vs * f->blocked_nnz + (f->rptr ? 4.0 * ((double)f->rows + 1) + (4 + vs) * f->rem_nnz : 0);
    snprintf(buf, len,
             "block_rows=%d col_parts=%d blocks=%d blocked=%.3f rem_nnz=%d max_height=%d bytes_per_nnz=%.2f "
             "values=%s",
             f->nbr, f->ncp, f->nblocks, f->nnz > 0 ? (double)f->blocked_nnz / f->nnz : 0.0, f->rem_nnz, f->max_h,
             f->nnz > 0 ? bytes / f->nnz : 0.0, f->store_f32 ? "f32" : "native");
}

SPMVLAB_PLUGIN_DEFINE(vbr, "1.0.0", SPMVLAB_DTYPES_F64_F32,
                      "variable block row: dense blocks from the matrix's row and column partitions, CSR remainder",
                      "Y. Saad, SPARSKIT: a basic tool kit for sparse matrix computations, 1994 (VBR); A. Pinar, "
                      "M. T. Heath, Improving performance of sparse matrix-vector multiplication, SC'99");
