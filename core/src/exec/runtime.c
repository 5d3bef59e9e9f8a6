/*
 * The runtime: the device (or CPU mode), device memory with emulation on the
 * host when no GPU is present, prepared matrices, and the services table
 * (spmvlab_ctx) each plugin instance gets, with per-instance accounting of
 * current and peak bytes and a memory limit.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/core.h"
#include "spmvlab/value_table.h"

static int cuda_ok(cudaError_t e, spmvlab_err *err, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    spmvlab_errf(err, "%s failed: %s", what, cudaGetErrorString(e));
    return -1;
}

/* The status of a failed CUDA call: running out of memory is NOMEM. */
static spmvlab_status cuda_status(cudaError_t e, spmvlab_err *err, const char *what)
{
    if (e == cudaSuccess)
        return SPMVLAB_OK;
    spmvlab_errf(err, "%s failed: %s", what, cudaGetErrorString(e));
    return e == cudaErrorMemoryAllocation ? SPMVLAB_NOMEM : SPMVLAB_CUDA_ERROR;
}

int spmvlab_runtime_open(spmvlab_runtime *rt, int want_gpu, int ordinal, spmvlab_err *err)
{
    memset(rt, 0, sizeof *rt);
    rt->device.warp_size = 32;
    if (!want_gpu)
        return 0;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        cudaGetLastError();
        if (want_gpu == 2) {
            spmvlab_errf(err, "no usable CUDA device: %s",
                         e != cudaSuccess ? cudaGetErrorString(e) : "none found");
            return 1;
        }
        return 0;
    }
    if (ordinal < 0 || ordinal >= count) {
        spmvlab_errf(err, "CUDA device %d does not exist; %d found", ordinal, count);
        return -1;
    }
    struct cudaDeviceProp p;
    if (cuda_ok(cudaSetDevice(ordinal), err, "cudaSetDevice") ||
        cuda_ok(cudaGetDeviceProperties(&p, ordinal), err, "cudaGetDeviceProperties") ||
        cuda_ok(cudaStreamCreateWithFlags((cudaStream_t *)&rt->stream, cudaStreamNonBlocking), err,
                "cudaStreamCreate"))
        return -1;
    spmvlab_device *d = &rt->device;
    d->present = 1;
    d->ordinal = ordinal;
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sm_count = p.multiProcessorCount;
    d->warp_size = p.warpSize;
    d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->l2_bytes = (size_t)p.l2CacheSize;
    d->smem_per_block = p.sharedMemPerBlockOptin;
    d->global_mem_bytes = p.totalGlobalMem;
    snprintf(d->name, sizeof d->name, "%.127s", p.name);
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
        rt->mem_limit = free_b / 10 * 8; /* room for the core's own buffers */
    return 0;
}

void spmvlab_runtime_close(spmvlab_runtime *rt)
{
    if (rt->device.present && rt->stream)
        cudaStreamDestroy((cudaStream_t)rt->stream);
    rt->stream = NULL;
}

/* ---- raw device memory (host emulation in CPU mode) ------------------- */

spmvlab_status spmvlab_dev_malloc(spmvlab_runtime *rt, void **p, size_t bytes, spmvlab_err *err)
{
    *p = NULL;
    if (bytes == 0)
        return SPMVLAB_OK;
    if (!rt->device.present) {
        *p = aligned_alloc(256, (bytes + 255) / 256 * 256);
        if (!*p)
            return spmvlab_errf(err, "out of host memory for %zu bytes", bytes), SPMVLAB_NOMEM;
        return SPMVLAB_OK;
    }
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        cudaGetLastError();
        *p = NULL;
        spmvlab_errf(err, "cudaMalloc of %zu bytes failed: %s", bytes, cudaGetErrorString(e));
        return e == cudaErrorMemoryAllocation ? SPMVLAB_NOMEM : SPMVLAB_CUDA_ERROR;
    }
    return SPMVLAB_OK;
}

