/*
 * Shared body of the test plugins: a plain CSR copy of the matrix (host
 * arrays for spmv_host, the same arrays through ctx->dev_alloc so footprint
 * and leak accounting hold) and a correct CPU product. Each test plugin
 * takes these and breaks exactly one thing, so a test failing on it fails
 * for that one reason.
 */
#ifndef SPMVLAB_BAD_COMMON_H
#define SPMVLAB_BAD_COMMON_H

#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

typedef struct plain_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;
    int32_t rows, cols, nnz;
    int32_t *row_ptr, *col_idx; /* host copies */
    double *val;                /* host values widened to double */
    void *d_row_ptr, *d_col_idx, *d_val; /* "device" copies, for the accounting */
    size_t bytes;               /* live dev_alloc bytes */
    int stage;                  /* the plugin's own use (where it misbehaves) */
} plain_format;

static inline void plain_destroy(void *handle)
{
    plain_format *f = handle;
    if (!f)
        return;
    f->ctx->dev_free(f->ctx, f->d_row_ptr);
    f->ctx->dev_free(f->ctx, f->d_col_idx);
    f->ctx->dev_free(f->ctx, f->d_val);
    free(f->row_ptr);
    free(f->col_idx);
    free(f->val);
    free(f);
}

static inline spmvlab_status plain_put_array(plain_format *f, void **dst, const void *src, size_t bytes,
                                             spmvlab_err *err)
{
    spmvlab_status st = f->ctx->dev_alloc(f->ctx, dst, bytes, err);
    if (st == SPMVLAB_OK)
        st = f->ctx->upload(f->ctx, *dst, src, bytes, err);
    if (st == SPMVLAB_OK)
        f->bytes += bytes;
    return st;
}

/* Copies A; returns OK with *out set, or a status with the sentence. */
static inline spmvlab_status plain_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, void **out, spmvlab_err *err)
{
    *out = NULL;
    plain_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = A->nnz;
    size_t rp = ((size_t)A->rows + 1) * sizeof(int32_t), ci = (size_t)A->nnz * sizeof(int32_t);
    f->row_ptr = malloc(rp);
    f->col_idx = malloc(ci ? ci : 1);
    f->val = malloc(((size_t)A->nnz + 1) * sizeof(double));
    if (!f->row_ptr || !f->col_idx || !f->val) {
        plain_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d non-zeros", A->nnz);
    }
    memcpy(f->row_ptr, A->row_ptr, rp);
    memcpy(f->col_idx, A->col_idx, ci);
    for (int32_t k = 0; k < A->nnz; k++)
        f->val[k] = spmvlab_value_get(A->val, (size_t)k, A->dtype);
    spmvlab_status st = plain_put_array(f, &f->d_row_ptr, f->row_ptr, rp, err);
    if (st == SPMVLAB_OK)
        st = plain_put_array(f, &f->d_col_idx, f->col_idx, ci, err);
    if (st == SPMVLAB_OK)
        st = plain_put_array(f, &f->d_val, A->val, (size_t)A->nnz * spmvlab_dtype_size(A->dtype), err);
    if (st != SPMVLAB_OK) {
        plain_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

/* y = A·x on the host, summed in double and rounded once to the dtype. */
static inline void plain_multiply(const plain_format *f, const void *x, void *y)
{
    for (int32_t i = 0; i < f->rows; i++) {
        double s = 0;
        for (int32_t k = f->row_ptr[i]; k < f->row_ptr[i + 1]; k++)
            s += f->val[k] * spmvlab_value_get(x, (size_t)f->col_idx[k], f->dtype);
        spmvlab_value_put(y, (size_t)i, f->dtype, s);
    }
}

static inline spmvlab_status plain_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    (void)err;
    plain_multiply(fmt, x, y);
    return SPMVLAB_OK;
}

/* The test plugins have no kernels of their own unless they say so. */
static inline spmvlab_status plain_spmv_none(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    plain_format *f = fmt;
    (void)x, (void)y, (void)stream;
    return f->ctx->fail(f->ctx, err, SPMVLAB_UNSUPPORTED, "this test plugin has no GPU kernel");
}

static inline size_t plain_footprint(const void *fmt) { return ((const plain_format *)fmt)->bytes; }

/* Where a misbehaving plugin misbehaves: its option `stage`. */
#define PLAIN_STAGE_OPTION(def) \
    {"stage", SPMVLAB_OPT_ENUM, def, 0, 0, "convert|spmv", "where the plugin misbehaves", 0, 0, NULL, 0, 0, NULL}
enum { PLAIN_AT_CONVERT = 0, PLAIN_AT_SPMV = 1 };
/* On which matrices it misbehaves: those of at least min_rows rows (0: all),
 * so that one run holds matrices it fails on and matrices it passes. */
#define PLAIN_MIN_ROWS_OPTION \
    {"min_rows", SPMVLAB_OPT_INT, "0", 0, 2147483647, NULL, "misbehave only on matrices of at least this many rows", \
     0, 0, NULL, 0, 0, NULL}

/* The identity members of a test plugin's descriptor; each plugin then
 * lists its functions, so what it breaks is visible in its own file. */
#define PLAIN_IDENTITY(NAME, SUMMARY)                                                  \
    .abi_major = SPMVLAB_ABI_MAJOR, .abi_minor = SPMVLAB_ABI_MINOR,                    \
    .struct_size = sizeof(spmvlab_plugin), .name = NAME, .summary = SUMMARY,          \
    .version = "0.0.1", .reference = "spmvlab test suite",                             \
    .dtypes = SPMVLAB_DTYPE_BIT(SPMVLAB_F64) | SPMVLAB_DTYPE_BIT(SPMVLAB_F32) |        \
              SPMVLAB_DTYPE_BIT(SPMVLAB_F16)

/* The plain functions, for plugins that break something else. */
#define PLAIN_FUNCTIONS                                                                \
    .convert = plain_convert_opts, .spmv = plain_spmv_none, .footprint = plain_footprint, \
    .destroy = plain_destroy, .spmv_host = plain_spmv_host

static inline spmvlab_status plain_convert_opts(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                                void **out, spmvlab_err *err)
{
    (void)opts;
    return plain_convert(ctx, A, out, err);
}

#endif
