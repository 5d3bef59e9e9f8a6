/*
 * bcsr — blocked CSR with a CSR remainder (Im, Yelick, Vuduc, "SPARSITY:
 * Optimization framework for sparse matrix kernels", IJHPCA 18(1), 2004;
 * the fill estimate of Vuduc, Demmel, Yelick, "OSKI", SciDAC 2005).
 *
 * Format: the matrix is cut into r x c blocks aligned to multiples of r and
 * c (r, c in 1..8). A block is kept when its r*c stored values are at most
 * max_fill times its real entries; its zeros are stored as padding. Kept
 * blocks: bptr[nbr + 1] (first block of each block row), bcol[nblocks] (one
 * 32-bit first column per block), bval[nblocks * r * c] (row-major within a
 * block, the blocks of a block row contiguous in column order). Entries of
 * the other blocks form a CSR remainder (rptr[rows + 1], rcol, rval), absent
 * when empty, so a few stray entries never cost a refusal.
 * Device bytes: 4(nbr + 1) + nblocks(4 + r c e) [+ 4(rows + 1) + (4 + e) rem]
 * + s table, s = 8 (f64) or 4 (f32), e = s for native values, 1 or 2 for
 * codes into the value table (values = indexed), 0 for a pattern: 8 + 4/(r c)
 * bytes per non-zero on full blocks with native f64 values.
 *
 * Options: r, c (auto or 1..8), max_fill (1..64, default 1.5), min_saving
 * (0..0.9, default 0.1), kernel (auto|warp|slice), x_share (bool, 0),
 * x_window (bool, 0: stage each thread block's x in shared memory), values
 * and code_bits. With auto, the shape with the fewest device bytes
 * is chosen (bcsr_shape.c); when it saves less than min_saving of plain
 * CSR's bytes (1x1 saves nothing), the matrix has no usable blocks and
 * convert refuses with SPMVLAB_LIMIT and the measured numbers of the best
 * blocked shape: a warp per block row walking mostly remainder entries
 * would be slower than CSR for the few bytes saved. A fixed shape always
 * converts, unless c exceeds the matrix's columns.
 * Kernels (option kernel): warp, a warp per block row, lanes over the
 * block row's values (bcsr.cu); slice, block rows interleaved in slices of
 * 32 / r, a lane per row (bcsr_slice.c, bcsr_slice.cu); auto takes slice
 * unless its padding or the remainder would cost (bcsr_slice_pays). The
 * remainder is added in the same launch. spmv_host runs the same lanes.
 * Limits: dtypes f64 and f32.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../common/row_length.h"
#include "bcsr.h"

/* Frees every host and device array (NULL and half-built formats allowed). */
static void bcsr_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(bcsr_fmt, f, fmt);
    void *const dev[] = {f->d_bptr, f->d_bcol, f->d_bval, f->d_rptr, f->d_rcol, f->d_rval, f->d_sptr, f->vs.d_table, f->d_xwin};
    void *const host[] = {f->bptr, f->sptr, f->bcol, f->bval, f->rptr, f->rcol, f->rval, f->xwin};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Picks r and c: the fixed values, 1x1 for a matrix without entries, else
 * the shape rule. Returns OK, NOMEM, or LIMIT when the rule finds no shape
 * that saves min_saving of plain CSR's bytes, with its numbers. */
static spmvlab_status bcsr_pick_shape(spmvlab_ctx *ctx, const spmvlab_matrix *A, const bcsr_opts *o,
                                      bcsr_fmt *f, spmvlab_err *err)
{
    f->automatic = o->r == SPMVLAB_AUTO || o->c == SPMVLAB_AUTO;
    f->r = o->r == SPMVLAB_AUTO ? 1 : o->r;
    f->c = o->c == SPMVLAB_AUTO ? 1 : o->c;
    if (!f->automatic || A->nnz == 0)
        return SPMVLAB_OK;
    bcsr_shape best, blocked;
    double csr;
    if (bcsr_shape_choose(A, o, &best, &blocked, &csr))
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory measuring bcsr block shapes");
    if (blocked.bytes < 0)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT, "no bcsr block shape but 1x1 fits the %d x %d matrix", A->rows,
                         A->cols);
    if (best.r * best.c == 1 || best.bytes > (1.0 - o->min_saving) * csr) {
        const bcsr_shape *b = best.r * best.c == 1 ? &blocked : &best;
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "no bcsr block shape saves min_saving %.0f%% of plain CSR's %.2f bytes per non-zero: "
                         "the best, %dx%d, keeps %.0f of %d non-zeros in %.0f blocks (fill %.2f within them) "
                         "and needs %.2f bytes per non-zero (max_fill %.2f)",
                         100.0 * o->min_saving, csr / A->nnz, b->r, b->c, b->blocked_nnz, A->nnz, b->blocks,
                         b->blocked_nnz > 0 ? b->blocks * b->r * b->c / b->blocked_nnz : 0.0, b->bytes / A->nnz,
                         o->max_fill);
    }
    f->r = best.r;
    f->c = best.c;
    return SPMVLAB_OK;
}