void spmvlab_dev_free(spmvlab_runtime *rt, void *p)
{
    if (!p)
        return;
    if (rt->device.present)
        cudaFree(p);
    else
        free(p);
}

/* A copy on the runtime's own (non-blocking) stream, waited for, so that
 * later work on that stream sees the data: a plain cudaMemcpy from pageable
 * memory may return before its DMA has landed. */
static spmvlab_status dev_copy(spmvlab_runtime *rt, void *dst, const void *src, size_t bytes,
                               enum cudaMemcpyKind kind, const char *what, spmvlab_err *err)
{
    if (bytes == 0)
        return SPMVLAB_OK;
    if (!rt->device.present) {
        memcpy(dst, src, bytes);
        return SPMVLAB_OK;
    }
    cudaStream_t s = (cudaStream_t)rt->stream;
    char step[64];
    snprintf(step, sizeof step, "%s (cudaMemcpyAsync)", what);
    spmvlab_status st = cuda_status(cudaMemcpyAsync(dst, src, bytes, kind, s), err, step);
    snprintf(step, sizeof step, "%s (cudaStreamSynchronize)", what);
    return st ? st : cuda_status(cudaStreamSynchronize(s), err, step);
}

spmvlab_status spmvlab_dev_upload(spmvlab_runtime *rt, void *dst, const void *src, size_t bytes, spmvlab_err *err)
{
    return dev_copy(rt, dst, src, bytes, cudaMemcpyHostToDevice, "upload", err);
}

spmvlab_status spmvlab_dev_download(spmvlab_runtime *rt, void *dst, const void *src, size_t bytes, spmvlab_err *err)
{
    return dev_copy(rt, dst, src, bytes, cudaMemcpyDeviceToHost, "download", err);
}

spmvlab_status spmvlab_dev_poison(spmvlab_runtime *rt, void *p, size_t n, spmvlab_dtype dtype, spmvlab_err *err)
{
    size_t bytes = n * spmvlab_dtype_size(dtype);
    if (!bytes)
        return SPMVLAB_OK;
    if (!rt->device.present) {
        memset(p, 0xff, bytes); /* all-ones is a NaN in every dtype */
        return SPMVLAB_OK;
    }
    return cuda_status(cudaMemsetAsync(p, 0xff, bytes, (cudaStream_t)rt->stream), err, "poisoning y");
}

spmvlab_status spmvlab_dev_sync(spmvlab_runtime *rt, spmvlab_err *err)
{
    if (!rt->device.present)
        return SPMVLAB_OK;
    spmvlab_status st = cuda_status(cudaStreamSynchronize((cudaStream_t)rt->stream), err, "cudaStreamSynchronize");
    return st ? st : cuda_status(cudaGetLastError(), err, "a kernel");
}

spmvlab_status spmvlab_dev_sync_all(spmvlab_runtime *rt, spmvlab_err *err)
{
    if (!rt->device.present)
        return SPMVLAB_OK;
    spmvlab_status st = cuda_status(cudaDeviceSynchronize(), err, "cudaDeviceSynchronize");
    return st ? st : cuda_status(cudaGetLastError(), err, "a kernel");
}

/* ---- prepared matrices ------------------------------------------------ */

