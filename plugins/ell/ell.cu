// ell kernel: one thread per row over the column-major ELL-R slots. Thread i
// reads slot k * rows + i for k < row_len[i], so a warp's loads of one k are
// 32 consecutive words; padding is never read. The format is described at the
// top of ell.c.
#include <cuda_runtime.h>
#include <stdint.h>

#include "../common/value_store.cuh"

namespace {

// Fused multiply-add in the dtype, the same operation spmv_host uses.
__device__ __forceinline__ double ell_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float ell_fma(float a, float b, float c) { return fmaf(a, b, c); }

// val: the values functor (value_store.cuh): the value, its code's table
// entry, or the pattern's value.
template <typename T, typename V>
__global__ void ell_kernel(int32_t rows, const int32_t *__restrict__ row_len,
                           const int32_t *__restrict__ col, V val,
                           const T *__restrict__ x, T *__restrict__ y)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    const int32_t len = __ldg(&row_len[i]);
    const size_t stride = (size_t)rows;
    size_t s = (size_t)i;
    T sum = 0;
    for (int32_t k = 0; k < len; k++, s += stride)
        sum = ell_fma(val((int64_t)s), __ldg(&x[__ldg(&col[s])]), sum);
    y[i] = sum;
}

template <typename T>
cudaError_t ell_launch_typed(int32_t rows, int block, const int32_t *row_len, const int32_t *col,
                             const spmvlab_value_store *vs, const void *val, const void *x, void *y,
                             cudaStream_t stream)
{
    const unsigned grid = (unsigned)(((long long)rows + block - 1) / block);
    return with_values<T>(vs, val, [&](auto vals) {
        ell_kernel<T><<<grid, block, 0, stream>>>(rows, row_len, col, vals, static_cast<const T *>(x),
                                                  static_cast<T *>(y));
        return cudaGetLastError();
    });
}

} // namespace

// y = A x for rows rows; nothing to launch when rows == 0 (a matrix without
// non-zeros still runs the kernel, which writes 0 to every row). Returns the
// launch's error, cudaSuccess otherwise.
extern "C" cudaError_t ell_launch(int f64, int32_t rows, int block, const int32_t *row_len,
                                  const int32_t *col, const spmvlab_value_store *vs, const void *val,
                                  const void *x, void *y, cudaStream_t stream)
{
    if (rows <= 0)
        return cudaSuccess;
    return f64 ? ell_launch_typed<double>(rows, block, row_len, col, vs, val, x, y, stream)
               : ell_launch_typed<float>(rows, block, row_len, col, vs, val, x, y, stream);
}
