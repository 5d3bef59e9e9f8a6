/*
 * jds — jagged diagonal storage with a separate path for long rows.
 *
 * Format: the rows are sorted by length, longest first, with a stable sort;
 * perm[r] is the original row at sorted position r. Rows longer than
 * long_row entries (the first nlong sorted positions) are long; the others
 * are short. Jagged diagonal d is entry d of every short row that has more
 * than d entries; the rows are sorted, so those rows are a prefix of the
 * short rows.
 *
 * Layout: col and val hold the short rows' diagonals one after another
 * (jd_ptr[d] the start of diagonal d, entry d of short row r at
 * jd_ptr[d] + r, no padding), then the long rows one after another
 * (long_ptr[j] the start of long row j), each cut into pieces of JDS_PIECE
 * entries (piece_ptr[j] its first piece, piece_of[p] the row of piece p).
 * Footprint: README.md.
 *
 * Execution (jds.cu): the diagonal kernel, threads_per_row lanes per short
 * row, writes y[perm[nlong + r]]; the long rows take one warp per piece in
 * the front blocks of the same kernel and, when a row has several pieces,
 * the warp finishing its last piece (a counter a row) adds their partial
 * sums. Every row of y is written exactly once.
 *
 * Options: threads_per_row (auto: by the mean short row and the device's
 * resident warps), long_row (auto: max(64, 4 x mean row length)).
 *
 * Limits: f64 and f32.
 *
 * Source: W. Hwu, D. Kirk, I. El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., ch. 14 (JDS); Y. Saad, "Krylov subspace methods on
 * supercomputers", SIAM J. Sci. Stat. Comput. 10(6), 1989 (jagged diagonals).
 */
#include <stdio.h>
#include <stdlib.h>

#include "jds.h"

/* threads_per_row must be a power of two up to the warp. Returns OK or
 * INVALID_OPTION with the sentence in err. */
static spmvlab_status jds_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const jds_opts *o = spmvlab_opts_fields(opts);
    return spmvlab_pow2_or_auto(o->threads_per_row)
               ? SPMVLAB_OK
               : spmvlab_bad_option(err, "threads_per_row = %d must be a power of two from 1 to %d (or auto) so "
                                         "that the lanes of a row share a warp", o->threads_per_row, JDS_WARP);
}

/* Frees every host and device array of f, then f. */
static void jds_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(jds_format, f, fmt);
    void *dev[] = {f->d_perm, f->d_jd_ptr, f->d_long_ptr, f->d_piece_ptr, f->d_piece_of,
                   f->d_col,  f->d_val,    f->d_partial, f->d_count};
    void *host[] = {f->perm, f->jd_ptr, f->long_ptr, f->piece_ptr, f->piece_of, f->col, f->val};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Device copies of what the kernel reads: the diagonals, then the long
 * rows' arrays when there are long rows (partial and the zeroed counters
 * only when a row has several pieces). Returns the core's status. */
static spmvlab_status jds_upload(jds_format *f, spmvlab_err *err)
{
    size_t i4 = sizeof(int32_t), es = spmvlab_dtype_size(f->dtype), nl = (size_t)f->nlong;
    size_t counters = f->multi_piece ? nl * i4 : 0;
    int32_t *zeros = calloc(counters + 1, 1);
    if (!zeros)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %d long rows", f->nlong);
    const spmvlab_array a[] = {
        {(void **)&f->d_perm, f->perm, (size_t)f->rows * i4},
        {(void **)&f->d_jd_ptr, f->jd_ptr, ((size_t)f->diagonals + 1) * i4},
        {(void **)&f->d_col, f->col, (size_t)f->nnz * i4},
        {&f->d_val, f->val, (size_t)f->nnz * es},
        {(void **)&f->d_long_ptr, f->long_ptr, (nl + 1) * i4},
        {(void **)&f->d_piece_ptr, f->piece_ptr, (nl + 1) * i4},
        {(void **)&f->d_piece_of, f->piece_of, (size_t)f->npieces * i4},
        {&f->d_partial, NULL, f->multi_piece ? (size_t)f->npieces * es : 0},
        {(void **)&f->d_count, zeros, counters},
    };
    spmvlab_status st = spmvlab_put_all(f->ctx, a, f->nlong == 0 ? 4 : 9, err);
    free(zeros);
    return st;
}

/* Builds the format: sort, split, diagonals, device copies (the options
 * passed jds_check_options before). Returns OK, UNSUPPORTED (dtype) or
 * NOMEM / LIMIT from the core. */
static spmvlab_status jds_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                  const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    SPMVLAB_CONVERT_BEGIN(jds_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    spmvlab_status st = jds_build(f, A, spmvlab_opts_fields(opts), err);
    if (st == SPMVLAB_OK)
        st = jds_upload(f, err);
    return spmvlab_converted(st, f, jds_destroy, out);
}

/* One kernel: the long rows' pieces and the diagonals. */
static spmvlab_status jds_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    jds_format *f = fmt;
    return spmvlab_launched(f->ctx, err, jds_spmv_launch(f, x, y, stream), jds_cuda_error_text,
                            "jds kernels (threads_per_row = %d, %d long rows)", f->threads_per_row, f->nlong);
}

/* What the rules chose: lanes per row, long rows, diagonals. */
static void jds_describe(const void *fmt, char *buf, size_t len)
{
    const jds_format *f = fmt;
    snprintf(buf, len,
             "diagonals=%d threads_per_row=%d tpr_auto=%s long_row=%d long_auto=%s long_rows=%d "
             "long_nnz=%d pieces=%d",
             f->diagonals, f->threads_per_row, f->tpr_auto ? "yes" : "no", f->long_threshold,
             f->long_auto ? "yes" : "no", f->nlong, f->nnz - f->short_nnz, f->npieces);
}

SPMVLAB_SPMV_HOST_F64_F32(jds, jds_format, dtype)

SPMVLAB_PLUGIN_DEFINE(jds, "2.0.0", SPMVLAB_DTYPES_F64_F32,
                      "jagged diagonal storage: rows sorted by length, lanes per row on coalesced "
                      "diagonals, long rows split into warp pieces",
                      "W. Hwu, D. Kirk, I. El Hajj, Programming Massively Parallel Processors, 4th ed., "
                      "ch. 14 (JDS); Y. Saad, SIAM J. Sci. Stat. Comput. 10(6), 1989",
                      .check_options = jds_check_options);
