/*
 * cuSPARSE on the device for every family of the plugin (see
 * cusparse_device.h). The data types follow cusparseSpMV's documented
 * table: A, x, y and compute in one type (f64, f32); f16 A, x and y with
 * f32 compute; and the mixed row "A CUDA_R_32F, x/y/compute CUDA_R_64F"
 * for the f32-valued mode of an f64 run. A combination cuSPARSE refuses
 * for a family comes back as UNSUPPORTED with cuSPARSE's own words.
 */
#include <cuda_runtime_api.h>
#include <stdlib.h>

#include "cusparse_device.h"

static cudaDataType cuda_type(spmvlab_dtype d)
{
    return d == SPMVLAB_F64 ? CUDA_R_64F : d == SPMVLAB_F32 ? CUDA_R_32F : CUDA_R_16F;
}

static cudaDataType compute_type(spmvlab_dtype d) { return d == SPMVLAB_F64 ? CUDA_R_64F : CUDA_R_32F; }

static const char *dtype_name(spmvlab_dtype d) { return d == SPMVLAB_F64 ? "f64" : d == SPMVLAB_F32 ? "f32" : "f16"; }

static const char *family_name(const cusparse_layout *L)
{
    static const char *const names[] = {"CSR", "COO", "Sliced-ELL", "BSR"};
    return names[L->family];
}

/* The sentence for a failed cuSPARSE call: UNSUPPORTED when cuSPARSE says
 * the combination is not supported, NOMEM when it ran out of memory. */
static spmvlab_status cusparse_refusal(spmvlab_ctx *ctx, spmvlab_err *err, const cusparse_layout *L,
                                       cusparseStatus_t s, const char *call)
{
    spmvlab_status st = s == CUSPARSE_STATUS_NOT_SUPPORTED  ? SPMVLAB_UNSUPPORTED
                        : s == CUSPARSE_STATUS_ALLOC_FAILED ? SPMVLAB_NOMEM
                                                            : SPMVLAB_CUDA_ERROR;
    return ctx->fail(ctx, err, st, "%s on %s with %s values and %s vectors failed: %s", call, family_name(L),
                     dtype_name(L->storage), dtype_name(L->dtype), cusparseGetErrorString(s));
}

