// coo kernels: the textbook one-atomic-per-non-zero kernel, the chunked
// warp segmented reduction of coo_segmented.cuh and the blocked
// (thread-sequential then warp) kernel of coo_blocked.cuh. y is zeroed first
// on the same stream, or (zero = owner, coo_owner.h) written whole by the
// chunked kernel and its carry pass. The algorithms are described at the top
// of coo.c.
#include <cuda_runtime.h>
#include <stdint.h>

#include "coo.h"
#include "coo_blocked.cuh"
#include "coo_owner.cuh"
#include "coo_segmented.cuh"

namespace {

// One thread per non-zero per step (grid-stride): y[row] += val * x[col]
// atomically, the product rounded on its own as in coo_host_*.
template <typename T>
__global__ void coo_atomic_kernel(int32_t nnz, const int32_t *__restrict__ row_idx,
                                  const int32_t *__restrict__ col_idx,
                                  const T *__restrict__ val, const T *__restrict__ x,
                                  T *__restrict__ y)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += stride)
        atomicAdd(&y[__ldg(&row_idx[k])],
                  coo_seg::mul(__ldg(&val[k]), __ldg(&x[__ldg(&col_idx[k])])));
}

template <typename T>
cudaError_t coo_launch_typed(int kernel, int items, coo_seg_plan plan, int32_t rows, int32_t nnz,
                             const int32_t *row_idx, const int32_t *col_idx, const void *val,
                             const void *x, void *y, const coo_own *own, cudaStream_t stream)
{
    if (own) // the owner write: no memset, the carries after the kernel
        return coo_owner::launch<T>(kernel == COO_KERNEL_BLOCKED, items, plan, nnz, rows, row_idx,
                                    col_idx, val, x, y, *own, stream);
    if (kernel == COO_KERNEL_BLOCKED)
        return coo_blk::launch<T, coo_seg::kStore>(plan, items, nnz, rows, row_idx, col_idx, val,
                                                   x, y, nullptr, stream);
    if (kernel == COO_KERNEL_SEGMENTED)
        return coo_seg::launch<T, coo_seg::kStore>(plan, nnz, rows, row_idx, col_idx, val, x, y,
                                                   nullptr, stream);
    // The atomic kernel uses the segmented plan's warps as its grid: one
    // resident wave striding over the non-zeros.
    const unsigned blocks = (unsigned)(((long long)plan.warps * COO_SEG_WARP + COO_SEG_BLOCK - 1) /
                                       COO_SEG_BLOCK);
    coo_atomic_kernel<T><<<blocks, COO_SEG_BLOCK, 0, stream>>>(
        nnz, row_idx, col_idx, static_cast<const T *>(val), static_cast<const T *>(x),
        static_cast<T *>(y));
    return cudaGetLastError();
}

} // namespace

// Zeroes y (rows values) on the stream unless own (the owner write of the
// blocked or segmented kernel, which needs a non-zero), then launches the
// chosen kernel when there is a non-zero. Returns the first CUDA error,
// cudaSuccess otherwise.
extern "C" cudaError_t coo_launch(int kernel, int items, int f64, int32_t rows, int32_t nnz,
                                  coo_seg_plan plan, const int32_t *row_idx,
                                  const int32_t *col_idx, const void *val, const void *x,
                                  void *y, const coo_own *own, cudaStream_t stream)
{
    const bool owner = own && nnz > 0 && plan.warps > 0 && kernel != COO_KERNEL_ATOMIC;
    const size_t y_bytes = (size_t)rows * (f64 ? sizeof(double) : sizeof(float));
    if (!owner && y_bytes > 0) {
        cudaError_t e = cudaMemsetAsync(y, 0, y_bytes, stream);
        if (e != cudaSuccess)
            return e;
    }
    if (nnz <= 0 || plan.warps <= 0)
        return cudaSuccess;
    own = owner ? own : nullptr;
    return f64 ? coo_launch_typed<double>(kernel, items, plan, rows, nnz, row_idx, col_idx, val,
                                          x, y, own, stream)
               : coo_launch_typed<float>(kernel, items, plan, rows, nnz, row_idx, col_idx, val, x,
                                         y, own, stream);
}

// Blocks of the kernel resident per SM for the dtype (the memset variant's;
// the owner variant has the same launch bounds); 0 unknown.
extern "C" int coo_occupancy(int kernel, int f64)
{
    if (kernel == COO_KERNEL_BLOCKED)
        return f64 ? coo_blk::blocks_per_sm<double, coo_seg::kStore>()
                   : coo_blk::blocks_per_sm<float, coo_seg::kStore>();
    return f64 ? coo_seg::blocks_per_sm<double, coo_seg::kStore>()
               : coo_seg::blocks_per_sm<float, coo_seg::kStore>();
}
