// csr kernels: thread-per-row (scalar) and lanes-per-row (vector). The
// adaptive kernel is in csr_adaptive.cu.
#include <cuda_runtime.h>

#include "csr_kernels.h"
#include "../common/launch.cuh"
#include "../common/value_store.cuh"

namespace {

constexpr int kBlock = 256;

// a*b + c rounded once, as fma()/fmaf() in csr_host.c.
__device__ __forceinline__ double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }

// val: the values functor (value_store.cuh): the value, its code's table
// entry, or the pattern's value.
template <typename T, typename V>
__global__ void csr_scalar(int32_t rows, const int32_t *__restrict__ row_ptr, const int32_t *__restrict__ col_idx,
                           V val, const T *__restrict__ x, T *__restrict__ y)
{
    int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    T sum = 0;
    for (int32_t k = __ldg(row_ptr + i), e = __ldg(row_ptr + i + 1); k < e; k++)
        sum = fma_rn(val(k), __ldg(x + __ldg(col_idx + k)), sum);
    y[i] = sum;
}

// W lanes per row; lanes stride through the row, then a shuffle tree
// (matching csr_host.c's order).
template <typename T, int W, typename V>
__global__ void csr_vector(int32_t rows, const int32_t *__restrict__ row_ptr, const int32_t *__restrict__ col_idx,
                           V val, const T *__restrict__ x, T *__restrict__ y)
{
    int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int32_t i = (int32_t)(tid / W);
    int lane = threadIdx.x % W;
    T sum = 0;
    if (i < rows)
        for (int32_t k = __ldg(row_ptr + i) + lane, e = __ldg(row_ptr + i + 1); k < e; k += W)
            sum = fma_rn(val(k), __ldg(x + __ldg(col_idx + k)), sum);
    // Every lane of the warp takes part in the shuffles, rows or not.
    for (int s = W / 2; s > 0; s /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, s, W);
    if (i < rows && lane == 0)
        y[i] = sum;
}

template <typename T>
cudaError_t launch(int width, int32_t rows, const int32_t *rp, const int32_t *ci, const spmvlab_value_store *vs,
                   const void *val, const T *x, T *y, cudaStream_t s)
{
    if (rows == 0)
        return cudaSuccess;
    int64_t threads = (int64_t)rows * width;
    unsigned blocks = (unsigned)((threads + kBlock - 1) / kBlock);
    return with_values<T>(vs, val, [&](auto v) {
        using V = decltype(v);
        with_lanes<32>(width, [&](auto lanes) {
            if constexpr (decltype(lanes)::value == 1)
                csr_scalar<T, V><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y);
            else
                csr_vector<T, decltype(lanes)::value, V><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y);
        });
        return cudaGetLastError();
    });
}

} // namespace

extern "C" int csr_launch(int is_f64, int width, int32_t rows, const int32_t *row_ptr, const int32_t *col_idx,
                          const spmvlab_value_store *vs, const void *val, const void *x, void *y, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (is_f64)
        return launch<double>(width, rows, row_ptr, col_idx, vs, val, static_cast<const double *>(x),
                              static_cast<double *>(y), s);
    return launch<float>(width, rows, row_ptr, col_idx, vs, val, static_cast<const float *>(x),
                         static_cast<float *>(y), s);
}

SPMVLAB_CUDA_ERROR_STRING(csr)
