// coo kernels: the textbook one-atomic-per-non-zero kernel and a warp
// segmented-reduction kernel with one atomic per run of equal rows. Both
// stride over the non-zeros with the whole grid; y is zeroed first on the
// same stream. The algorithm is described at the top of coo.c.
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr unsigned coo_full_mask = 0xffffffffu;
constexpr int coo_warp = 32;

// The product rounded on its own, never contracted with a following add into
// an fma, so each lane's term is exactly the one spmv_host computes.
__device__ __forceinline__ double coo_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float coo_mul(float a, float b) { return __fmul_rn(a, b); }

// One thread per non-zero per step: y[row] += val * x[col] atomically.
template <typename T>
__global__ void coo_atomic_kernel(int32_t nnz, const int32_t *__restrict__ row_idx,
                                  const int32_t *__restrict__ col_idx,
                                  const T *__restrict__ val, const T *__restrict__ x,
                                  T *__restrict__ y)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += stride)
        atomicAdd(&y[__ldg(&row_idx[k])], coo_mul(__ldg(&val[k]), __ldg(&x[__ldg(&col_idx[k])])));
}

// Each warp takes 32 consecutive non-zeros per step. An inclusive segmented
// scan (Hillis-Steele with offsets 1..16, adding only from a lane of the same
// row) leaves each run's total in its last lane, which issues the one atomic.
// Rows are sorted, so equal rows of a tile are contiguous and "same row as the
// lane off places back" means the whole window lies in the run. Requires
// blockDim.x to be a multiple of 32 so the loop bound is warp-uniform.
template <typename T>
__global__ void coo_segmented_kernel(int32_t nnz, const int32_t *__restrict__ row_idx,
                                     const int32_t *__restrict__ col_idx,
                                     const T *__restrict__ val, const T *__restrict__ x,
                                     T *__restrict__ y)
{
    const int lane = threadIdx.x & (coo_warp - 1);
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / coo_warp;
    const long long warps = (long long)gridDim.x * blockDim.x / coo_warp;
    for (long long base = warp * coo_warp; base < nnz; base += warps * coo_warp) {
        const long long k = base + lane;
        int32_t row = -1;
        T sum = 0;
        if (k < nnz) {
            row = __ldg(&row_idx[k]);
            sum = coo_mul(__ldg(&val[k]), __ldg(&x[__ldg(&col_idx[k])]));
        }
        for (int off = 1; off < coo_warp; off *= 2) {
            const T from = __shfl_up_sync(coo_full_mask, sum, off);
            const int32_t from_row = __shfl_up_sync(coo_full_mask, row, off);
            if (lane >= off && from_row == row)
                sum += from;
        }
        const int32_t next_row = __shfl_down_sync(coo_full_mask, row, 1);
        if (row >= 0 && (lane == coo_warp - 1 || next_row != row))
            atomicAdd(&y[row], sum);
    }
}

template <typename T>
cudaError_t coo_launch_typed(int segmented, int32_t nnz, int grid, int block,
                             const int32_t *row_idx, const int32_t *col_idx, const void *val,
                             const void *x, void *y, cudaStream_t stream)
{
    const T *v = static_cast<const T *>(val), *xx = static_cast<const T *>(x);
    T *yy = static_cast<T *>(y);
    if (segmented)
        coo_segmented_kernel<T><<<grid, block, 0, stream>>>(nnz, row_idx, col_idx, v, xx, yy);
    else
        coo_atomic_kernel<T><<<grid, block, 0, stream>>>(nnz, row_idx, col_idx, v, xx, yy);
    return cudaGetLastError();
}

} // namespace

// Zeroes y (rows values) on the stream, then launches the chosen kernel when
// there is a non-zero. Returns the first CUDA error, cudaSuccess otherwise.
extern "C" cudaError_t coo_launch(int segmented, int f64, int32_t rows, int32_t nnz, int grid,
                                  int block, const int32_t *row_idx, const int32_t *col_idx,
                                  const void *val, const void *x, void *y, cudaStream_t stream)
{
    const size_t y_bytes = (size_t)rows * (f64 ? sizeof(double) : sizeof(float));
    if (y_bytes > 0) {
        cudaError_t e = cudaMemsetAsync(y, 0, y_bytes, stream);
        if (e != cudaSuccess)
            return e;
    }
    if (nnz <= 0 || grid <= 0)
        return cudaSuccess;
    return f64 ? coo_launch_typed<double>(segmented, nnz, grid, block, row_idx, col_idx, val, x,
                                          y, stream)
               : coo_launch_typed<float>(segmented, nnz, grid, block, row_idx, col_idx, val, x,
                                         y, stream);
}