/* Whether the warp kernel, which auto takes where the slice layout does not
 * pay, serves A: it fell below 0.8x cuSPARSE on every corpus member of 6e6
 * non-zeros (docs/perf/2026-11-28-corpus-tune) and, one warp a remainder
 * row, on rows of 3,333 and 12,500 entries (0.04-0.18x in f32, docs/perf/
 * 2026-11-28-floors-3). */
static int warp_kernel_serves(const spmvlab_matrix *A)
{
    return A->nnz < BCSR_WARP_MAX_NNZ && longest_row(A) <= BCSR_WARP_MAX_ROW;
}

/* Refuses, with status LIMIT, a matrix whose blocks the slice layout does
 * not take (uneven block rows, or long remainder rows) where the warp
 * kernel does not serve it either, naming which bound it passes. */
static spmvlab_status bcsr_refuse_uneven(bcsr_fmt *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    if (A->nnz >= BCSR_WARP_MAX_NNZ)
        return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT,
                            "uneven block rows: the %dx%d blocks of this matrix of %d non-zeros (%d of them "
                            "in the remainder) need the warp kernel, which runs below 0.8x CSR from %d non-zeros",
                            f->r, f->c, A->nnz, f->rem_nnz, BCSR_WARP_MAX_NNZ);
    return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT,
                        "uneven rows: the %dx%d blocks of this matrix (%d of %d non-zeros in the remainder) need "
                        "the warp kernel, which sums a row with one warp and runs below 0.8x CSR with a row of "
                        "more than %d entries (the longest here: %d)",
                        f->r, f->c, f->rem_nnz, A->nnz, BCSR_WARP_MAX_ROW, longest_row(A));
}

/* Builds the blocks and the remainder from the CSR input. Returns OK;
 * UNSUPPORTED for f16; LIMIT when auto finds no shape better than CSR or
 * c exceeds the columns; NOMEM or the core's status when an allocation
 * fails. On failure nothing is kept. */
static spmvlab_status bcsr_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                   void **out, spmvlab_err *err)
{
    const bcsr_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(bcsr_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    f->max_fill = o->max_fill;
    f->values_mode = o->values;
    f->code_bits = o->code_bits;
    spmvlab_status st = bcsr_pick_shape(ctx, A, o, f, err);
    if (st == SPMVLAB_OK && A->nnz > 0 && f->c > A->cols)
        st = ctx->fail(ctx, err, SPMVLAB_LIMIT, "bcsr block width c = %d exceeds the matrix's %d columns", f->c,
                       A->cols);
    if (st == SPMVLAB_OK)
        st = bcsr_build(f, A, err);
    if (st == SPMVLAB_OK) {
        f->nslots = f->nblocks;
        if (o->kernel == BCSR_KERNEL_SLICE || (o->kernel == BCSR_KERNEL_AUTO && bcsr_slice_pays(f)))
            st = bcsr_slice(f, err);
        else if (o->kernel == BCSR_KERNEL_AUTO && !warp_kernel_serves(A))
            st = bcsr_refuse_uneven(f, A, err);
        f->x_share = f->slice && o->x_share && f->r >= f->c && f->c > 1;
        if (st == SPMVLAB_OK && f->slice && o->x_window && !f->x_share && bcsr_slice_windows(f) != 0)
            st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the bcsr x windows");
    }
    const size_t rc = (size_t)f->r * (size_t)f->c, i4 = sizeof(int32_t);
    if (st == SPMVLAB_OK && f->vs.kind == SPMVLAB_STORE_CODES4) { /* laid out a byte each: now two a byte */
        spmvlab_value_store_pack4(f->bval, (size_t)f->nslots * rc);
        if (f->rval)
            spmvlab_value_store_pack4(f->rval, (size_t)f->rem_nnz);
    }
    /* sptr and rptr stay NULL without slices or a remainder: 0 bytes, no array */
    const spmvlab_array arrays[] = {
        {(void **)&f->d_bptr, f->bptr, ((size_t)f->nbr + 1) * i4},
        {(void **)&f->d_bcol, f->bcol, (size_t)f->nslots * i4},
        {&f->d_bval, f->bval, spmvlab_value_store_bytes(&f->vs, (size_t)f->nslots * rc)},
        {(void **)&f->d_sptr, f->sptr, f->sptr ? ((size_t)f->nslices + 1) * i4 : 0},
        {(void **)&f->d_rptr, f->rptr, f->rptr ? ((size_t)f->rows + 1) * i4 : 0},
        {(void **)&f->d_rcol, f->rcol, (size_t)f->rem_nnz * i4},
        {&f->d_rval, f->rval, spmvlab_value_store_bytes(&f->vs, (size_t)f->rem_nnz)},
        {(void **)&f->d_xwin, f->xwin, f->xwin ? (size_t)bcsr_slice_blocks(f) * 2 * i4 : 0},
    };
    size_t unused = 0;
    if (st == SPMVLAB_OK)
        st = spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err);
    if (st == SPMVLAB_OK)
        st = spmvlab_value_store_upload(ctx, &f->vs, &unused, err);
    if (st == SPMVLAB_OK)
        ctx->log(ctx, "bcsr %dx%d%s: %d blocks, %d remainder entries, %s kernel", f->r, f->c,
                 f->automatic ? " (auto)" : "", f->nblocks, f->rem_nnz, f->slice ? "slice" : "warp");
    return spmvlab_converted(st, f, bcsr_destroy, out);
}

