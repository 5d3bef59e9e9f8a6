/*
 * ell — ELLPACK with row lengths (ELL-R) (Hwu, Kirk, El Hajj, "Programming
 * Massively Parallel Processors", 4th ed., ch. 14, the ELL format; row
 * lengths as in Vazquez, Fernandez, Garzon, "A new approach for sparse matrix
 * vector product on NVIDIA GPUs", Concurrency Computat.: Pract. Exper. 23(8),
 * 2011).
 *
 * Format: every row is padded to the width of the longest row, and the
 * rows x width slots are stored column-major: entry k of row i sits at
 * k * rows + i, so the 32 threads of a warp (32 consecutive rows) load 32
 * consecutive words for the same k. Arrays: col (int32) and val (dtype) of
 * rows * width slots each, and row_len (int32, rows) with each row's true
 * length.
 * Padding: value 0 and the row's last real column (column 0 for an empty
 * row), so even a kernel that read past row_len would stay inside x. With
 * row_len the kernel never reads padding: a thread stops at its row's end.
 *
 * Execution: one thread per row, sum += val * x[col] over k < row_len[i]
 * with fused multiply-adds in the dtype, y[i] = sum; matrix arrays and x
 * through the read-only path. spmv_host runs the same loop with fma().
 *
 * Options: max_fill (float, default 1.45): the padded size rows * width may be
 * at most max_fill * nnz; convert refuses a larger one with SPMVLAB_LIMIT
 * before allocating anything (uneven rows: the padding is read or skipped
 * by a whole warp; one long row makes ELL huge — use hyb there).
 * min_rows_per_width (default 384): fewer rows than that many per slot of
 * the width are refused too (few long rows: one thread a row walks the
 * width while the device idles). Both were fitted on the corpus tune part,
 * where ELL fell below 0.8x cuSPARSE on either side of them (README.md,
 * "When ell refuses"; docs/perf/2026-11-28-corpus-tune).
 * A matrix without non-zeros has width 0 and is accepted. values
 * (native|indexed|pattern|auto, default native): lossless storage
 * (plugins/common/value_store.h): codes into the core's value table, or
 * one value; padding is code 0 and never read.
 * Limits: dtypes f64 and f32.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "spmvlab/plugin.h"

#include "../common/row_length.h"
#include "../common/value_store.h"

#define ELL_BLOCK 256 /* threads (rows) per block */

/* Launcher in ell.cu: one thread per row; returns the first CUDA error. */
cudaError_t ell_launch(int f64, int32_t rows, int block, const int32_t *row_len,
                       const int32_t *col, const spmvlab_value_store *vs, const void *val, const void *x, void *y,
                       cudaStream_t stream);

typedef struct ell_opts {
    double max_fill;           /* padded slots allowed per non-zero */
    double min_rows_per_width; /* rows needed per slot of the width */
    int values;                /* SPMVLAB_VALUES_*: native, indexed, pattern or auto */
} ell_opts;

static const spmvlab_option ell_options[] = {
    SPMVLAB_OPTION(ell_opts, max_fill, SPMVLAB_OPT_FLOAT, "1.45", "1..1000000000", "refuse when rows * width (padded slots) exceeds max_fill * nnz"),
    SPMVLAB_OPTION(ell_opts, min_rows_per_width, SPMVLAB_OPT_FLOAT, "384", "0..1000000000", "refuse when rows < min_rows_per_width * width (few long rows); 0: off"),
    SPMVLAB_OPTION(ell_opts, values, SPMVLAB_OPT_ENUM, "native", "", "how the values are stored (all lossless)"),
    SPMVLAB_CHOICE(ell_opts, values, SPMVLAB_VALUES_NATIVE, "native", "", "values in the run's dtype"),
    SPMVLAB_CHOICE(ell_opts, values, SPMVLAB_VALUES_INDEXED, "indexed", "", SPMVLAB_VALUES_INDEXED_HELP),
    SPMVLAB_CHOICE(ell_opts, values, SPMVLAB_VALUES_PATTERN, "pattern", "", SPMVLAB_VALUES_PATTERN_HELP),
    SPMVLAB_CHOICE(ell_opts, values, SPMVLAB_VALUES_AUTO, "auto", "", SPMVLAB_VALUES_AUTO_HELP),
    {NULL}};

