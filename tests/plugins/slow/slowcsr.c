/*
 * slowcsr — a test plugin for the harness, not a format: CSR (lanes per row
 * as csr's vector kernel, width from the mean row length) plus
 *   slowdown = f   makes every SpMV slower by about the fraction f while the
 *                  result stays exact, in one of two ways (option planted):
 *                  delay    (default) after the SpMV one thread spins for f
 *                           x the SpMV's own time, measured at conversion
 *                           (back-to-back calls) and turned into SM clock
 *                           cycles; the slowdown is f whatever the matrix's
 *                           structure (long rows included).
 *                  traffic  a second pass repeats the SpMV's loads for f x nnz
 *                           non-zeros: f x the memory traffic, which is f x
 *                           the time only for balanced, memory-bound rows.
 *                  The A/B validation must find f = 0.05.
 *   fault = ...    crash (segfault in convert), abort, hang (convert never
 *                  returns), wrong (y[0] off by one), nomem (convert
 *                  refuses with oom): what --isolate and the checks must
 *                  turn into statuses.
 * Built by the tests only; never installed.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <spmvlab/plugin.h>

#include "slowcsr_kernels.h"

typedef struct slowcsr_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;
    int32_t rows, cols, nnz;
    int width;
    int64_t extra;                  /* planted products per SpMV (traffic) */
    long long delay_cycles;         /* planted spin per SpMV (delay) */
    double kernel_ms, cycles_per_ms; /* the calibration behind delay_cycles */
    int wrong;
    int32_t *row_ptr, *col_idx;     /* host copies */
    void *val;
    int32_t *d_row_ptr, *d_col_idx; /* device */
    void *d_val, *d_sink;
    size_t bytes;
} slowcsr_format;

static const spmvlab_option slowcsr_options[] = {
    {"slowdown", SPMVLAB_OPT_FLOAT, "0", 0, 4, NULL, "extra work per SpMV as a fraction of the non-zeros", 0, 0, NULL, 0, 0, NULL},
    {"planted", SPMVLAB_OPT_ENUM, "delay", 0, 0, "delay|traffic", "how the slowdown is made: a spin after the SpMV, or extra loads", 0, 0, NULL, 0, 0, NULL},
    {"fault", SPMVLAB_OPT_ENUM, "none", 0, 0, "none|crash|abort|hang|wrong|nomem", "planted failure", 0, 0, NULL, 0, 0, NULL},
    {NULL},
};

static void slowcsr_destroy(void *handle)
{
    slowcsr_format *f = handle;
    if (!f)
        return;
    f->ctx->dev_free(f->ctx, f->d_row_ptr);
    f->ctx->dev_free(f->ctx, f->d_col_idx);
    f->ctx->dev_free(f->ctx, f->d_val);
    f->ctx->dev_free(f->ctx, f->d_sink);
    free(f->row_ptr);
    free(f->col_idx);
    free(f->val);
    free(f);
}

static spmvlab_status put_array(slowcsr_format *f, void **dst, const void *src, size_t bytes, spmvlab_err *err)
{
    return spmvlab_dev_put(f->ctx, dst, src, bytes, &f->bytes, err);
}

/* Times the row kernel on scratch x and y (all ones) and the SM clock, and
 * sets the spin to slowdown x the kernel's time. */
static spmvlab_status calibrate_delay(slowcsr_format *f, double slowdown, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    size_t vs = spmvlab_dtype_size(f->dtype), xb = (size_t)f->cols * vs, yb = (size_t)f->rows * vs;
    void *hx = malloc(xb ? xb : 1), *dx = NULL, *dy = NULL;
    if (!hx)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    for (int32_t j = 0; j < f->cols; j++)
        if (f->dtype == SPMVLAB_F64)
            ((double *)hx)[j] = 1;
        else
            ((float *)hx)[j] = 1;
    spmvlab_status st = ctx->dev_alloc(ctx, &dx, xb, err);
    if (st == SPMVLAB_OK)
        st = ctx->dev_alloc(ctx, &dy, yb, err);
    if (st == SPMVLAB_OK)
        st = ctx->upload(ctx, dx, hx, xb, err);
    if (st == SPMVLAB_OK) {
        int rc = slowcsr_calibrate(f->dtype == SPMVLAB_F64, f->width, f->rows, f->d_row_ptr, f->d_col_idx, f->d_val, dx,
                                   dy, ctx->stream, &f->kernel_ms, &f->cycles_per_ms);
        if (rc)
            st = ctx->fail(ctx, err, SPMVLAB_CUDA_ERROR, "calibrating the delay: %s", slowcsr_error_string(rc));
        else
            f->delay_cycles = (long long)(slowdown * f->kernel_ms * f->cycles_per_ms + 0.5);
    }
    ctx->dev_free(ctx, dx);
    ctx->dev_free(ctx, dy);
    free(hx);
    return st;
}

