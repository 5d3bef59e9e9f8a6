/* Test plugin: converts and runs without complaint but computes
 * y = 2·A·x + 1 on the CPU and fills y with a byte pattern on the GPU; the
 * verifier must record it as wrong. */
#include <cuda_runtime_api.h>

#include "bad_common.h"

static spmvlab_status wrong_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    plain_format *f = fmt;
    (void)x;
    cudaError_t e = cudaMemsetAsync(y, 0x3c, (size_t)f->rows * spmvlab_dtype_size(f->dtype), (cudaStream_t)stream);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "cudaMemsetAsync failed: %s", cudaGetErrorString(e));
    return SPMVLAB_OK;
}

static spmvlab_status wrong_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    const plain_format *f = fmt;
    (void)err;
    plain_multiply(f, x, y);
    for (int32_t i = 0; i < f->rows; i++)
        spmvlab_value_put(y, (size_t)i, f->dtype, 2 * spmvlab_value_get(y, (size_t)i, f->dtype) + 1);
    return SPMVLAB_OK;
}

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_wrong", "returns wrong results"),
    .convert = plain_convert_opts,
    .spmv = wrong_spmv,
    .footprint = plain_footprint,
    .destroy = plain_destroy,
    .spmv_host = wrong_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
