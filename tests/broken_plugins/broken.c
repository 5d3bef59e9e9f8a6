/*
 * Deliberately broken plugins for the tests of `spmvlab check`: a plain CSR
 * format, correct unless one BROKEN_* macro is defined, each breaking one
 * rule of the ABI the way real plugins get it wrong:
 *
 *   BROKEN_FOOTPRINT  footprint() forgets the row pointers
 *   BROKEN_LEAK       destroy() forgets to free the values
 *   BROKEN_ROWS       spmv_host skips empty rows (y keeps its old content)
 *   BROKEN_EMPTY      convert dereferences col_idx[0] even when nnz == 0
 *   BROKEN_HANG       spmv_host never returns on a matrix with one row
 *   BROKEN_GLOBAL     a scratch buffer shared by all instances, freed by
 *                     any destroy() (two instances cannot coexist)
 *   BROKEN_DTYPE      declares f64 only but accepts any dtype
 *
 * BROKEN_NAME is the plugin's name. There are no kernels: these plugins are
 * checked on the CPU only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

typedef struct broken_format {
    spmvlab_ctx *ctx;
    int32_t rows, nnz;
    int32_t *row_ptr, *col_idx; /* host copies */
    double *val;
    void *d_row_ptr, *d_col_idx, *d_val; /* tracked "device" copies */
    size_t bytes;
} broken_format;

#ifdef BROKEN_GLOBAL
static double *broken_scratch; /* the bug: one buffer for every instance */
#define BROKEN_GONE ((double *)(uintptr_t)16)
#endif

static void broken_destroy(void *handle)
{
    broken_format *f = handle;
    if (!f)
        return;
    f->ctx->dev_free(f->ctx, f->d_row_ptr);
    f->ctx->dev_free(f->ctx, f->d_col_idx);
#ifndef BROKEN_LEAK
    f->ctx->dev_free(f->ctx, f->d_val);
#endif
#ifdef BROKEN_GLOBAL
    /* Another instance still using the buffer now writes to an unmapped
     * address (small and non-null, so the fault is a real segfault). */
    if (broken_scratch != BROKEN_GONE)
        free(broken_scratch);
    broken_scratch = BROKEN_GONE;
#endif
    free(f->row_ptr);
    free(f->col_idx);
    free(f->val);
    free(f);
}

static spmvlab_status put(broken_format *f, void **dst, const void *src, size_t bytes, spmvlab_err *err)
{
    spmvlab_status st = f->ctx->dev_alloc(f->ctx, dst, bytes, err);
    if (st == SPMVLAB_OK)
        st = f->ctx->upload(f->ctx, *dst, src, bytes, err);
    if (st == SPMVLAB_OK)
        f->bytes += bytes;
    return st;
}

static spmvlab_status broken_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                     void **out, spmvlab_err *err)
{
    (void)opts;
    *out = NULL;
#ifndef BROKEN_DTYPE
    if (A->dtype != SPMVLAB_F64)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "this plugin supports f64 only");
#endif
#ifdef BROKEN_EMPTY
    /* "The first column" without asking whether there is one: with nnz == 0
     * it reads an unmapped address (a small non-null one, so that sanitizers
     * let the fault be the real segfault; volatile so the read stays). */
    const int32_t *volatile first = A->nnz ? A->col_idx : (const int32_t *)(uintptr_t)16;
    if (first[0] < 0)
        return ctx->fail(ctx, err, SPMVLAB_INTERNAL, "negative column index");
#endif
    broken_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    f->ctx = ctx;
    f->rows = A->rows;
    f->nnz = A->nnz;
    size_t rp = ((size_t)A->rows + 1) * sizeof(int32_t), ci = (size_t)A->nnz * sizeof(int32_t),
           vb = (size_t)A->nnz * sizeof(double);
    f->row_ptr = malloc(rp);
    f->col_idx = malloc(ci ? ci : 1);
    f->val = malloc(vb ? vb : 1);
#ifdef BROKEN_GLOBAL
    if (broken_scratch != BROKEN_GONE)
        free(broken_scratch);
    broken_scratch = malloc(((size_t)A->rows + 1) * sizeof *broken_scratch);
#endif
    if (!f->row_ptr || !f->col_idx || !f->val) {
        broken_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    }
    memcpy(f->row_ptr, A->row_ptr, rp);
    memcpy(f->col_idx, A->col_idx, ci);
    for (int32_t k = 0; k < A->nnz; k++) /* every dtype read as f64: right only for f64 */
        f->val[k] = A->dtype == SPMVLAB_F64 ? ((const double *)A->val)[k] : 0.0;
    spmvlab_status st = put(f, &f->d_row_ptr, f->row_ptr, rp, err);
    if (st == SPMVLAB_OK)
        st = put(f, &f->d_col_idx, f->col_idx, ci, err);
    if (st == SPMVLAB_OK)
        st = put(f, &f->d_val, f->val, vb, err);
    if (st != SPMVLAB_OK) {
        broken_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

static spmvlab_status broken_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    broken_format *f = handle;
    (void)x, (void)y, (void)stream;
    return f->ctx->fail(f->ctx, err, SPMVLAB_UNSUPPORTED, "this test plugin has no kernels");
}

static spmvlab_status broken_spmv_host(const void *handle, const void *xv, void *yv, spmvlab_err *err)
{
    const broken_format *f = handle;
    const double *x = xv;
    double *y = yv;
    (void)err;
#ifdef BROKEN_HANG
    while (*(const volatile int32_t *)&f->rows == 1)
        ;
#endif
    for (int32_t i = 0; i < f->rows; i++) {
#ifdef BROKEN_ROWS
        if (f->row_ptr[i] == f->row_ptr[i + 1])
            continue;
#endif
        double s = 0;
        for (int32_t k = f->row_ptr[i]; k < f->row_ptr[i + 1]; k++)
            s += f->val[k] * x[f->col_idx[k]];
#ifdef BROKEN_GLOBAL
        broken_scratch[i] = s;
        s = broken_scratch[i];
#endif
        y[i] = s;
    }
    return SPMVLAB_OK;
}

static size_t broken_footprint(const void *handle)
{
    const broken_format *f = handle;
#ifdef BROKEN_FOOTPRINT
    return f->bytes - ((size_t)f->rows + 1) * sizeof(int32_t);
#else
    return f->bytes;
#endif
}

static const spmvlab_plugin broken_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = BROKEN_NAME,
    .summary = "a CSR plugin broken on purpose, for the tests of spmvlab check",
    .version = "0.0.1",
    .reference = "none",
    .dtypes = SPMVLAB_DTYPE_BIT(SPMVLAB_F64),
    .options = NULL,
    .convert = broken_convert,
    .spmv = broken_spmv,
    .footprint = broken_footprint,
    .destroy = broken_destroy,
    .spmv_host = broken_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &broken_plugin; }
