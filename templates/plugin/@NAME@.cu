// @NAME@ kernels: one thread per row.
#include <cuda_runtime.h>

#include "@NAME@_kernels.h"

namespace {

// Thread i computes row i with fma in column order, exactly as
// @NAME@_spmv_host does. 64-bit index arithmetic keeps rows near INT32_MAX safe.
template <typename T>
__global__ void @NAME@_rows(int32_t rows, const int32_t *__restrict__ row_ptr, const int32_t *__restrict__ col_idx,
                            const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    T sum = 0;
    for (int32_t k = row_ptr[i], end = row_ptr[i + 1]; k < end; k++)
        sum = fma(val[k], __ldg(x + col_idx[k]), sum);
    y[i] = sum;
}

template <typename T>
cudaError_t launch(int block_size, int32_t rows, const int32_t *rp, const int32_t *ci, const T *v, const T *x, T *y,
                   cudaStream_t s)
{
    if (rows == 0) // no empty grids
        return cudaSuccess;
    unsigned blocks = (unsigned)(((int64_t)rows + block_size - 1) / block_size);
    @NAME@_rows<T><<<blocks, block_size, 0, s>>>(rows, rp, ci, v, x, y);
    return cudaGetLastError();
}

} // namespace

extern "C" int @NAME@_launch(int is_f64, int block_size, int32_t rows, const int32_t *row_ptr,
                             const int32_t *col_idx, const void *val, const void *x, void *y, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (is_f64)
        return launch<double>(block_size, rows, row_ptr, col_idx, static_cast<const double *>(val),
                              static_cast<const double *>(x), static_cast<double *>(y), s);
    return launch<float>(block_size, rows, row_ptr, col_idx, static_cast<const float *>(val),
                         static_cast<const float *>(x), static_cast<float *>(y), s);
}

extern "C" const char *@NAME@_error_string(int code)
{
    return cudaGetErrorString(static_cast<cudaError_t>(code));
}
