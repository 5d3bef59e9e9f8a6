// Device triad (the run's bandwidth peak) and the L2 flush; see bandwidth.h.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "spmvlab/bandwidth.h"

namespace {

constexpr int kBlock = 256;

// a = b + s·c with 16-byte accesses; a grid-stride loop so any size fits one
// launch of a few waves.
__global__ void triad_kernel(double2 *__restrict__ a, const double2 *__restrict__ b,
                             const double2 *__restrict__ c, double s, size_t n2)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += stride) {
        double2 x = b[i], y = c[i];
        a[i] = make_double2(x.x + s * y.x, x.y + s * y.y);
    }
}

int fail(spmvlab_err *err, const char *what, cudaError_t e)
{
    spmvlab_errf(err, "bandwidth triad: %s failed: %s", what, cudaGetErrorString(e));
    return -1;
}

} // namespace

extern "C" int spmvlab_triad(spmvlab_runtime *rt, size_t array_bytes, int reps, spmvlab_triad_result *out,
                             spmvlab_err *err)
{
    *out = spmvlab_triad_result{};
    if (!rt->device.present) {
        spmvlab_errf(err, "bandwidth triad: no GPU in use");
        return -1;
    }
    if (array_bytes == 0) {
        array_bytes = std::max<size_t>(256u << 20, 8 * rt->device.l2_bytes);
        array_bytes = std::min(array_bytes, rt->device.global_mem_bytes / 6);
    }
    size_t n2 = array_bytes / sizeof(double2);
    if (n2 == 0 || reps < 1) {
        spmvlab_errf(err, "bandwidth triad: nothing to measure (%zu bytes, %d repetitions)", array_bytes, reps);
        return -1;
    }
    array_bytes = n2 * sizeof(double2);
    cudaStream_t s = static_cast<cudaStream_t>(rt->stream);
    double2 *a = nullptr, *b = nullptr, *c = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    std::vector<float> ms;
    int rc = -1;
    cudaError_t e;
    int blocks = rt->device.sm_count * (rt->device.max_threads_per_sm / kBlock) * 2;
    if (blocks < 1)
        blocks = 1024;
    if ((e = cudaMalloc(&a, array_bytes)) != cudaSuccess || (e = cudaMalloc(&b, array_bytes)) != cudaSuccess ||
        (e = cudaMalloc(&c, array_bytes)) != cudaSuccess) {
        rc = fail(err, "cudaMalloc", e);
        goto out;
    }
    if ((e = cudaEventCreate(&e0)) != cudaSuccess || (e = cudaEventCreate(&e1)) != cudaSuccess) {
        rc = fail(err, "cudaEventCreate", e);
        goto out;
    }
    if ((e = cudaMemsetAsync(b, 0, array_bytes, s)) != cudaSuccess ||
        (e = cudaMemsetAsync(c, 0, array_bytes, s)) != cudaSuccess) {
        rc = fail(err, "cudaMemsetAsync", e);
        goto out;
    }
    for (int r = -1; r < reps; r++) { // r == -1: warm-up
        cudaEventRecord(e0, s);
        triad_kernel<<<blocks, kBlock, 0, s>>>(a, b, c, 3.0, n2);
        if ((e = cudaGetLastError()) != cudaSuccess) {
            rc = fail(err, "the kernel launch", e);
            goto out;
        }
        cudaEventRecord(e1, s);
        if ((e = cudaEventSynchronize(e1)) != cudaSuccess) {
            rc = fail(err, "the kernel", e);
            goto out;
        }
        float t = 0;
        cudaEventElapsedTime(&t, e0, e1);
        if (r >= 0)
            ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    {
        double moved = 3.0 * (double)array_bytes;
        double mid = ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
        out->best_gbs = moved / (ms.front() * 1e-3) / 1e9;
        out->median_gbs = moved / (mid * 1e-3) / 1e9;
        out->array_bytes = array_bytes;
        out->reps = reps;
    }
    rc = 0;
out:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaGetLastError();
    return rc;
}

extern "C" int spmvlab_l2_flush(spmvlab_runtime *rt, void *buf, size_t bytes, spmvlab_err *err)
{
    if (!rt->device.present || !buf || !bytes)
        return 0;
    cudaError_t e = cudaMemsetAsync(buf, 0x5a, bytes, static_cast<cudaStream_t>(rt->stream));
    if (e != cudaSuccess) {
        spmvlab_errf(err, "flushing L2: cudaMemsetAsync failed: %s", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}
