/*
 * @NAME@ — a row-per-thread CSR format: the starting point of a new plugin.
 * (Written by `spmvlab new-plugin`; replace this block with your format's.)
 *
 * Layout: row_ptr[rows + 1], col_idx[nnz], val[nnz], as given; no padding.
 * Device bytes: 4(rows + 1) + (4 + sizeof(value))·nnz.
 * Kernel: one thread per row, `block_size` threads per block.
 * Options: block_size (32..1024, a multiple of 32).
 * Limits: dtypes f64 and f32; f16 is refused with SPMVLAB_UNSUPPORTED.
 * Paper: name the paper or book your format comes from here.
 *
 * The contract (core/include/spmvlab/plugin.h, docs/writing-a-plugin.md):
 *  - every device byte comes from ctx->dev_alloc (spmvlab_put allocates and
 *    uploads in one call), GPU or not: without a GPU the core hands out
 *    host memory, so `spmvlab check` still counts the format's bytes (the
 *    core reports them as the footprint) and finds leaks after destroy();
 *  - spmv_host runs the kernel's algorithm from the format's own host
 *    arrays, in the kernel's order: it is how the format is checked on a
 *    machine without a GPU;
 *  - errors are a status and one sentence through ctx->fail; a plugin never
 *    prints and never exits; no global mutable state.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

#include "@NAME@_kernels.h"

/* One instance's format: host copies (for spmv_host) and device copies. */
typedef struct @NAME@_format {
    spmvlab_ctx *ctx;               /* the core's services; valid until destroy */
    spmvlab_dtype dtype;            /* f64 or f32 */
    int32_t rows, cols, nnz;
    int block_size;                 /* threads per block of the kernel */
    int32_t *row_ptr, *col_idx;     /* host arrays, malloc'd */
    void *val;
    int32_t *d_row_ptr, *d_col_idx; /* device arrays, from ctx->dev_alloc */
    void *d_val;
} @NAME@_format;

/* The options as the core hands them over: one member a table row, already
 * parsed, checked against its range and defaulted. */
typedef struct @NAME@_opts {
    int block_size; /* threads per block of the kernel */
} @NAME@_opts;

/* The options table: the core parses INI and --set values against it,
 * fills the members of @NAME@_opts and prints it in `spmvlab list -v`. */
static const spmvlab_option @NAME@_options[] = {
    {"block_size", SPMVLAB_OPT_INT, "256", 32, 1024, NULL, "threads per block (a multiple of 32)",
     SPMVLAB_FIELD(@NAME@_opts, block_size)},
    {NULL},
};

/* Checks what the table cannot say; runs once per configuration, before
 * any matrix. Returns INVALID_OPTION with a sentence. */
static spmvlab_status @NAME@_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const @NAME@_opts *o = spmvlab_opts_fields(opts);
    if (o->block_size % 32 != 0) {
        snprintf(err->msg, sizeof err->msg, "@NAME@ option block_size = %d must be a multiple of 32", o->block_size);
        return SPMVLAB_INVALID_OPTION;
    }
    return SPMVLAB_OK;
}

