/*
 * cusparse — the vendor baseline: NVIDIA cuSPARSE's generic SpMV.
 *
 * Layout: a CSR copy (row_ptr, col_idx, val), plus row indices for the COO
 * algorithms, plus cuSPARSE's external work buffer (sized by
 * cusparseSpMV_bufferSize, allocated at conversion through the tracked
 * allocator, filled by cusparseSpMV_preprocess). spmv() only rebinds x and y
 * and calls cusparseSpMV on the given stream: no allocation, no sync.
 * Option `alg`: csr_alg1 (default), csr_alg2, coo_alg1, coo_alg2.
 * dtypes: f64, f32, and f16 storage with f32 compute.
 * Without a GPU only host arrays are kept and spmv_host runs a row-by-row
 * CSR product (f16 accumulated in f32), which is what the vendor format is.
 */
#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

typedef struct cusparse_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;
    int32_t rows, cols, nnz;
    int alg;                      /* index into alg_names */
    int32_t *row_ptr, *col_idx;   /* host copies for spmv_host */
    void *val;
    void *d_row_ptr, *d_row_idx, *d_col_idx, *d_val, *d_buffer;
    size_t bytes;
    cusparseHandle_t handle;
    cusparseSpMatDescr_t mat;
    cusparseDnVecDescr_t vx, vy;
    void *x_bound, *y_bound;      /* pointers the vector descriptors hold */
} cusparse_format;

static const char *const alg_names[] = {"csr_alg1", "csr_alg2", "coo_alg1", "coo_alg2"};
static const cusparseSpMVAlg_t alg_values[] = {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2,
                                               CUSPARSE_SPMV_COO_ALG1, CUSPARSE_SPMV_COO_ALG2};