/* One ELL-R matrix: host arrays for spmv_host, device arrays for spmv. */
typedef struct ell_fmt {
    spmvlab_ctx *ctx;       /* services of the instance; frees device memory */
    int32_t rows;           /* rows of A (values of y) */
    int32_t cols;           /* columns of A (values of x) */
    int32_t nnz;            /* real non-zeros */
    int32_t width;          /* slots per row: the longest row's length */
    spmvlab_dtype dtype;    /* type of val, x and y */
    size_t slots;           /* rows * width */
    int32_t *row_len;       /* host, rows true row lengths */
    int32_t *col;           /* host, slots column indices, column-major */
    spmvlab_value_store vs; /* how val holds the values: native, codes or one pattern value */
    void *val;              /* host, slots values of dtype (or codes), column-major */
    int32_t *d_row_len;     /* device copies of the three arrays */
    int32_t *d_col;
    void *d_val;
} ell_fmt;

/* Frees every host and device array of f (NULL allowed). */
static void ell_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(ell_fmt, f, fmt);
    void *const dev[] = {f->d_row_len, f->d_col, f->d_val, f->vs.d_table}, *const host[] = {f->row_len, f->col, f->val};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Fills the column-major slots from CSR: real entries first, then padding
 * with value 0 and the row's last real column (0 for an empty row). */
static void ell_fill(ell_fmt *f, const spmvlab_matrix *A)
{
    size_t vs = f->vs.elem; /* values or codes (padding: +0.0 or code 0), none for a pattern */
    char *val = f->val;
    const char *src = f->vs.src;
    for (int32_t i = 0; i < f->rows; i++) {
        int32_t start = A->row_ptr[i], len = A->row_ptr[i + 1] - start;
        int32_t pad_col = len > 0 ? A->col_idx[start + len - 1] : 0;
        f->row_len[i] = len;
        for (int32_t k = 0; k < f->width; k++) {
            size_t s = (size_t)k * (size_t)f->rows + (size_t)i;
            if (k < len) {
                f->col[s] = A->col_idx[start + k];
                if (vs)
                    memcpy(val + s * vs, src + (size_t)(start + k) * vs, vs);
            } else {
                f->col[s] = pad_col;
                if (vs) /* all-zero bits are +0.0 in f64 and f32, and code 0 (+0.0) */
                    memset(val + s * vs, 0, vs);
            }
        }
    }
}

/* f->width (the longest row) and f->slots. Returns OK, or LIMIT when the
 * padded size exceeds max_fill * nnz, when the rows are fewer than
 * min_rows_per_width per slot of the width, or when it would not fit size_t. */
static spmvlab_status ell_measure(ell_fmt *f, const spmvlab_matrix *A, const ell_opts *o, spmvlab_err *err)
{
    const double max_fill = o->max_fill;
    const int32_t width = longest_row(A);
    unsigned long long slots = (unsigned long long)A->rows * (unsigned long long)width;
    if (A->nnz > 0) {
        double fill = (double)slots / (double)A->nnz;
        if ((double)slots > max_fill * (double)A->nnz)
            return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT,
                                "uneven row lengths: ell width %d (the longest row) x %d rows gives %llu padded "
                                "entries for %d non-zeros, fill %.2f exceeds max_fill %.2f",
                                width, A->rows, slots, A->nnz, fill, max_fill);
        if ((double)A->rows < o->min_rows_per_width * width)
            return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT,
                                "few long rows: %d rows of up to %d non-zeros are fewer than "
                                "min_rows_per_width %.0f per slot, so one thread a row leaves the device idle",
                                A->rows, width, o->min_rows_per_width);
    }
    if (slots > (SIZE_MAX - 1) / (sizeof(int32_t) + spmvlab_dtype_size(A->dtype)))
        return f->ctx->fail(f->ctx, err, SPMVLAB_LIMIT, "ell needs %llu slots, beyond this host's size_t", slots);
    f->width = width;
    f->slots = (size_t)slots;
    return SPMVLAB_OK;
}

/* Builds ELL-R from the CSR input. Returns OK; UNSUPPORTED for f16; LIMIT
 * when the padded size exceeds max_fill * nnz (checked before the arrays
 * are allocated) or would not fit size_t; NOMEM or the core's status when
 * an allocation fails. On failure nothing is kept. */
