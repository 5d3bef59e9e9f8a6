// band kernel: one thread per row over the stored diagonals.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "band_kernels.h"

namespace {

constexpr int kBlock = 256;

// The value type in memory (T) and the type sums are kept in (Acc):
// f64/f64, f32/f32, f16/f32. load() widens, store() rounds once.
template <typename T> struct Value {
    using Acc = T;
    static __device__ Acc load(T v) { return v; }
    static __device__ T store(Acc s) { return s; }
};
template <> struct Value<__half> {
    using Acc = float;
    static __device__ float load(__half v) { return __half2float(v); }
    static __device__ __half store(float s) { return __float2half_rn(s); }
};

// Thread i: for each diagonal d, the entry data[d·rows + i] sits in column
// i + offsets[d]; entries whose column falls outside the matrix are padding
// and skipped, as in band_spmv_host. Consecutive threads read consecutive
// data, so the loads coalesce.
template <typename T>
__global__ void band_rows(int32_t rows, int32_t cols, int32_t ndiag, const int32_t *__restrict__ offsets,
                         const T *__restrict__ data, const T *__restrict__ x, T *__restrict__ y)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows)
        return;
    typename Value<T>::Acc sum = 0;
    for (int32_t d = 0; d < ndiag; d++) {
        int64_t j = i + __ldg(offsets + d);
        if (j >= 0 && j < cols)
            sum = fma(Value<T>::load(data[(int64_t)d * rows + i]), Value<T>::load(x[j]), sum);
    }
    y[i] = Value<T>::store(sum);
}

template <typename T>
cudaError_t launch(int32_t rows, int32_t cols, int32_t ndiag, const int32_t *offsets, const void *data,
                   const void *x, void *y, cudaStream_t s)
{
    if (rows == 0) // no empty grids; with ndiag == 0 every row still gets its 0
        return cudaSuccess;
    unsigned blocks = (unsigned)(((int64_t)rows + kBlock - 1) / kBlock);
    band_rows<T><<<blocks, kBlock, 0, s>>>(rows, cols, ndiag, offsets, static_cast<const T *>(data),
                                          static_cast<const T *>(x), static_cast<T *>(y));
    return cudaGetLastError();
}

} // namespace

extern "C" int band_launch(int dtype, int32_t rows, int32_t cols, int32_t ndiag, const int32_t *offsets,
                          const void *data, const void *x, void *y, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    switch (dtype) {
    case 0: return launch<double>(rows, cols, ndiag, offsets, data, x, y, s);
    case 1: return launch<float>(rows, cols, ndiag, offsets, data, x, y, s);
    default: return launch<__half>(rows, cols, ndiag, offsets, data, x, y, s);
    }
}

extern "C" const char *band_error_string(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }
