/*
 * cusparse — the vendor baselines: NVIDIA cuSPARSE's generic SpMV
 * (cusparseSpMV) on each of its storage families, one plugin with the
 * family as an option so every baseline shares one conversion path, one
 * error rule and one host check.
 *
 * Families (option `format`), layouts in cusparse_layout.h:
 *   csr   (default) CSR copy; alg1 = CUSPARSE_SPMV_CSR_ALG1 (default), alg2 =
 *         CSR_ALG2 (deterministic)
 *   coo   row indices beside CSR's columns; alg1/alg2 = COO_ALG1/COO_ALG2
 *   sell  Sliced-ELL (cusparseCreateSlicedEll, CUDA >= 12.1), `slice` rows
 *         per slice, natural row order, SELL_ALG1
 *   bsr   BSR (cusparseCreateBsr), b x b row-major blocks, BSR_ALG1; `block`
 *         = 2..8 or auto: the b whose BSR moves the fewest bytes,
 *         4(brows + 1) + (4 + s·b²)·nnzb, among those within max_fill
 * All arrays are built on the host (the host copies stay for spmv_host and
 * are uploaded as they are). sell and bsr refuse with LIMIT when their
 * stored values, padding included, pass max_fill x nnz.
 *
 * Option `values`: native (the run's dtype), or f32 — in an f64 run the
 * matrix is stored in f32 while x, y and the arithmetic stay f64 (the
 * documented mixed row "A CUDA_R_32F, X/Y/compute CUDA_R_64F" of
 * cusparseSpMV); the plugin declares the f32 storage so the core checks it
 * against the bound with storage rounding and the CSV says value_storage =
 * f32. In an f32 run values = f32 is the native layout; f16 runs refuse it.
 *
 * convert creates the handle and descriptors, sizes and allocates the
 * buffer and runs cusparseSpMV_preprocess; spmv rebinds x and y and calls
 * cusparseSpMV on the given stream (no allocation, no synchronisation).
 * dtypes: f64, f32, and f16 storage with f32 compute. Without a GPU only the
 * host layout is executed (spmv_host), in the same layout.
 */
#include <stdio.h>
#include <stdlib.h>

#include <spmvlab/plugin.h>

#include "../common/row_length.h"
#include "cusparse_device.h"
#include "cusparse_layout.h"

typedef struct cusparse_format {
    spmvlab_ctx *ctx;
    cusparse_layout L;   /* host arrays, executed by spmv_host */
    cusparse_device D;   /* device arrays and cuSPARSE objects */
    int alg;             /* CUSPARSE_ALGO_1 or _2 */
    int block_auto;      /* bsr: b chosen by the bytes rule */
} cusparse_format;

static const char *const family_names[] = {"csr", "coo", "sell", "bsr"};

static spmvlab_status cusparse_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const cusparse_opts *o = spmvlab_opts_fields(opts);
    int one_alg = o->format == CUSPARSE_FAMILY_SELL || o->format == CUSPARSE_FAMILY_BSR;
    return o->alg == CUSPARSE_ALGO_2 && one_alg
               ? spmvlab_bad_option(err, "cusparse option alg = alg2 applies to format = csr and coo; %s has one "
                                         "algorithm", family_names[o->format])
               : SPMVLAB_OK;
}

static void cusparse_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(cusparse_format, f, handle);
    cusparse_device_free(&f->D, f->ctx);
    cusparse_layout_free(&f->L);
    free(f);
}

/* The BSR block dimension: the option, or the b in 2..8 whose arrays are
 * smallest among those within max_fill. Returns OK, LIMIT or NOMEM. */
static spmvlab_status choose_block(spmvlab_ctx *ctx, const spmvlab_matrix *A, const cusparse_opts *o, size_t es,
                                   int *block, spmvlab_err *err)
{
    int lo = o->block == SPMVLAB_AUTO ? CUSPARSE_BSR_MIN : o->block;
    int hi = o->block == SPMVLAB_AUTO ? CUSPARSE_BSR_MAX : o->block;
    double best = 0, fill_lo = 0;
    *block = 0;
    for (int b = lo; b <= hi; b++) {
        int64_t nnzb = cusparse_bsr_count(A, b);
        if (nnzb < 0)
            return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory counting %dx%d blocks", b, b);
        double fill = A->nnz ? (double)nnzb * b * b / A->nnz : 0, bytes = cusparse_bsr_bytes(A, b, nnzb, es);
        if (b == lo)
            fill_lo = fill;
        if (fill <= o->max_fill && (!*block || bytes < best)) {
            *block = b;
            best = bytes;
        }
    }
    if (*block)
        return SPMVLAB_OK;
    if (lo == hi)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "BSR with %dx%d blocks stores %.2f values per non-zero, above max_fill = %g", lo, lo,
                         fill_lo, o->max_fill);
    return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                     "no block size from %d to %d keeps BSR within max_fill = %g (%dx%d blocks store %.2f values "
                     "per non-zero)", lo, hi, o->max_fill, lo, lo, fill_lo);
}

/* Refuses Sliced-ELL past max_fill, naming the longest row. */
static spmvlab_status check_sell_fill(spmvlab_ctx *ctx, const spmvlab_matrix *A, const cusparse_opts *o,
                                      spmvlab_err *err)
{
    int64_t stored = cusparse_sell_count(A, o->slice);
    double fill = A->nnz ? (double)stored / A->nnz : 0;
    if (fill <= o->max_fill)
        return SPMVLAB_OK;
    return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                     "Sliced-ELL with slice %d stores %.2f entries per non-zero (%lld for %d non-zeros, longest row "
                     "%d), above max_fill = %g",
                     o->slice, fill, (long long)stored, A->nnz, longest_row(A), o->max_fill);
}

static spmvlab_status cusparse_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                       void **out, spmvlab_err *err)
{
    *out = NULL;
    const cusparse_opts *o = spmvlab_opts_fields(opts);
    spmvlab_dtype storage = A->dtype;
    if (o->values == CUSPARSE_VALUES_F32) {
        if (A->dtype == SPMVLAB_F16)
            return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED,
                             "values = f32 stores f32 values for f64 (or f32) vectors, and this run is f16");
        storage = SPMVLAB_F32;
    }
    int block = 0;
    spmvlab_status st = SPMVLAB_OK;
    if (o->format == CUSPARSE_FAMILY_BSR)
        st = choose_block(ctx, A, o, spmvlab_dtype_size(storage), &block, err);
    else if (o->format == CUSPARSE_FAMILY_SELL)
        st = check_sell_fill(ctx, A, o, err);
    if (st != SPMVLAB_OK)
        return st;
    cusparse_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    f->ctx = ctx;
    f->alg = o->alg;
    f->block_auto = o->block == SPMVLAB_AUTO;
    char why[256];
    st = cusparse_layout_build(&f->L, A, (cusparse_family)o->format, storage, o->slice, block, why, sizeof why);
    if (st != SPMVLAB_OK) {
        free(f);
        return ctx->fail(ctx, err, st, "%s", why);
    }
    if (storage != A->dtype)
        ctx->declare_storage(ctx, storage);
    st = cusparse_device_upload(&f->D, ctx, &f->L, err);
    if (st == SPMVLAB_OK && ctx->device->present)
        st = cusparse_device_setup(&f->D, ctx, &f->L, f->alg == CUSPARSE_ALGO_2, err);
    if (st == SPMVLAB_OK)
        ctx->log(ctx, "cusparse: format=%s stored=%lld fill=%.4f block=%d", family_names[o->format],
                 (long long)f->L.n_val, cusparse_layout_fill(&f->L), block);
    return spmvlab_converted(st, f, cusparse_destroy, out);
}

static spmvlab_status cusparse_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    cusparse_format *f = handle;
    return cusparse_device_spmv(&f->D, f->ctx, &f->L, x, y, stream, err);
}

static void cusparse_host_f64(const cusparse_format *f, const double *x, double *y)
{
    cusparse_layout_spmv_f64(&f->L, x, y);
}
static void cusparse_host_f32(const cusparse_format *f, const float *x, float *y)
{
    cusparse_layout_spmv_f32(&f->L, x, y);
}
static void cusparse_host_f16(const cusparse_format *f, const uint16_t *x, uint16_t *y)
{
    cusparse_layout_spmv_f16(&f->L, x, y);
}
SPMVLAB_SPMV_HOST_F64_F32_F16(cusparse, cusparse_format, L.dtype)

static void cusparse_describe(const void *handle, char *buf, size_t len)
{
    static const char *const algs[2][4] = {{"csr_alg1", "coo_alg1", "sell_alg1", "bsr_alg1"},
                                           {"csr_alg2", "coo_alg2", "sell_alg1", "bsr_alg1"}};
    const cusparse_format *f = handle;
    const cusparse_layout *L = &f->L;
    int n = snprintf(buf, len, "format=%s alg=%s values=%s fill=%.4f", family_names[L->family],
                     algs[f->alg][L->family], L->storage == L->dtype ? "native" : "f32", cusparse_layout_fill(L));
    size_t used = n > 0 && (size_t)n < len ? (size_t)n : len - 1;
    if (L->family == CUSPARSE_FAMILY_SELL)
        n = snprintf(buf + used, len - used, " slice=%d", L->slice);
    else if (L->family == CUSPARSE_FAMILY_BSR)
        n = snprintf(buf + used, len - used, " block=%d block_rule=%s blocks=%lld staged=%s", L->block,
                     f->block_auto ? "auto" : "fixed", (long long)L->n_idx,
                     f->D.d_xpad ? (f->D.d_ypad ? "xy" : "x") : (f->D.d_ypad ? "y" : "none"));
    else
        n = 0;
    used += n > 0 && (size_t)n < len - used ? (size_t)n : 0;
    snprintf(buf + used, len - used, " cusparse_version=%d", f->D.version);
}

SPMVLAB_PLUGIN_DEFINE(cusparse, "2.0.0", SPMVLAB_DTYPES_F64_F32 | SPMVLAB_DTYPE_BIT(SPMVLAB_F16),
                      "NVIDIA cuSPARSE generic SpMV on CSR, COO, Sliced-ELL and BSR (vendor baselines)",
                      "NVIDIA cuSPARSE library, cusparseSpMV (CUDA Toolkit 13.0)",
                      .check_options = cusparse_check_options);
