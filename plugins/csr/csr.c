/*
 * csr — compressed sparse row, the baseline every format is compared with.
 *
 * Layout: row_ptr[rows + 1], col_idx[nnz], val[nnz]; columns sorted within a
 * row; no padding. Device bytes: 4(rows + 1) + (4 + e)·nnz + s·table, plus
 * for the adaptive path 4(blocks + 1) + (12 + s)·pieces; s = sizeof(value),
 * e = s for native values, 1 or 2 for codes into the core's value table
 * (values = indexed, CSR-VI; table entries), 0 for a pattern.
 *
 * Kernels (option `kernel`):
 *   scalar    one thread per row (PMPP ch. 14).
 *   vector    `width` lanes of a warp per row (Bell & Garland, SC'09): lanes
 *             stride through the row, then a shuffle tree.
 *   adaptive  CSR-Adaptive / CSR-stream (Greathouse & Daga, SC'14): rows
 *             binned at conversion into blocks of at most 1024 rows
 *             (block_rows) and 1024 non-zeros (fewer on small matrices, so
 *             there are two blocks per SM), staged through shared memory
 *             with coalesced loads and reduced by 1-32 lanes per row (a
 *             thread per row beyond 64 rows); rows longer than 256 split
 *             into pieces of 2048 non-zeros, one block each, whose sums the
 *             row's last piece adds in a fixed order (no atomics on y); a
 *             long row trails the row block before it instead of taking a
 *             block of its own.
 *   auto      by the row lengths' mean, maximum and coefficient of variation
 *             (csr_plan.c, README "The auto rule").
 * Option `width` = auto|1..32 (power of two): the vector kernel's lanes;
 * with kernel = auto an explicit width means vector (1: scalar). Option
 * `block_rows` = auto|8..1024 (power of two): the adaptive blocks' row limit
 * (auto: 1024; 128 was the limit before runs of empty rows were packed).
 * spmv_host (csr_host.c) runs each path's decomposition and summation order.
 * dtypes: f64, f32 (accumulation in the value type).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csr_format.h"

static const char *const csr_kernel_names[] = {"auto", "scalar", "vector", "adaptive"};

static spmvlab_status csr_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const csr_opts *o = spmvlab_opts_fields(opts);
    if (!spmvlab_pow2_or_auto(o->width))
        return spmvlab_bad_option(err, "csr option width = %d must be a power of two from 1 to 32", o->width);
    if (!spmvlab_pow2_or_auto(o->block_rows))
        return spmvlab_bad_option(err, "csr option block_rows = %d must be a power of two from 8 to 1024",
                                  o->block_rows);
    return SPMVLAB_OK;
}

/* The path and lanes for the options and the row statistics. */
static void csr_choose(csr_format *f, const csr_opts *o)
{
    csr_kernel k = (csr_kernel)o->kernel;
    if (k == CSR_AUTO && o->width != SPMVLAB_AUTO)
        k = o->width == 1 ? CSR_SCALAR : CSR_VECTOR;
    if (k == CSR_AUTO)
        k = csr_auto_kernel(&f->stats, f->rows);
    f->kernel = k;
    if (k == CSR_SCALAR)
        f->width = 1;
    else if (k == CSR_VECTOR)
        f->width = o->width != SPMVLAB_AUTO ? o->width : csr_vector_width(f->stats.mean);
    else
        f->width = 0;
    if (f->width == 1)
        f->kernel = CSR_SCALAR;
}

static void csr_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(csr_format, f, handle);
    void *dev[] = {f->d_row_ptr,           f->d_col_idx,           f->d_val,
                   (void *)f->ad.blk_row,  (void *)f->ad.piece_row, (void *)f->ad.piece_first,
                   f->ad.partial,          f->ad.ticket,            f->vs.d_table};
    spmvlab_free_all(f->ctx, dev, SPMVLAB_COUNT(dev));
    csr_adaptive_free(&f->plan);
    free(f);
}

/* The adaptive plan: binning on the host, its arrays on the device, the
 * tickets zeroed. Returns OK or the failing status with its sentence. */
