/*
 * sell — SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske, Bishop, "A unified
 * sparse matrix data format for efficient general sparse matrix-vector
 * multiplication on modern processors with wide SIMD units", SIAM J. Sci.
 * Comput. 36(5), C401-C423, 2014), with the several-threads-per-row kernel
 * of SELL-P (Anzt, Tomov, Dongarra, "Implementing a sparse matrix vector
 * product for the SELL-C/SELL-C-sigma formats on NVIDIA GPUs", 2014) and a
 * separate path for long rows.
 *
 * Format: rows longer than long_row entries leave the slices (they stay in
 * them as empty rows) and are stored as CSR rows cut into pieces of
 * SELL_PIECE entries. The other rows are sorted by length, longest first,
 * within windows of sigma consecutive rows (1: no sorting; ties keep their
 * order) and cut into slices of C rows. Each slice is stored column-major
 * and padded to its longest row: slot k of slice row r of slice s sits at
 * slice_ptr[s] + k * C + r, for k < (slice_ptr[s + 1] - slice_ptr[s]) / C.
 * Padding slots have column SELL_PAD_COL (-1) and value 0; the kernels load
 * no x for them. The last slice is stored with all C rows.
 *
 * Arrays (device and host), all offsets 32-bit (more than 2^31 - 1 slots is
 * refused, LIMIT): slice_ptr (nslices + 1), perm (rows, only when the order
 * is not the identity; on the device, with long rows, always, long rows
 * marked ~row: sell_device_perm), col and val (stored slots); long rows:
 * long_row and long_ptr / piece_ptr (nlong, nlong + 1), piece_of
 * (npieces), long_col and long_val (their entries), partial and a counter
 * a long row (npieces values and nlong counters, only when a long row has
 * several pieces). With index = 16, col is replaced by 16-bit offsets
 * from a per-slice base (lo, aux), slices spanning more than 65534 columns
 * keeping 32 bits in lo and hi (sell_index.c). Footprint: README.md.
 *
 * Options (rules in sell_build.c, sell_index.c, README.md): C (auto: 1 when
 * threads_per_row, as chosen with C = 32, is 8 or more, else 32), sigma (auto:
 * by the fill), threads_per_row (auto: by the mean slice width and the
 * device's resident warps), long_row (auto: max(64, 4 x mean row length)),
 * index (auto: 16 when the slices that qualify hold half the slots), values
 * (native, f32 storage for an f64 run, declared to the core, or lossless:
 * indexed codes, a pattern, auto; plugins/common/value_store.h; the long
 * rows keep native values), loads (auto: the slices' columns and values
 * loaded past L1 with one lane a row where a product moves 3/4 of the L2).
 *
 * Execution: sell.cu; spmv_host (sell_host.c) replays the kernels' adds.
 * Limits: f64 and f32.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sell_format.h"

/* Cross-option checks made when the configuration is read. Returns OK or
 * INVALID_OPTION with the sentence in err. */
static spmvlab_status sell_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const sell_opts *o = spmvlab_opts_fields(opts);
    int bad = sell_check_values(o->C, o->sigma, o->threads_per_row, err->msg, sizeof err->msg);
    return bad ? SPMVLAB_INVALID_OPTION : SPMVLAB_OK;
}

/* Frees every host and device array of f (NULL allowed). */
static void sell_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(sell_fmt, f, fmt);
    void *dev[] = {f->vs.d_table, f->d_slice_ptr, f->d_perm,     f->d_col,      f->d_val,      f->d_long_row,
                   f->d_long_ptr,  f->d_piece_ptr, f->d_piece_of, f->d_long_col, f->d_long_val,
                   f->d_partial,   f->d_lo,       f->d_hi,       f->d_aux,      f->d_count};
    void *host[] = {f->slice_ptr, f->perm,     f->col,      f->val,      f->long_row,
                    f->long_ptr,  f->piece_ptr, f->piece_of, f->long_col, f->long_val,
                    f->lo,        f->hi,       f->aux};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Device copies of every array spmv reads: the slices (perm when sorted,
 * or with long rows: sell_device_perm; 32-bit columns, or 16-bit offsets
 * with their bases and high halves), then the long rows' arrays when there
 * are long rows (partial and the zeroed counters only when a row has
 * several pieces); their bytes added to *held. Returns the core's status. */