/* y = A x on the device in one launch. Returns CUDA_ERROR with the
 * runtime's text when the launch failed. */
static spmvlab_status bcsr_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    bcsr_fmt *f = fmt;
    int rc = f->slice ? bcsr_slice_launch(f, x, y, stream) : bcsr_launch(f, x, y, stream);
    return spmvlab_launched(f->ctx, err, rc, bcsr_error_string, "bcsr kernel launch");
}

SPMVLAB_SPMV_HOST_F64_F32(bcsr, bcsr_fmt, dtype)

/* Facts for reports: the shape and how it was chosen, blocks, the fill
 * within kept blocks, the remainder, the device bytes per non-zero, the
 * kernel and, for slices, the slots stored (blocks and padding). */
static void bcsr_describe(const void *fmt, char *buf, size_t len)
{
    const bcsr_fmt *f = fmt;
    double rc = (double)f->r * f->c, blocked = (double)f->nnz - f->rem_nnz;
    double bytes = 4.0 * ((double)f->nbr + 1) + f->nslots * 4.0 +
                   (double)spmvlab_value_store_bytes(&f->vs, (size_t)(f->nslots * rc)) +
                   (f->rptr ? 4.0 * ((double)f->rows + 1) + f->rem_nnz * 4.0 +
                                  (double)spmvlab_value_store_bytes(&f->vs, (size_t)f->rem_nnz)
                            : 0) +
                   (f->sptr ? 4.0 * ((double)f->nslices + 1) : 0) + (double)f->vs.table_bytes +
                   (f->xwin ? 8.0 * (double)bcsr_slice_blocks(f) : 0);
    int n = snprintf(buf, len, "shape=%dx%d%s blocks=%d fill=%.3f rem_nnz=%d bytes_per_nnz=%.2f kernel=%s", f->r,
                     f->c, f->automatic ? "(auto)" : "", f->nblocks, blocked > 0 ? f->nblocks * rc / blocked : 0.0,
                     f->rem_nnz, f->nnz > 0 ? bytes / f->nnz : 0.0, f->slice ? "slice" : "warp");
    if (f->slice && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, " slice_rows=%d slots=%d x=%s", f->slice_h * f->r, f->nslots,
                      f->x_share ? "shuffle" : f->xwin ? "window" : "load");
    if (n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " values=%s", spmvlab_value_store_name(&f->vs));
}

SPMVLAB_PLUGIN_DEFINE(bcsr, "1.2.0", SPMVLAB_DTYPES_F64_F32,
                      "blocked CSR: r x c blocks chosen by a fill rule, CSR remainder, lane per row over block-row slices",
                      "E.-J. Im, K. Yelick, R. Vuduc, SPARSITY: Optimization framework for sparse matrix kernels, "
                      "IJHPCA 18(1), 2004; R. Vuduc, J. Demmel, K. Yelick, OSKI, SciDAC 2005");