/* Frees everything convert made; safe on a half-built format. */
static void @NAME@_destroy(void *handle)
{
    @NAME@_format *f = handle;
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

/* Builds the format from the CSR input A (host arrays). On failure frees
 * everything and leaves *out NULL. */
static spmvlab_status @NAME@_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                     void **out, spmvlab_err *err)
{
    const @NAME@_opts *o = spmvlab_opts_fields(opts);
    *out = NULL;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "@NAME@ supports f64 and f32 only");
    @NAME@_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = A->nnz;
    f->block_size = o->block_size;
    size_t rp = ((size_t)A->rows + 1) * sizeof(int32_t), ci = (size_t)A->nnz * sizeof(int32_t),
           vb = (size_t)A->nnz * spmvlab_dtype_size(A->dtype);
    /* malloc(0) may return NULL: ask for at least one byte. */
    f->row_ptr = malloc(rp);
    f->col_idx = malloc(ci ? ci : 1);
    f->val = malloc(vb ? vb : 1);
    if (!f->row_ptr || !f->col_idx || !f->val) {
        @NAME@_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d non-zeros", A->nnz);
    }
    memcpy(f->row_ptr, A->row_ptr, rp);
    memcpy(f->col_idx, A->col_idx, ci);
    memcpy(f->val, A->val, vb);
    /* Allocate and upload through the core, which counts the bytes; 0 bytes
     * give NULL and OK, so an empty matrix needs no special case. */
    spmvlab_status st = spmvlab_put(ctx, (void **)&f->d_row_ptr, f->row_ptr, rp, err);
    if (st == SPMVLAB_OK)
        st = spmvlab_put(ctx, (void **)&f->d_col_idx, f->col_idx, ci, err);
    if (st == SPMVLAB_OK)
        st = spmvlab_put(ctx, &f->d_val, f->val, vb, err);
    if (st != SPMVLAB_OK) {
        @NAME@_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

/* y = A·x on the device: asynchronous on stream, no sync, no allocation. */
static spmvlab_status @NAME@_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    @NAME@_format *f = handle;
    int rc = @NAME@_launch(f->dtype == SPMVLAB_F64, f->block_size, f->rows, f->d_row_ptr, f->d_col_idx, f->d_val,
                           x, y, stream);
    if (rc)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "kernel launch failed: %s", @NAME@_error_string(rc));
    return SPMVLAB_OK;
}

/* The kernel's algorithm on the CPU: one "thread" per row, the same
 * multiply-add (fma) in the same order, so results match the GPU's bits.
 * Every row is written, empty ones too. */
static void @NAME@_host_f64(const @NAME@_format *f, const double *x, double *y)
{
    const double *val = f->val;
    for (int32_t i = 0; i < f->rows; i++) {
        double sum = 0;
        for (int32_t k = f->row_ptr[i]; k < f->row_ptr[i + 1]; k++)
            sum = fma(val[k], x[f->col_idx[k]], sum);
        y[i] = sum;
    }
}

static void @NAME@_host_f32(const @NAME@_format *f, const float *x, float *y)
{
    const float *val = f->val;
    for (int32_t i = 0; i < f->rows; i++) {
        float sum = 0;
        for (int32_t k = f->row_ptr[i]; k < f->row_ptr[i + 1]; k++)
            sum = fmaf(val[k], x[f->col_idx[k]], sum);
        y[i] = sum;
    }
}

/* @NAME@_spmv_host: calls the function above that matches f->dtype. */
SPMVLAB_SPMV_HOST_F64_F32(@NAME@, @NAME@_format, dtype)

/* Facts about one conversion, "key=value" separated by spaces. */
static void @NAME@_describe(const void *handle, char *buf, size_t len)
{
    const @NAME@_format *f = handle;
    snprintf(buf, len, "block_size=%d mean_row=%.2f", f->block_size, f->rows ? (double)f->nnz / f->rows : 0.0);
}

static const spmvlab_plugin @NAME@_plugin = {
    SPMVLAB_PLUGIN_HEADER, /* ABI version and struct sizes, checked by the loader */
    .name = "@NAME@", /* must match the file: libspmvlab_@NAME@.so */
    .summary = "row-per-thread CSR (a new plugin)",
    .version = "0.1.0",
    .reference = "the paper this format comes from",
    .dtypes = SPMVLAB_DTYPES_F64_F32,
    .options = @NAME@_options,
    .options_size = sizeof(@NAME@_opts),
    .check_options = @NAME@_check_options,
    .convert = @NAME@_convert,
    .spmv = @NAME@_spmv,
    /* no .footprint: the core reports the live bytes of ctx->dev_alloc */
    .destroy = @NAME@_destroy,
    .spmv_host = @NAME@_spmv_host,
    .describe = @NAME@_describe,
};

/* The one exported symbol (the build hides everything else). */
SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &@NAME@_plugin; }