static spmvlab_status sell_upload(sell_fmt *f, size_t *held, spmvlab_err *err)
{
    size_t vs = spmvlab_dtype_size(f->dtype), i4 = sizeof(int32_t), i2 = sizeof(uint16_t);
    size_t ss = f->val_f32 ? sizeof(float) : f->vs.elem; /* slice values' (or codes') storage size */
    size_t stored = (size_t)f->stored, nl = (size_t)f->nlong;
    size_t counters = f->multi_piece ? nl * i4 : 0;
    int i16 = f->index_bits == 16;
    int32_t *dperm = sell_device_perm(f);
    int32_t *zeros = calloc(counters + 1, 1);
    if ((f->nlong > 0 && !dperm) || !zeros) {
        free(dperm);
        free(zeros);
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the device's row order");
    }
    const spmvlab_array a[] = {
        {(void **)&f->d_slice_ptr, f->slice_ptr, ((size_t)f->nslices + 1) * i4},
        {(void **)&f->d_perm, dperm ? dperm : f->perm, dperm || f->perm ? (size_t)f->rows * i4 : 0},
        {(void **)&f->d_col, f->col, f->index_bits == 32 ? stored * i4 : 0},
        {(void **)&f->d_lo, f->lo, i16 ? stored * i2 : 0},
        {(void **)&f->d_aux, f->aux, i16 ? (size_t)f->ngroups * i4 : 0},
        {(void **)&f->d_hi, f->hi, i16 && f->hi_slots > 0 ? (size_t)f->hi_slots * i2 : 0},
        {&f->d_val, f->val, stored * ss},
        {(void **)&f->d_long_row, f->long_row, nl * i4},
        {(void **)&f->d_long_ptr, f->long_ptr, (nl + 1) * i4},
        {(void **)&f->d_piece_ptr, f->piece_ptr, (nl + 1) * i4},
        {(void **)&f->d_piece_of, f->piece_of, (size_t)f->npieces * i4},
        {(void **)&f->d_long_col, f->long_col, (size_t)f->long_nnz * i4},
        {&f->d_long_val, f->long_val, (size_t)f->long_nnz * vs},
        {&f->d_partial, NULL, f->multi_piece ? (size_t)f->npieces * vs : 0},
        {(void **)&f->d_count, zeros, counters},
    };
    spmvlab_status st = spmvlab_value_store_upload(f->ctx, &f->vs, held, err);
    if (st == SPMVLAB_OK)
        st = spmvlab_dev_put_all(f->ctx, a, f->nlong == 0 ? 7 : 15, held, err);
    free(dperm);
    free(zeros);
    return st;
}

/* Builds SELL-C-sigma and its long-row tail from the CSR input. Returns OK,
 * UNSUPPORTED (dtype), INVALID_OPTION, LIMIT or NOMEM; on failure nothing
 * is kept. */
static spmvlab_status sell_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                   const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    const sell_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(sell_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    char why[SPMVLAB_ERR_LEN];
    spmvlab_status st = sell_check_values(o->C, o->sigma, o->threads_per_row, why, sizeof why) != 0
                            ? ctx->fail(ctx, err, SPMVLAB_INVALID_OPTION, "%s", why)
                            : spmvlab_value_store_choose(ctx, A, o->values, 1, 0, &f->vs, err); /* padding is never multiplied */
    if (st == SPMVLAB_OK)
        st = sell_build(f, A, o, err);
    if (st == SPMVLAB_OK && f->dtype == SPMVLAB_F64 && o->values == SELL_VALUES_F32)
        st = sell_narrow_values(f, A, err);
    if (st == SPMVLAB_OK)
        st = sell_compress_index(f, o->index, o->index_base, err);
    size_t device_bytes = 0;
    if (st == SPMVLAB_OK)
        st = sell_upload(f, &device_bytes, err);
    if (st == SPMVLAB_OK) {
        const spmvlab_device *dev = ctx->device;
        double vs = (double)spmvlab_dtype_size(f->dtype);
        double moved = (double)device_bytes + vs * ((double)f->rows + (double)f->cols);
        f->stream = sell_rule_loads(o->loads, f->threads_per_row, moved,
                                    dev->present && dev->l2_bytes > 0 ? (double)dev->l2_bytes : SELL_DEFAULT_L2);
        f->loads_auto = o->loads == SELL_LOADS_AUTO;
    }
    if (st != SPMVLAB_OK)
        return spmvlab_converted(st, f, sell_destroy, out);
    if (f->val_f32)
        ctx->declare_storage(ctx, SPMVLAB_F32);
    f->index_auto = o->index == SELL_INDEX_AUTO;
    ctx->log(ctx,
             "sell: C=%d sigma=%d slices=%d stored=%d threads_per_row=%d long_rows=%d index=%d "
             "compressed_slices=%d compressed_slots=%d",
             f->C, f->sigma, f->nslices, f->stored, f->threads_per_row, f->nlong, f->index_bits,
             f->compressed_slices, f->compressed_slots);
    return spmvlab_converted(SPMVLAB_OK, f, sell_destroy, out);
}