static spmvlab_status slowcsr_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                      spmvlab_err *err)
{
    *out = NULL;
    const char *fault = spmvlab_opt_str(opts, "fault");
    if (strcmp(fault, "crash") == 0)
        raise(SIGSEGV);
    if (strcmp(fault, "abort") == 0)
        abort();
    if (strcmp(fault, "hang") == 0)
        for (;;)
            sleep(1);
    if (strcmp(fault, "nomem") == 0)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "planted failure: out of memory");
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "slowcsr supports f64 and f32 only");
    slowcsr_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = A->nnz;
    f->wrong = strcmp(fault, "wrong") == 0;
    double slowdown = spmvlab_opt_float(opts, "slowdown");
    int delay = strcmp(spmvlab_opt_str(opts, "planted"), "delay") == 0;
    f->extra = delay ? 0 : (int64_t)(slowdown * A->nnz + 0.5);
    double mean = A->rows ? (double)A->nnz / A->rows : 0;
    f->width = 1;
    while (f->width < 32 && f->width < mean)
        f->width *= 2;
    size_t vs = spmvlab_dtype_size(A->dtype), rp = ((size_t)A->rows + 1) * 4, ci = (size_t)A->nnz * 4,
           vb = (size_t)A->nnz * vs;
    f->row_ptr = malloc(rp);
    f->col_idx = malloc(ci ? ci : 1);
    f->val = malloc(vb ? vb : 1);
    if (!f->row_ptr || !f->col_idx || !f->val) {
        slowcsr_destroy(f);
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
    if (st == SPMVLAB_OK && f->extra > 0)
        st = put_array(f, &f->d_sink, NULL, vs, err);
    if (st == SPMVLAB_OK && delay && slowdown > 0 && ctx->device->present)
        st = calibrate_delay(f, slowdown, err);
    if (st != SPMVLAB_OK) {
        slowcsr_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

static spmvlab_status slowcsr_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    slowcsr_format *f = handle;
    int rc = slowcsr_launch(f->dtype == SPMVLAB_F64, f->width, f->rows, f->nnz, f->d_row_ptr, f->d_col_idx, f->d_val,
                            x, y, f->extra, f->wrong, f->d_sink, stream);
    if (!rc)
        rc = slowcsr_delay(f->delay_cycles, stream);
    if (rc)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "kernel launch failed: %s", slowcsr_error_string(rc));
    return SPMVLAB_OK;
}

/* The kernel's order: lane l sums entries l, l+W, ...; then a tree adds
 * lane l+s into lane l for s = W/2, ..., 1. The planted pass changes no
 * result, so the host skips it. */
#define SLOWCSR_HOST(T)                                                                     \
    static void slowcsr_host_##T(const slowcsr_format *f, const T *x, T *y)                 \
    {                                                                                       \
        const T *val = f->val;                                                              \
        for (int32_t i = 0; i < f->rows; i++) {                                             \
            T lane[32] = {0};                                                               \
            for (int l = 0; l < f->width; l++)                                              \
                for (int32_t k = f->row_ptr[i] + l; k < f->row_ptr[i + 1]; k += f->width)   \
                    lane[l] += val[k] * x[f->col_idx[k]];                                   \
            for (int s = f->width / 2; s > 0; s /= 2)                                       \
                for (int l = 0; l < s; l++)                                                 \
                    lane[l] += lane[l + s];                                                 \
            y[i] = lane[0] + (f->wrong && i == 0 ? (T)1 : (T)0);                            \
        }                                                                                   \
    }
SLOWCSR_HOST(double)
SLOWCSR_HOST(float)

static spmvlab_status slowcsr_spmv_host(const void *handle, const void *x, void *y, spmvlab_err *err)
{
    const slowcsr_format *f = handle;
    (void)err;
    if (f->dtype == SPMVLAB_F64)
        slowcsr_host_double(f, x, y);
    else
        slowcsr_host_float(f, x, y);
    return SPMVLAB_OK;
}

static size_t slowcsr_footprint(const void *handle) { return ((const slowcsr_format *)handle)->bytes; }

static void slowcsr_describe(const void *handle, char *buf, size_t len)
{
    const slowcsr_format *f = handle;
    snprintf(buf, len, "width=%d extra_products=%lld delay_cycles=%lld kernel_ms=%.4g", f->width, (long long)f->extra,
             f->delay_cycles, f->kernel_ms);
}

static const spmvlab_plugin slowcsr_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "slowcsr",
    .summary = "test plugin: csr with a planted slowdown and planted faults",
    .version = "1.0.0",
    .reference = "spmvlab harness validation (docs/methodology.md)",
    .dtypes = SPMVLAB_DTYPES_F64_F32,
    .options = slowcsr_options,
    .convert = slowcsr_convert,
    .spmv = slowcsr_spmv,
    .footprint = slowcsr_footprint,
    .destroy = slowcsr_destroy,
    .spmv_host = slowcsr_spmv_host,
    .describe = slowcsr_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &slowcsr_plugin; }
