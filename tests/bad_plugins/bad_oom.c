/* Test plugin: a runaway conversion that asks for ever more device memory —
 * blocks of `first_mib` MiB, doubling, all held — until it is refused.
 * Through ctx->dev_alloc (via = dev_alloc, the default) the core's memory
 * limit stops it with status limit, or the allocator with oom; with
 * via = cuda_malloc it calls cudaMalloc itself, as a careless plugin might,
 * and reports oom when the device runs out. Nothing is ever touched, so on
 * the CPU the host memory it "holds" is address space only. */
#include <cuda_runtime_api.h>
#include <stdint.h>

#include "bad_common.h"

static const spmvlab_option options[] = {
    {"via", SPMVLAB_OPT_ENUM, "dev_alloc", 0, 0, "dev_alloc|cuda_malloc", "how the memory is requested", 0, 0, NULL, 0, 0, NULL},
    {"first_mib", SPMVLAB_OPT_INT, "1024", 1, 1 << 20, NULL, "size of the first block in MiB; each next one doubles", 0, 0, NULL, 0, 0, NULL},
    {NULL},
};

#define MAX_BLOCKS 48

static spmvlab_status oom_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    (void)A;
    *out = NULL;
    void *held[MAX_BLOCKS] = {0};
    size_t bytes = (size_t)spmvlab_opt_int(opts, "first_mib") << 20, total = 0;
    int direct = spmvlab_opt_int(opts, "via") == 1, n = 0;
    spmvlab_status st = SPMVLAB_OK;
    cudaError_t ce = cudaSuccess;
    for (; n < MAX_BLOCKS && bytes; n++, bytes = bytes > SIZE_MAX / 2 ? 0 : 2 * bytes) {
        if (direct) {
            ce = cudaMalloc(&held[n], bytes);
            if (ce != cudaSuccess) {
                cudaGetLastError();
                held[n] = NULL;
                st = SPMVLAB_NOMEM;
                break;
            }
        } else if ((st = ctx->dev_alloc(ctx, &held[n], bytes, err)) != SPMVLAB_OK) {
            break;
        }
        total += bytes;
    }
    for (int k = 0; k < n; k++) {
        if (direct)
            cudaFree(held[k]);
        else
            ctx->dev_free(ctx, held[k]);
    }
    if (direct && st != SPMVLAB_OK)
        return ctx->fail(ctx, err, st, "cudaMalloc of %zu bytes failed with %zu bytes held: %s", bytes, total,
                         cudaGetErrorString(ce));
    if (st == SPMVLAB_OK)
        return ctx->fail(ctx, err, SPMVLAB_INTERNAL, "%zu bytes were handed out and never refused", total);
    return st; /* dev_alloc's sentence is in err */
}

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_oom", "allocates device memory until refused"),
    .options = options,
    .convert = oom_convert,
    .spmv = plain_spmv_none,
    .footprint = plain_footprint,
    .destroy = plain_destroy,
    .spmv_host = plain_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