static const spmvlab_option cusparse_options[] = {
    {"alg", SPMVLAB_OPT_ENUM, "csr_alg1", 0, 0, "csr_alg1|csr_alg2|coo_alg1|coo_alg2", "cusparseSpMV algorithm"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static cudaDataType value_type(spmvlab_dtype d)
{
    return d == SPMVLAB_F64 ? CUDA_R_64F : d == SPMVLAB_F32 ? CUDA_R_32F : CUDA_R_16F;
}

static cudaDataType compute_type(spmvlab_dtype d) { return d == SPMVLAB_F64 ? CUDA_R_64F : CUDA_R_32F; }

static void cusparse_destroy(void *handle)
{
    cusparse_format *f = handle;
    if (!f)
        return;
    if (f->mat)
        cusparseDestroySpMat(f->mat);
    if (f->vx)
        cusparseDestroyDnVec(f->vx);
    if (f->vy)
        cusparseDestroyDnVec(f->vy);
    if (f->handle)
        cusparseDestroy(f->handle);
    spmvlab_ctx *c = f->ctx;
    c->dev_free(c, f->d_row_ptr);
    c->dev_free(c, f->d_row_idx);
    c->dev_free(c, f->d_col_idx);
    c->dev_free(c, f->d_val);
    c->dev_free(c, f->d_buffer);
    free(f->row_ptr);
    free(f->col_idx);
    free(f->val);
    free(f);
}

static spmvlab_status put_array(cusparse_format *f, void **dst, const void *src, size_t bytes, spmvlab_err *err)
{
    return spmvlab_dev_put(f->ctx, dst, src, bytes, &f->bytes, err);
}

#define CUSPARSE_TRY(call)                                                                                  \
    do {                                                                                                    \
        cusparseStatus_t s_ = (call);                                                                       \
        if (s_ != CUSPARSE_STATUS_SUCCESS)                                                                  \
            return ctx->fail(ctx, err, s_ == CUSPARSE_STATUS_ALLOC_FAILED ? SPMVLAB_NOMEM : SPMVLAB_CUDA_ERROR, \
                             "%s failed: %s", #call, cusparseGetErrorString(s_));                           \
    } while (0)

/* The cuSPARSE objects, buffer and preprocessing on the device. */
static spmvlab_status setup_device(cusparse_format *f, spmvlab_ctx *ctx, spmvlab_err *err)
{
    int coo = f->alg >= 2;
    size_t vs = spmvlab_dtype_size(f->dtype);
    CUSPARSE_TRY(cusparseCreate(&f->handle));
    CUSPARSE_TRY(cusparseSetStream(f->handle, (cudaStream_t)ctx->stream));
    /* cuSPARSE refuses zero-sized dense vectors' NULL pointers poorly:
     * x and y are bound to real pointers before each call. */
    if (coo)
        CUSPARSE_TRY(cusparseCreateCoo(&f->mat, f->rows, f->cols, f->nnz, f->d_row_idx, f->d_col_idx, f->d_val,
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, value_type(f->dtype)));
    else
        CUSPARSE_TRY(cusparseCreateCsr(&f->mat, f->rows, f->cols, f->nnz, f->d_row_ptr, f->d_col_idx, f->d_val,
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                       value_type(f->dtype)));
    /* Temporary vectors for sizing and preprocessing; rebound in spmv. */
    void *tx = NULL, *ty = NULL;
    spmvlab_status st = ctx->dev_alloc(ctx, &tx, ((size_t)f->cols + 1) * vs, err);
    if (st == SPMVLAB_OK)
        st = ctx->dev_alloc(ctx, &ty, ((size_t)f->rows + 1) * vs, err);
    if (st != SPMVLAB_OK) {
        ctx->dev_free(ctx, tx);
        return st;
    }
    cusparseStatus_t s = cusparseCreateDnVec(&f->vx, f->cols, tx, value_type(f->dtype));
    if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseCreateDnVec(&f->vy, f->rows, ty, value_type(f->dtype));
    double one64 = 1.0, zero64 = 0.0;
    float one32 = 1.0f, zero32 = 0.0f;
    const void *alpha = f->dtype == SPMVLAB_F64 ? (const void *)&one64 : (const void *)&one32;
    const void *beta = f->dtype == SPMVLAB_F64 ? (const void *)&zero64 : (const void *)&zero32;
    size_t buffer = 0;
    if (s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseSpMV_bufferSize(f->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, f->mat, f->vx, beta, f->vy,
                                    compute_type(f->dtype), alg_values[f->alg], &buffer);
    if (s == CUSPARSE_STATUS_SUCCESS && buffer)
        st = put_array(f, &f->d_buffer, NULL, buffer, err);
    if (s == CUSPARSE_STATUS_SUCCESS && st == SPMVLAB_OK && f->nnz > 0)
        s = cusparseSpMV_preprocess(f->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, f->mat, f->vx, beta, f->vy,
                                    compute_type(f->dtype), alg_values[f->alg], f->d_buffer);
    if (s == CUSPARSE_STATUS_SUCCESS && st == SPMVLAB_OK)
        cudaStreamSynchronize((cudaStream_t)ctx->stream);
    ctx->dev_free(ctx, tx);
    ctx->dev_free(ctx, ty);
    f->x_bound = f->y_bound = NULL;
    if (st != SPMVLAB_OK)
        return st;
    if (s != CUSPARSE_STATUS_SUCCESS)
        return ctx->fail(ctx, err, s == CUSPARSE_STATUS_NOT_SUPPORTED ? SPMVLAB_UNSUPPORTED : SPMVLAB_CUDA_ERROR,
                         "cuSPARSE %s setup failed: %s", alg_names[f->alg], cusparseGetErrorString(s));
    return SPMVLAB_OK;
}

static spmvlab_status cusparse_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                       void **out, spmvlab_err *err)
{
    *out = NULL;
    cusparse_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = A->nnz;
    f->alg = (int)spmvlab_opt_int(opts, "alg");
    size_t vs = spmvlab_dtype_size(A->dtype), rp = ((size_t)A->rows + 1) * 4, ci = (size_t)A->nnz * 4,
           vb = (size_t)A->nnz * vs;
    f->row_ptr = malloc(rp);
    f->col_idx = malloc(ci ? ci : 1);
    f->val = malloc(vb ? vb : 1);
    int32_t *row_idx = f->alg >= 2 ? malloc(ci ? ci : 1) : NULL;
    if (!f->row_ptr || !f->col_idx || !f->val || (f->alg >= 2 && !row_idx)) {
        free(row_idx);
        cusparse_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d non-zeros", A->nnz);
    }
    memcpy(f->row_ptr, A->row_ptr, rp);
    memcpy(f->col_idx, A->col_idx, ci);
    memcpy(f->val, A->val, vb);
    spmvlab_status st = SPMVLAB_OK;
    if (row_idx) {
        for (int32_t i = 0; i < A->rows; i++)
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
                row_idx[k] = i;
        st = put_array(f, &f->d_row_idx, row_idx, ci, err);
        free(row_idx);
    } else {
        st = put_array(f, &f->d_row_ptr, f->row_ptr, rp, err);
    }
    if (st == SPMVLAB_OK)
        st = put_array(f, &f->d_col_idx, f->col_idx, ci, err);
    if (st == SPMVLAB_OK)
        st = put_array(f, &f->d_val, f->val, vb, err);
    if (st == SPMVLAB_OK && ctx->device->present && A->rows > 0 && A->cols > 0)
        st = setup_device(f, ctx, err);
    if (st != SPMVLAB_OK) {
        cusparse_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

static spmvlab_status cusparse_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    cusparse_format *f = handle;
    spmvlab_ctx *ctx = f->ctx;
    if (f->rows == 0)
        return SPMVLAB_OK;
    if (f->cols == 0) { /* no columns: every row is empty */
        cudaError_t e = cudaMemsetAsync(y, 0, (size_t)f->rows * spmvlab_dtype_size(f->dtype), (cudaStream_t)stream);
        return e == cudaSuccess ? SPMVLAB_OK
                                : ctx->fail(ctx, err, SPMVLAB_CUDA_ERROR, "cudaMemsetAsync: %s", cudaGetErrorString(e));
    }
    CUSPARSE_TRY(cusparseSetStream(f->handle, (cudaStream_t)stream));
    if (f->x_bound != x) {
        CUSPARSE_TRY(cusparseDnVecSetValues(f->vx, (void *)x));
        f->x_bound = (void *)x;
    }
    if (f->y_bound != y) {
        CUSPARSE_TRY(cusparseDnVecSetValues(f->vy, y));
        f->y_bound = y;
    }
    double one64 = 1.0, zero64 = 0.0;
    float one32 = 1.0f, zero32 = 0.0f;
    const void *alpha = f->dtype == SPMVLAB_F64 ? (const void *)&one64 : (const void *)&one32;
    const void *beta = f->dtype == SPMVLAB_F64 ? (const void *)&zero64 : (const void *)&zero32;
    CUSPARSE_TRY(cusparseSpMV(f->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, f->mat, f->vx, beta, f->vy,
                              compute_type(f->dtype), alg_values[f->alg], f->d_buffer));
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return ctx->fail(ctx, err, SPMVLAB_CUDA_ERROR, "cusparseSpMV launch: %s", cudaGetErrorString(e));
    return SPMVLAB_OK;
}

static spmvlab_status cusparse_spmv_host(const void *handle, const void *x, void *y, spmvlab_err *err)
{
    const cusparse_format *f = handle;
    for (int32_t i = 0; i < f->rows; i++) {
        double s64 = 0;
        float s32 = 0;
        for (int32_t k = f->row_ptr[i]; k < f->row_ptr[i + 1]; k++) {
            int32_t c = f->col_idx[k];
            if (f->dtype == SPMVLAB_F64)
                s64 += ((const double *)f->val)[k] * ((const double *)x)[c];
            else if (f->dtype == SPMVLAB_F32)
                s32 += ((const float *)f->val)[k] * ((const float *)x)[c];
            else
                s32 += spmvlab_half_to_float(((const uint16_t *)f->val)[k]) *
                       spmvlab_half_to_float(((const uint16_t *)x)[c]);
        }
        if (f->dtype == SPMVLAB_F64)
            ((double *)y)[i] = s64;
        else if (f->dtype == SPMVLAB_F32)
            ((float *)y)[i] = s32;
        else
            ((uint16_t *)y)[i] = spmvlab_float_to_half(s32);
    }
    return SPMVLAB_OK;
}

static size_t cusparse_footprint(const void *handle) { return ((const cusparse_format *)handle)->bytes; }

static void cusparse_describe(const void *handle, char *buf, size_t len)
{
    const cusparse_format *f = handle;
    int version = 0;
    if (f->handle)
        cusparseGetVersion(f->handle, &version);
    snprintf(buf, len, "alg=%s cusparse_version=%d", alg_names[f->alg], version);
}

static const spmvlab_plugin cusparse_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "cusparse",
    .summary = "NVIDIA cuSPARSE generic SpMV (vendor baseline)",
    .version = "1.0.0",
    .reference = "NVIDIA cuSPARSE library, cusparseSpMV",
    .dtypes = SPMVLAB_DTYPES_F64_F32 | SPMVLAB_DTYPE_BIT(SPMVLAB_F16),
    .options = cusparse_options,
    .convert = cusparse_convert,
    .spmv = cusparse_spmv,
    .footprint = cusparse_footprint,
    .destroy = cusparse_destroy,
    .spmv_host = cusparse_spmv_host,
    .describe = cusparse_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &cusparse_plugin; }
