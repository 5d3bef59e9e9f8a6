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

/* The options table: the core parses INI and --option values against it,
 * fills the members of @NAME@_opts and prints it in `spmvlab list -v`. Every
 * row has six columns: SPMVLAB_OPTION(struct, member, type, "default",
 * "range", "help"), the key being the member's name and the range "lo..hi"
 * for numbers, "" otherwise. An SPMVLAB_OPT_ENUM row is followed by one
 * SPMVLAB_CHOICE(struct, member, NAMED_CONSTANT, "name", "", "a few words")
 * row per choice; the member receives the constant. At most 8 rows shown,
 * helps of at most 120 characters: knobs for experiments are SPMVLAB_EXPERT
 * rows (plugin_helpers.h). */
static const spmvlab_option @NAME@_options[] = {
    SPMVLAB_OPTION(@NAME@_opts, block_size, SPMVLAB_OPT_INT, "256", "32..1024", "threads per block (a multiple of 32)"),
    {NULL},
};

/* Checks what the table cannot say; runs once per configuration, before
 * any matrix. Returns INVALID_OPTION with a sentence. */
static spmvlab_status @NAME@_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const @NAME@_opts *o = spmvlab_opts_fields(opts);
    if (o->block_size % 32 != 0)
        return spmvlab_bad_option(err, "@NAME@ option block_size = %d must be a multiple of 32", o->block_size);
    return SPMVLAB_OK;
}

/* Frees everything convert made; safe on a half-built format (NULL
 * pointers are skipped). */
static void @NAME@_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(@NAME@_format, f, handle); /* f = handle; returns when NULL */
    void *const dev[] = {f->d_row_ptr, f->d_col_idx, f->d_val}, *const host[] = {f->row_ptr, f->col_idx, f->val};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Builds the format from the CSR input A (host arrays). On failure frees
 * everything and leaves *out NULL. */
static spmvlab_status @NAME@_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                     void **out, spmvlab_err *err)
{
    const @NAME@_opts *o = spmvlab_opts_fields(opts);
    /* Refuses a dtype the plugin does not declare (UNSUPPORTED), then
     * declares f, a zeroed format with ctx, dtype, rows, cols and nnz set. */
    SPMVLAB_CONVERT_BEGIN(@NAME@_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
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
    const spmvlab_array arrays[] = {
        {(void **)&f->d_row_ptr, f->row_ptr, rp},
        {(void **)&f->d_col_idx, f->col_idx, ci},
        {&f->d_val, f->val, vb},
    };
    /* On OK hands f out in *out, else destroys it. */
    return spmvlab_converted(spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err), f, @NAME@_destroy, out);
}

/* y = A·x on the device: asynchronous on stream, no sync, no allocation. */
static spmvlab_status @NAME@_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    @NAME@_format *f = handle;
    int rc = @NAME@_launch(f->dtype == SPMVLAB_F64, f->block_size, f->rows, f->d_row_ptr, f->d_col_idx, f->d_val,
                           x, y, stream);
    return spmvlab_launched(f->ctx, err, rc, @NAME@_error_string, "kernel launch");
}

/* The kernel's algorithm on the CPU, written once for a value type T and
 * its multiply-add FMA: one "thread" per row, the same fma in the same
 * order, so results match the GPU's bits. Every row is written, empty ones
 * too. */
#define @NAME_UPPER@_HOST(T, FMA, SUFFIX)                                      \
    static void @NAME@_host_##SUFFIX(const @NAME@_format *f, const T *x, T *y) \
    {                                                                          \
        const T *val = f->val;                                                 \
        for (int32_t i = 0; i < f->rows; i++) {                                \
            T sum = 0;                                                         \
            for (int32_t k = f->row_ptr[i]; k < f->row_ptr[i + 1]; k++)        \
                sum = FMA(val[k], x[f->col_idx[k]], sum);                      \
            y[i] = sum;                                                        \
        }                                                                      \
    }

/* @NAME@_host_f64 (double, fma) and @NAME@_host_f32 (float, fmaf), then
 * @NAME@_spmv_host calling the one that matches f->dtype. */
SPMVLAB_SPMV_HOST_FMA_F64_F32(@NAME@, @NAME@_format, @NAME_UPPER@_HOST)

/* Facts about one conversion, "key=value" separated by spaces. */
static void @NAME@_describe(const void *handle, char *buf, size_t len)
{
    const @NAME@_format *f = handle;
    snprintf(buf, len, "block_size=%d mean_row=%.2f", f->block_size, f->rows ? (double)f->nnz / f->rows : 0.0);
}

/* The descriptor and the one exported symbol (the build hides everything
 * else): the ABI version and struct sizes the loader checks, the name
 * "@NAME@" (it must match the file libspmvlab_@NAME@.so), the options and
 * the calls above by their @NAME@_ names, then the version, the dtypes, a
 * one-line summary, the reference and the optional members. Without
 * .footprint the core reports the live bytes of ctx->dev_alloc. */
SPMVLAB_PLUGIN_DEFINE(@NAME@, "0.1.0", SPMVLAB_DTYPES_F64_F32, "row-per-thread CSR (a new plugin)",
                      "the paper this format comes from", .check_options = @NAME@_check_options);