static spmvlab_status ell_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                  const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    SPMVLAB_CONVERT_BEGIN(ell_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    const ell_opts *o = spmvlab_opts_fields(opts);
    spmvlab_status st = ell_measure(f, A, o, err);
    if (st == SPMVLAB_OK) /* padding is never read: any layout takes a pattern */
        st = spmvlab_value_store_choose(ctx, A, o->values, 1, 0, &f->vs, err);
    if (st != SPMVLAB_OK) {
        ell_destroy(f);
        return st;
    }
    size_t vs = f->vs.elem;
    /* one extra byte each so that NULL always means failure, even for 0 bytes */
    f->row_len = malloc((size_t)A->rows * sizeof(int32_t) + 1);
    f->col = malloc(f->slots * sizeof(int32_t) + 1);
    f->val = malloc(f->slots * vs + 1);
    if (!f->row_len || !f->col || !f->val) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %llu ell slots",
                       (unsigned long long)f->slots);
        ell_destroy(f);
        return st;
    }
    ell_fill(f, A);

    const spmvlab_array arrays[] = {
        {(void **)&f->d_row_len, f->row_len, (size_t)A->rows * sizeof(int32_t)},
        {(void **)&f->d_col, f->col, f->slots * sizeof(int32_t)},
        {&f->d_val, f->val, f->slots * vs},
    };
    size_t unused = 0;
    st = spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err);
    if (st == SPMVLAB_OK)
        st = spmvlab_value_store_upload(ctx, &f->vs, &unused, err);
    return spmvlab_converted(st, f, ell_destroy, out);
}

/* y = A x on the device, one thread per row. Returns CUDA_ERROR with the
 * runtime's text when the launch failed. */
static spmvlab_status ell_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    ell_fmt *f = fmt;
    cudaError_t e = ell_launch(f->dtype == SPMVLAB_F64, f->rows, ELL_BLOCK, f->d_row_len,
                               f->d_col, &f->vs, f->d_val, x, y, (cudaStream_t)stream);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "ell kernel failed: %s",
                            cudaGetErrorString(e));
    return SPMVLAB_OK;
}

/* y = A x on the CPU from the format's own arrays: per row, the kernel's
 * loop over its row_len slots with the same fused multiply-adds. */
#define ELL_HOST(T, FMA, SUFFIX)                                                         \
    static void ell_host_##SUFFIX(const ell_fmt *f, const T *x, T *y)                    \
    {                                                                                    \
        size_t rows = (size_t)f->rows;                                                   \
        for (size_t i = 0; i < rows; i++) {                                              \
            T sum = 0;                                                                   \
            for (size_t k = 0, s = i; k < (size_t)f->row_len[i]; k++, s += rows)         \
                sum = FMA(SPMVLAB_VALUE_HOST(T, &f->vs, f->val, s), x[f->col[s]], sum);  \
            y[i] = sum;                                                                  \
        }                                                                                \
    }
SPMVLAB_SPMV_HOST_FMA_F64_F32(ell, ell_fmt, ELL_HOST)

/* Facts for reports: width, padded slots and fill ratio (slots / nnz). */
static void ell_describe(const void *fmt, char *buf, size_t len)
{
    const ell_fmt *f = fmt;
    if (f->nnz > 0)
        snprintf(buf, len, "width=%d slots=%zu fill=%.3f values=%s", f->width, f->slots,
                 (double)f->slots / (double)f->nnz, spmvlab_value_store_name(&f->vs));
    else
        snprintf(buf, len, "width=%d slots=%zu fill=n/a values=%s", f->width, f->slots,
                 spmvlab_value_store_name(&f->vs));
}

SPMVLAB_PLUGIN_DEFINE(ell, "1.2.0", SPMVLAB_DTYPES_F64_F32,
                      "ELLPACK-R: rows padded to the longest, column-major, per-row lengths",
                      "W. Hwu, D. Kirk, I. El Hajj, Programming Massively Parallel Processors, "
                      "4th ed., Morgan Kaufmann 2022, ch. 14 (ELL); F. Vazquez et al., "
                      "Concurrency Computat.: Pract. Exper. 23(8), 2011 (ELLPACK-R)");