#define CUSPARSE_CHECK(call)                                                \
    do {                                                                    \
        cusparseStatus_t s_ = (call);                                       \
        if (s_ != CUSPARSE_STATUS_SUCCESS)                                  \
            return cusparse_refusal(ctx, err, L, s_, #call);                \
    } while (0)

#define CUDA_CHECK(call)                                                                                \
    do {                                                                                                \
        cudaError_t e_ = (call);                                                                        \
        if (e_ != cudaSuccess)                                                                          \
            return ctx->fail(ctx, err, SPMVLAB_CUDA_ERROR, "%s: %s", #call, cudaGetErrorString(e_));    \
    } while (0)

static int stage_x(const cusparse_layout *L) { return L->family == CUSPARSE_FAMILY_BSR && L->cols % L->block; }
static int stage_y(const cusparse_layout *L) { return L->family == CUSPARSE_FAMILY_BSR && L->rows % L->block; }

spmvlab_status cusparse_device_upload(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L,
                                      spmvlab_err *err)
{
    size_t es = spmvlab_dtype_size(L->storage), vs = spmvlab_dtype_size(L->dtype);
    D->zeros = L->nnz == 0 || L->cols == 0;
    spmvlab_status st = spmvlab_put(ctx, &D->d_ptr, L->ptr, (size_t)L->n_ptr * sizeof *L->ptr, err);
    if (st == SPMVLAB_OK)
        st = spmvlab_put(ctx, &D->d_idx, L->idx, (size_t)L->n_idx * sizeof *L->idx, err);
    if (st == SPMVLAB_OK)
        st = spmvlab_put(ctx, &D->d_val, L->val, (size_t)L->n_val * es, err);
    if (st == SPMVLAB_OK && !D->zeros && (stage_x(L) || stage_y(L))) {
        size_t nx = (size_t)L->bcols * (size_t)L->block, ny = (size_t)L->brows * (size_t)L->block;
        void *zero = calloc(nx > ny ? nx : ny, vs);
        if (!zero)
            return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the BSR staging vectors");
        if (stage_x(L))
            st = spmvlab_put(ctx, &D->d_xpad, zero, nx * vs, err);
        if (st == SPMVLAB_OK && stage_y(L))
            st = spmvlab_put(ctx, &D->d_ypad, NULL, ny * vs, err);
        free(zero);
    }
    return st;
}

static spmvlab_status create_matrix(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L,
                                    spmvlab_err *err)
{
    cudaDataType vt = cuda_type(L->storage);
    switch (L->family) {
    case CUSPARSE_FAMILY_CSR:
        CUSPARSE_CHECK(cusparseCreateCsr(&D->mat, L->rows, L->cols, L->nnz, D->d_ptr, D->d_idx, D->d_val,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
        D->alg = CUSPARSE_SPMV_CSR_ALG1;
        break;
    case CUSPARSE_FAMILY_COO:
        CUSPARSE_CHECK(cusparseCreateCoo(&D->mat, L->rows, L->cols, L->nnz, D->d_ptr, D->d_idx, D->d_val,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
        D->alg = CUSPARSE_SPMV_COO_ALG1;
        break;
    case CUSPARSE_FAMILY_SELL:
        CUSPARSE_CHECK(cusparseCreateSlicedEll(&D->mat, L->rows, L->cols, L->nnz, L->n_val, L->slice, D->d_ptr,
                                               D->d_idx, D->d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                               CUSPARSE_INDEX_BASE_ZERO, vt));
        D->alg = CUSPARSE_SPMV_SELL_ALG1;
        break;
    case CUSPARSE_FAMILY_BSR:
        CUSPARSE_CHECK(cusparseCreateBsr(&D->mat, L->brows, L->bcols, L->n_idx, L->block, L->block, D->d_ptr,
                                         D->d_idx, D->d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, vt, CUSPARSE_ORDER_ROW));
        D->alg = CUSPARSE_SPMV_BSR_ALG1;
        break;
    }
    return SPMVLAB_OK;
}

/* Sizes the buffer and preprocesses with the vectors bound now. */
static spmvlab_status size_and_preprocess(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L,
                                          spmvlab_err *err)
{
    double one64 = 1.0, zero64 = 0.0;
    float one32 = 1.0f, zero32 = 0.0f;
    int wide = L->dtype == SPMVLAB_F64;
    const void *alpha = wide ? (const void *)&one64 : (const void *)&one32;
    const void *beta = wide ? (const void *)&zero64 : (const void *)&zero32;
    size_t bytes = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(D->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, D->mat, D->vx, beta,
                                           D->vy, compute_type(L->dtype), D->alg, &bytes));
    spmvlab_status st = spmvlab_put(ctx, &D->d_buffer, NULL, bytes, err);
    if (st != SPMVLAB_OK)
        return st;
    CUSPARSE_CHECK(cusparseSpMV_preprocess(D->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, D->mat, D->vx, beta,
                                           D->vy, compute_type(L->dtype), D->alg, D->d_buffer));
    CUDA_CHECK(cudaStreamSynchronize((cudaStream_t)ctx->stream));
    return SPMVLAB_OK;
}

spmvlab_status cusparse_device_setup(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L, int alg2,
                                     spmvlab_err *err)
{
    if (L->rows == 0 || D->zeros)
        return SPMVLAB_OK;
    CUSPARSE_CHECK(cusparseCreate(&D->handle));
    CUSPARSE_CHECK(cusparseGetVersion(D->handle, &D->version));
    CUSPARSE_CHECK(cusparseSetStream(D->handle, (cudaStream_t)ctx->stream));
    spmvlab_status st = create_matrix(D, ctx, L, err);
    if (st != SPMVLAB_OK)
        return st;
    if (alg2)
        D->alg = L->family == CUSPARSE_FAMILY_COO ? CUSPARSE_SPMV_COO_ALG2 : CUSPARSE_SPMV_CSR_ALG2;
    int64_t m = L->family == CUSPARSE_FAMILY_BSR ? (int64_t)L->brows * L->block : L->rows;
    int64_t n = L->family == CUSPARSE_FAMILY_BSR ? (int64_t)L->bcols * L->block : L->cols;
    /* Vectors not staged are bound to scratch for sizing and rebound in spmv. */
    size_t vs = spmvlab_dtype_size(L->dtype);
    void *tx = NULL, *ty = NULL;
    if (!D->d_xpad)
        st = ctx->dev_alloc(ctx, &tx, (size_t)n * vs, err);
    if (st == SPMVLAB_OK && !D->d_ypad)
        st = ctx->dev_alloc(ctx, &ty, (size_t)m * vs, err);
    cusparseStatus_t s = CUSPARSE_STATUS_SUCCESS;
    const char *call = "cusparseCreateDnVec";
    if (st == SPMVLAB_OK)
        s = cusparseCreateDnVec(&D->vx, n, D->d_xpad ? D->d_xpad : tx, cuda_type(L->dtype));
    if (st == SPMVLAB_OK && s == CUSPARSE_STATUS_SUCCESS)
        s = cusparseCreateDnVec(&D->vy, m, D->d_ypad ? D->d_ypad : ty, cuda_type(L->dtype));
    if (st == SPMVLAB_OK && s == CUSPARSE_STATUS_SUCCESS)
        st = size_and_preprocess(D, ctx, L, err);
    ctx->dev_free(ctx, tx);
    ctx->dev_free(ctx, ty);
    D->x_bound = D->d_xpad;
    D->y_bound = D->d_ypad;
    if (st == SPMVLAB_OK && s != CUSPARSE_STATUS_SUCCESS)
        return cusparse_refusal(ctx, err, L, s, call);
    return st;
}

spmvlab_status cusparse_device_spmv(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L, const void *x,
                                    void *y, void *stream, spmvlab_err *err)
{
    cudaStream_t cs = (cudaStream_t)stream;
    size_t vs = spmvlab_dtype_size(L->dtype);
    if (L->rows == 0)
        return SPMVLAB_OK;
    if (D->zeros) { /* no columns or no non-zeros: every row is empty */
        CUDA_CHECK(cudaMemsetAsync(y, 0, (size_t)L->rows * vs, cs));
        return SPMVLAB_OK;
    }
    CUSPARSE_CHECK(cusparseSetStream(D->handle, cs));
    if (D->d_xpad)
        CUDA_CHECK(cudaMemcpyAsync(D->d_xpad, x, (size_t)L->cols * vs, cudaMemcpyDeviceToDevice, cs));
    else if (D->x_bound != x) {
        CUSPARSE_CHECK(cusparseDnVecSetValues(D->vx, (void *)x));
        D->x_bound = x;
    }
    if (!D->d_ypad && D->y_bound != y) {
        CUSPARSE_CHECK(cusparseDnVecSetValues(D->vy, y));
        D->y_bound = y;
    }
    double one64 = 1.0, zero64 = 0.0;
    float one32 = 1.0f, zero32 = 0.0f;
    int wide = L->dtype == SPMVLAB_F64;
    const void *alpha = wide ? (const void *)&one64 : (const void *)&one32;
    const void *beta = wide ? (const void *)&zero64 : (const void *)&zero32;
    CUSPARSE_CHECK(cusparseSpMV(D->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, D->mat, D->vx, beta, D->vy,
                                compute_type(L->dtype), D->alg, D->d_buffer));
    if (D->d_ypad)
        CUDA_CHECK(cudaMemcpyAsync(y, D->d_ypad, (size_t)L->rows * vs, cudaMemcpyDeviceToDevice, cs));
    CUDA_CHECK(cudaGetLastError());
    return SPMVLAB_OK;
}

void cusparse_device_free(cusparse_device *D, spmvlab_ctx *ctx)
{
    if (D->mat)
        cusparseDestroySpMat(D->mat);
    if (D->vx)
        cusparseDestroyDnVec(D->vx);
    if (D->vy)
        cusparseDestroyDnVec(D->vy);
    if (D->handle)
        cusparseDestroy(D->handle);
    void *arrays[] = {D->d_ptr, D->d_idx, D->d_val, D->d_buffer, D->d_xpad, D->d_ypad};
    spmvlab_free_all(ctx, arrays, SPMVLAB_COUNT(arrays));
    D->mat = NULL;
    D->vx = D->vy = NULL;
    D->handle = NULL;
}