spmvlab_result spmvlab_prepare(spmvlab_runtime *rt, const spmvlab_csr *A, const char *name, spmvlab_dtype dtype,
                                spmvlab_prepared *out, spmvlab_err *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->csr = A;
    size_t vs = spmvlab_dtype_size(dtype), nnz = (size_t)A->nnz;
    out->host_val = malloc(nnz ? nnz * vs : 1);
    out->values = calloc(1, sizeof *out->values);
    if (!out->host_val || !out->values) {
        free(out->host_val);
        free(out->values);
        out->host_val = NULL;
        out->values = NULL;
        return spmvlab_errf(err, "out of host memory for the values of %s", name), SPMVLAB_RESULT_NOMEM;
    }
    for (size_t k = 0; k < nnz; k++)
        spmvlab_value_put(out->host_val, k, dtype, A->val[k]);
    /* A value that overflows the dtype makes the matrix unusable in it. */
    for (size_t k = 0; dtype != SPMVLAB_F64 && k < nnz; k++) {
        double back = spmvlab_value_get(out->host_val, k, dtype);
        if (isinf(back) && !isinf(A->val[k])) {
            spmvlab_errf(err, "%s holds the value %g, beyond the range of %s", name, A->val[k],
                         spmvlab_dtype_name(dtype));
            free(out->host_val);
            free(out->values);
            out->host_val = NULL;
            out->values = NULL;
            return SPMVLAB_RESULT_BAD_INPUT;
        }
    }
    spmvlab_matrix *v = &out->view;
    v->name = out->name;
    v->rows = A->rows;
    v->cols = A->cols;
    v->nnz = A->nnz;
    v->dtype = dtype;
    v->row_ptr = A->row_ptr;
    v->col_idx = A->col_idx;
    v->val = out->host_val;
    if (rt->device.present) {
        size_t rp = ((size_t)A->rows + 1) * sizeof(int32_t), ci = nnz * sizeof(int32_t);
        spmvlab_err why = {{0}};
        spmvlab_status st;
        if ((st = spmvlab_dev_malloc(rt, &out->dev_row_ptr, rp, &why)) ||
            (st = spmvlab_dev_malloc(rt, &out->dev_col_idx, ci, &why)) ||
            (st = spmvlab_dev_malloc(rt, &out->dev_val, nnz * vs, &why)) ||
            (st = spmvlab_dev_upload(rt, out->dev_row_ptr, A->row_ptr, rp, &why)) ||
            (st = spmvlab_dev_upload(rt, out->dev_col_idx, A->col_idx, ci, &why)) ||
            (st = spmvlab_dev_upload(rt, out->dev_val, out->host_val, nnz * vs, &why))) {
            spmvlab_errf(err, "uploading %s to the device: %s", name, why.msg);
            out->rt_device = 1; /* what was allocated is device memory */
            spmvlab_prepared_free(out);
            return spmvlab_result_of(st);
        }
        out->rt_device = 1;
        v->d_row_ptr = out->dev_row_ptr;
        v->d_col_idx = out->dev_col_idx;
        v->d_val = out->dev_val;
    }
    return SPMVLAB_RESULT_OK;
}

void spmvlab_prepared_free(spmvlab_prepared *p)
{
    if (!p)
        return;
    if (p->rt_device) {
        cudaFree(p->dev_row_ptr);
        cudaFree(p->dev_col_idx);
        cudaFree(p->dev_val);
    }
    free(p->host_val);
    spmvlab_value_cache_free(p->values);
    free(p->values);
    memset(p, 0, sizeof *p);
}

/* ---- faults -------------------------------------------------------------- */

/* Errors after which every later call in the process fails: the context is
 * lost and only a new process gets a working one. */
static int cuda_error_is_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidPc:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
        return 1;
    default:
        return 0;
    }
}

int spmvlab_runtime_fault(spmvlab_runtime *rt, const char *suspect, spmvlab_err *err)
{
    if (!rt->fault[0]) {
        if (rt->device.present) {
            cudaError_t e = cudaDeviceSynchronize();
            if (e == cudaSuccess)
                e = cudaPeekAtLastError();
            if (cuda_error_is_sticky(e))
                snprintf(rt->fault, sizeof rt->fault, "%s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
        } else {
            const char *inject = getenv("SPMVLAB_TEST_DEVICE_FAULT");
            if (inject && suspect && strcmp(inject, suspect) == 0)
                snprintf(rt->fault, sizeof rt->fault, "cudaErrorIllegalAddress (simulated by "
                                                      "SPMVLAB_TEST_DEVICE_FAULT)");
        }
    }
    if (!rt->fault[0])
        return 0;
    spmvlab_errf(err, "%s", rt->fault);
    return 1;
}
