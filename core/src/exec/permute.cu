// Gather and scatter of a vector by a permutation on the device: how x and y
// follow a reordered matrix on every call (--reorder ORDER+call); see
// permuted_call.h.
#include <cuda_runtime.h>

#include <cstdint>

#include "spmvlab/permuted_call.h"
#include "spmvlab/reorder.h"

namespace {

constexpr int kBlock = 256;

// out[i] = in[perm[i]]: the writes coalesce, the reads follow the permutation.
template <typename T>
__global__ void gather_kernel(T *__restrict__ out, const T *__restrict__ in, const int32_t *__restrict__ perm,
                              int32_t n)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[perm[i]];
}

// out[perm[i]] = in[i]: the reads coalesce, the writes follow the permutation.
template <typename T>
__global__ void scatter_kernel(T *__restrict__ out, const T *__restrict__ in, const int32_t *__restrict__ perm,
                               int32_t n)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[perm[i]] = in[i];
}

template <typename T>
cudaError_t launch(bool scatter, void *out, const void *in, const int32_t *perm, int32_t n, cudaStream_t s)
{
    unsigned blocks = (unsigned)(((int64_t)n + kBlock - 1) / kBlock);
    if (scatter)
        scatter_kernel<T><<<blocks, kBlock, 0, s>>>(static_cast<T *>(out), static_cast<const T *>(in), perm, n);
    else
        gather_kernel<T><<<blocks, kBlock, 0, s>>>(static_cast<T *>(out), static_cast<const T *>(in), perm, n);
    return cudaGetLastError();
}

spmvlab_status move(spmvlab_runtime *rt, bool scatter, void *out, const void *in, const int32_t *perm, int32_t n,
                    size_t value_size, spmvlab_err *err)
{
    const char *what = scatter ? "scatter" : "gather";
    if (value_size != 2 && value_size != 4 && value_size != 8) {
        spmvlab_errf(err, "the permutation's %s: values of %zu bytes are not supported", what, value_size);
        return SPMVLAB_INTERNAL;
    }
    if (n <= 0)
        return SPMVLAB_OK; // a grid of no blocks is not a launch
    if (!rt->device.present) { // host stand-ins, as every device helper without a GPU
        if (scatter)
            spmvlab_scatter_values(out, in, perm, n, value_size);
        else
            spmvlab_gather_values(out, in, perm, n, value_size);
        return SPMVLAB_OK;
    }
    cudaStream_t s = static_cast<cudaStream_t>(rt->stream);
    cudaError_t e = value_size == 2   ? launch<uint16_t>(scatter, out, in, perm, n, s)
                    : value_size == 4 ? launch<uint32_t>(scatter, out, in, perm, n, s)
                                      : launch<uint64_t>(scatter, out, in, perm, n, s);
    if (e != cudaSuccess) {
        spmvlab_errf(err, "the permutation's %s kernel: launch failed: %s", what, cudaGetErrorString(e));
        return SPMVLAB_CUDA_ERROR;
    }
    return SPMVLAB_OK;
}

} // namespace

extern "C" spmvlab_status spmvlab_dev_gather(spmvlab_runtime *rt, void *out, const void *in, const int32_t *perm,
                                             int32_t n, size_t value_size, spmvlab_err *err)
{
    return move(rt, false, out, in, perm, n, value_size, err);
}

extern "C" spmvlab_status spmvlab_dev_scatter(spmvlab_runtime *rt, void *out, const void *in, const int32_t *perm,
                                              int32_t n, size_t value_size, spmvlab_err *err)
{
    return move(rt, true, out, in, perm, n, value_size, err);
}
