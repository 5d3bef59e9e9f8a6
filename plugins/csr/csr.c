/*
 * csr — compressed sparse row, the baseline every format is compared with.
 *
 * Layout: row_ptr[rows + 1], col_idx[nnz], val[nnz]; columns sorted within a
 * row; no padding. Device bytes: 4(rows + 1) + (4 + sizeof(value))·nnz.
 *
 * Kernels (option `kernel`):
 *   scalar  one thread per row (PMPP ch. 14); coalesces poorly for long rows.
 *   vector  a group of `width` lanes of a warp per row (Bell & Garland 2009):
 *           lanes stride through the row, then a shuffle tree reduction.
 *   auto    vector with width = the power of two at or above the mean row
 *           length, clamped to 2..32; scalar when the mean is below 1.5.
 * Option `width` = auto|1..32 (power of two) overrides the vector width.
 * spmv_host runs the same lane decomposition and reduction order, so f32
 * results match the device's summation order.
 * dtypes: f64, f32 (accumulation in the value type).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

#include "csr_kernels.h"

typedef struct csr_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;
    int32_t rows, cols, nnz;
    int width;             /* lanes per row; 1 = scalar */
    int32_t *row_ptr, *col_idx; /* host copies */
    void *val;
    int32_t *d_row_ptr, *d_col_idx; /* device */
    void *d_val;
    size_t bytes;          /* live device bytes */
} csr_format;

static const spmvlab_option csr_options[] = {
    {"kernel", SPMVLAB_OPT_ENUM, "auto", 0, 0, "auto|scalar|vector", "thread per row, lanes per row, or chosen by mean row length"},
    {"width", SPMVLAB_OPT_INT_AUTO, "auto", 1, 32, NULL, "lanes per row for the vector kernel (power of two)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static spmvlab_status csr_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    long long w = spmvlab_opt_int(opts, "width");
    if (!spmvlab_opt_is_auto(opts, "width") && (w & (w - 1))) {
        snprintf(err->msg, sizeof err->msg, "csr option width = %lld must be a power of two from 1 to 32", w);
        return SPMVLAB_INVALID_OPTION;
    }
    return SPMVLAB_OK;
}

static int pow2_at_least(double x)
{
    int w = 1;
    while (w < 32 && w < x)
        w *= 2;
    return w;
}

static int choose_width(const spmvlab_opts *opts, const spmvlab_matrix *A)
{
    const char *kernel = spmvlab_opt_str(opts, "kernel");
    double mean = A->rows ? (double)A->nnz / A->rows : 0;
    if (strcmp(kernel, "scalar") == 0)
        return 1;
    if (!spmvlab_opt_is_auto(opts, "width"))
        return (int)spmvlab_opt_int(opts, "width");
    int w = pow2_at_least(mean);
    if (strcmp(kernel, "vector") == 0)
        return w < 2 ? 2 : w;
    return mean < 1.5 ? 1 : (w < 2 ? 2 : w);
}

static void csr_destroy(void *handle)
{
    csr_format *f = handle;
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

/* Allocates a device array of bytes and uploads src into it. */
static spmvlab_status put_array(csr_format *f, void **dst, const void *src, size_t bytes, spmvlab_err *err)
{
    return spmvlab_dev_put(f->ctx, dst, src, bytes, &f->bytes, err);
}

static spmvlab_status csr_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    *out = NULL;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "csr supports f64 and f32 only");
    csr_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = A->nnz;
    f->width = choose_width(opts, A);
    size_t vs = spmvlab_dtype_size(A->dtype), rp = ((size_t)A->rows + 1) * 4, ci = (size_t)A->nnz * 4,
           vb = (size_t)A->nnz * vs;
    f->row_ptr = malloc(rp);
    f->col_idx = malloc(ci ? ci : 1);
    f->val = malloc(vb ? vb : 1);
    if (!f->row_ptr || !f->col_idx || !f->val) {
        csr_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d non-zeros", A->nnz);
    }
    memcpy(f->row_ptr, A->row_ptr, rp);
    memcpy(f->col_idx, A->col_idx, ci);
    memcpy(f->val, A->val, vb);
    spmvlab_status st = put_array(f, (void **)&f->d_row_ptr, f->row_ptr, rp, err);
    if (st == SPMVLAB_OK)
        st = put_array(f, (void **)&f->d_col_idx, f->col_idx, ci, err);
    if (st == SPMVLAB_OK)
        st = put_array(f, &f->d_val, f->val, vb, err);
    if (st != SPMVLAB_OK) {
        csr_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

static spmvlab_status csr_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    csr_format *f = handle;
    int rc = csr_launch(f->dtype == SPMVLAB_F64, f->width, f->rows, f->d_row_ptr, f->d_col_idx, f->d_val, x, y, stream);
    if (rc)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "kernel launch failed: %s", csr_error_string(rc));
    return SPMVLAB_OK;
}

/* The vector kernel's order: lane l sums entries l, l+W, ...; then the
 * shuffle tree adds lane l+s into lane l for s = W/2, ..., 1. */
#define CSR_HOST_ROW(T)                                                                        \
    static void csr_host_##T(const csr_format *f, const T *x, T *y)                            \
    {                                                                                          \
        const T *val = f->val;                                                                 \
        for (int32_t i = 0; i < f->rows; i++) {                                                \
            T lane[32] = {0};                                                                  \
            int w = f->width;                                                                  \
            for (int l = 0; l < w; l++) {                                                      \
                T s = 0;                                                                       \
                for (int32_t k = f->row_ptr[i] + l; k < f->row_ptr[i + 1]; k += w)             \
                    s += val[k] * x[f->col_idx[k]];                                            \
                lane[l] = s;                                                                   \
            }                                                                                  \
            for (int s = w / 2; s > 0; s /= 2)                                                 \
                for (int l = 0; l < s; l++)                                                    \
                    lane[l] += lane[l + s];                                                    \
            y[i] = lane[0];                                                                    \
        }                                                                                      \
    }
CSR_HOST_ROW(double)
CSR_HOST_ROW(float)

static spmvlab_status csr_spmv_host(const void *handle, const void *x, void *y, spmvlab_err *err)
{
    const csr_format *f = handle;
    if (f->dtype == SPMVLAB_F64)
        csr_host_double(f, x, y);
    else
        csr_host_float(f, x, y);
    return SPMVLAB_OK;
}

static size_t csr_footprint(const void *handle) { return ((const csr_format *)handle)->bytes; }

static void csr_describe(const void *handle, char *buf, size_t len)
{
    const csr_format *f = handle;
    snprintf(buf, len, "kernel=%s width=%d", f->width == 1 ? "scalar" : "vector", f->width);
}

static const spmvlab_plugin csr_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "csr",
    .summary = "compressed sparse row, scalar and vector kernels",
    .version = "1.0.0",
    .reference = "Bell & Garland, Implementing sparse matrix-vector multiplication on throughput-oriented processors, SC'09; PMPP 4th ed. ch. 14",
    .dtypes = SPMVLAB_DTYPES_F64_F32,
    .options = csr_options,
    .check_options = csr_check_options,
    .convert = csr_convert,
    .spmv = csr_spmv,
    .footprint = csr_footprint,
    .destroy = csr_destroy,
    .spmv_host = csr_spmv_host,
    .describe = csr_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &csr_plugin; }