SPMVLAB_SPMV_HOST_F64_F32(sell, sell_fmt, dtype)

/* y = A x on the device: one kernel, the long rows' pieces and the slices.
 * Returns CUDA_ERROR with the runtime's text when a launch failed. */
static spmvlab_status sell_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    sell_fmt *f = fmt;
    sell_device_view v = {
        .rows = f->rows, .C = f->C, .threads_per_row = f->threads_per_row,
        .is_f32 = f->dtype == SPMVLAB_F32, .val_f32 = f->dtype == SPMVLAB_F32 || f->val_f32,
        .index_mode = f->index_mode, .stream = f->stream, .slice_ptr = f->d_slice_ptr, .perm = f->d_perm,
        .col = f->d_col, .lo = f->d_lo, .hi = f->d_hi, .aux = f->d_aux, .val = f->d_val, .vs = &f->vs, .nlong = f->nlong, .npieces = f->npieces,
        .multi_piece = f->multi_piece, .long_row = f->d_long_row, .long_ptr = f->d_long_ptr,
        .piece_ptr = f->d_piece_ptr, .piece_of = f->d_piece_of, .long_col = f->d_long_col,
        .long_val = f->d_long_val, .partial = f->d_partial, .count = f->d_count};
    return spmvlab_launched(f->ctx, err, sell_spmv_launch(&v, x, y, stream), sell_cuda_error_text,
                            "sell kernels (threads_per_row = %d, %d long rows)", f->threads_per_row, f->nlong);
}

/* Bytes of column indices per non-zero: the slices' (32-bit columns, or
 * 16-bit offsets, high halves and per-slice bases) plus the long rows'. */
static double sell_index_bytes_per_nnz(const sell_fmt *f)
{
    double b = f->index_bits == 32 ? 4.0 * f->stored
                                   : 2.0 * f->stored + 2.0 * f->hi_slots + 4.0 * f->ngroups;
    b += 4.0 * f->long_nnz;
    return f->nnz ? b / f->nnz : 0.0;
}

/* Format facts for the A/B: what the rules chose and what it cost. */
static void sell_describe(const void *fmt, char *buf, size_t len)
{
    const sell_fmt *f = fmt;
    double mean = f->nslices ? (double)f->stored / ((double)f->nslices * f->C) : 0.0;
    int n = snprintf(buf, len,
                     "C=%d C_auto=%s sigma=%d sigma_auto=%s threads_per_row=%d tpr_auto=%s long_row=%d "
                     "long_auto=%s long_rows=%d long_nnz=%d pieces=%d fill=%.4f stored=%d "
                     "padding=%d slices=%d mean_width=%.2f max_width=%d perm=%s",
                     f->C, f->C_auto ? "yes" : "no", f->sigma, f->sigma_auto ? "yes" : "no", f->threads_per_row,
                     f->tpr_auto ? "yes" : "no", f->long_threshold, f->long_auto ? "yes" : "no",
                     f->nlong, f->long_nnz, f->npieces,
                     f->sell_nnz ? (double)f->stored / f->sell_nnz : 1.0, f->stored,
                     f->stored - f->sell_nnz, f->nslices, mean, f->max_width,
                     f->perm ? "yes" : "no");
    if (n < 0 || (size_t)n >= len)
        return;
    snprintf(buf + n, len - (size_t)n,
             " index=%d index_auto=%s index_base=%s compressed_slices=%d compressed_share=%.4f "
             "index_bytes_per_nnz=%.3f values=%s loads=%s loads_auto=%s",
             f->index_bits, f->index_auto ? "yes" : "no", f->index_bits == 32 ? "none" : f->index_column ? "column" : "slice",
             f->compressed_slices,
             f->stored ? (double)f->compressed_slots / f->stored : 0.0,
             sell_index_bytes_per_nnz(f), f->val_f32 ? "f32" : spmvlab_value_store_name(&f->vs),
             f->stream ? "streaming" : "cached", f->loads_auto ? "yes" : "no");
}

SPMVLAB_PLUGIN_DEFINE(sell, "2.2.0", SPMVLAB_DTYPES_F64_F32,
                      "SELL-C-sigma: rows sorted in windows of sigma, slices of C rows stored "
                      "column-major, SELL-P lanes per row, long rows split into warp pieces",
                      "Kreutzer, Hager, Wellein, Fehske, Bishop, SIAM J. Sci. Comput. 36(5), C401-C423, "
                      "2014; Anzt, Tomov, Dongarra, SELL-P, 2014",
                      .check_options = sell_check_options);