static spmvlab_status csr_adaptive_upload(csr_format *f, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    if (csr_adaptive_build(&f->plan, f->rows, f->row_ptr, ctx->device->present ? ctx->device->sm_count : 0,
                           f->block_rows) != 0)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the adaptive row blocks of %d rows",
                         f->rows);
    const size_t np = (size_t)f->plan.pieces, vs = spmvlab_dtype_size(f->dtype);
    f->ad.blocks = f->plan.blocks;
    f->ad.pieces = f->plan.pieces;
    int32_t *zeros = calloc(np ? np : 1, sizeof *zeros);
    if (!zeros)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %zu ticket counters", np);
    const spmvlab_array a[] = {
        {(void **)&f->ad.blk_row, f->plan.blk_row, ((size_t)f->plan.blocks + 1) * sizeof(int32_t)},
        {(void **)&f->ad.piece_row, f->plan.piece_row, np * sizeof(int32_t)},
        {(void **)&f->ad.piece_first, f->plan.piece_first, np * sizeof(int32_t)},
        {&f->ad.partial, NULL, np * vs},
        {(void **)&f->ad.ticket, zeros, np * sizeof(int32_t)},
    };
    spmvlab_status st = spmvlab_put_all(ctx, a, SPMVLAB_COUNT(a), err);
    free(zeros);
    return st;
}

static spmvlab_status csr_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    const csr_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(csr_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    f->row_ptr = A->row_ptr;
    f->col_idx = A->col_idx;
    f->val = A->val;
    f->stats = csr_row_stats(A->rows, A->row_ptr);
    f->block_rows = o->block_rows != SPMVLAB_AUTO ? o->block_rows : CSR_AD_ROWS;
    csr_choose(f, o);
    /* CSR has no padding: codes (or nothing) in A's order, the core's own array */
    /* auto takes no codes: this kernel ran them slower than native values
     * on every few-valued matrix measured (README, Values) */
    int values = o->values == SPMVLAB_VALUES_AUTO ? SPMVLAB_VALUES_AUTO_NO_CODES : o->values;
    spmvlab_status st = spmvlab_value_store_choose(ctx, A, values, 1, 0, &f->vs, err);
    f->val = f->vs.src;
    const spmvlab_array a[] = {
        {(void **)&f->d_row_ptr, A->row_ptr, ((size_t)A->rows + 1) * 4},
        {(void **)&f->d_col_idx, A->col_idx, (size_t)A->nnz * 4},
        {&f->d_val, f->vs.src, (size_t)A->nnz * f->vs.elem},
    };
    size_t unused = 0;
    if (st == SPMVLAB_OK)
        st = spmvlab_put_all(ctx, a, SPMVLAB_COUNT(a), err);
    if (st == SPMVLAB_OK)
        st = spmvlab_value_store_upload(ctx, &f->vs, &unused, err);
    if (st == SPMVLAB_OK && f->kernel == CSR_ADAPTIVE)
        st = csr_adaptive_upload(f, err);
    return spmvlab_converted(st, f, csr_destroy, out);
}

static spmvlab_status csr_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    csr_format *f = handle;
    int is_f64 = f->dtype == SPMVLAB_F64, rc;
    if (f->kernel == CSR_ADAPTIVE)
        rc = csr_launch_adaptive(is_f64, &f->ad, f->d_row_ptr, f->d_col_idx, &f->vs, f->d_val, x, y, stream);
    else
        rc = csr_launch(is_f64, f->width, f->rows, f->d_row_ptr, f->d_col_idx, &f->vs, f->d_val, x, y, stream);
    return spmvlab_launched(f->ctx, err, rc, csr_error_string, "%s kernel launch", csr_kernel_names[f->kernel]);
}

SPMVLAB_SPMV_HOST_F64_F32(csr, csr_format, dtype)

static void csr_describe(const void *handle, char *buf, size_t len)
{
    const csr_format *f = handle;
    snprintf(buf, len,
             "kernel=%s width=%d mean=%.2f cv=%.2f max=%d blocks=%d block_rows=%d block_nnz=%d pieces=%d "
             "long_rows=%d values=%s",
             csr_kernel_names[f->kernel], f->width, f->stats.mean, f->stats.cv, f->stats.max, f->plan.blocks,
             f->plan.block_rows, f->plan.block_nnz, f->plan.pieces, f->plan.long_rows,
             spmvlab_value_store_name(&f->vs));
}

SPMVLAB_PLUGIN_DEFINE(csr, "1.2.0", SPMVLAB_DTYPES_F64_F32,
                      "compressed sparse row: scalar, vector and adaptive (binned row blocks, split long rows) kernels",
                      "Bell & Garland, SC'09 (scalar, vector); Greathouse & Daga, Efficient sparse matrix-vector "
                      "multiplication on GPUs using the CSR storage format, SC'14 (CSR-Adaptive)",
                      .check_options = csr_check_options);
