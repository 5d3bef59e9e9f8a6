// slowcsr kernels: CSR with `width` lanes per row, and the two ways of
// planting a slowdown (a delay after the SpMV, or extra memory traffic).
#include <cuda_runtime.h>

#include "slowcsr_kernels.h"

namespace {

constexpr int kBlock = 256;

template <typename T, int W>
__global__ void slowcsr_rows(int32_t rows, const int32_t *__restrict__ row_ptr, const int32_t *__restrict__ col_idx,
                             const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y, int wrong)
{
    int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int32_t i = (int32_t)(tid / W);
    int lane = threadIdx.x % W;
    T sum = 0;
    if (i < rows)
        for (int32_t k = row_ptr[i] + lane, e = row_ptr[i + 1]; k < e; k += W)
            sum += val[k] * x[col_idx[k]];
    for (int s = W / 2; s > 0; s /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, s, W);
    if (i < rows && lane == 0)
        y[i] = sum + (wrong && i == 0 ? T(1) : T(0));
}

// The planted work: the same loads as the SpMV for `extra` non-zeros,
// summed into a value the compiler cannot drop (stored only if it equals
// the sentinel, which it never does).
template <typename T>
__global__ void slowcsr_extra(int64_t extra, int32_t nnz, const int32_t *__restrict__ col_idx,
                              const T *__restrict__ val, const T *__restrict__ x, T *sink)
{
    int64_t stride = (int64_t)gridDim.x * blockDim.x;
    T acc = 0;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < extra; k += stride) {
        int32_t j = k < nnz ? (int32_t)k : (int32_t)(k % nnz);
        acc += val[j] * x[col_idx[j]];
    }
    if (acc == T(-1.2345e-30))
        *sink = acc;
}

template <typename T>
cudaError_t launch(int width, int32_t rows, int32_t nnz, const int32_t *rp, const int32_t *ci, const T *v, const T *x,
                   T *y, int64_t extra, int wrong, T *sink, cudaStream_t s)
{
    if (rows > 0) {
        unsigned blocks = (unsigned)(((int64_t)rows * width + kBlock - 1) / kBlock);
        switch (width) {
        case 1: slowcsr_rows<T, 1><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y, wrong); break;
        case 2: slowcsr_rows<T, 2><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y, wrong); break;
        case 4: slowcsr_rows<T, 4><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y, wrong); break;
        case 8: slowcsr_rows<T, 8><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y, wrong); break;
        case 16: slowcsr_rows<T, 16><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y, wrong); break;
        default: slowcsr_rows<T, 32><<<blocks, kBlock, 0, s>>>(rows, rp, ci, v, x, y, wrong); break;
        }
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
    }
    if (extra > 0 && nnz > 0) {
        int64_t want = (extra + kBlock - 1) / kBlock;
        unsigned blocks = (unsigned)(want < 4096 ? want : 4096);
        slowcsr_extra<T><<<blocks, kBlock, 0, s>>>(extra, nnz, ci, v, x, sink);
        return cudaGetLastError();
    }
    return cudaSuccess;
}

__global__ void slowcsr_spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

} // namespace

extern "C" int slowcsr_delay(long long cycles, void *stream)
{
    if (cycles <= 0)
        return cudaSuccess;
    slowcsr_spin<<<1, 1, 0, static_cast<cudaStream_t>(stream)>>>(cycles);
    return cudaGetLastError();
}

extern "C" int slowcsr_calibrate(int is_f64, int width, int32_t rows, const int32_t *row_ptr, const int32_t *col_idx,
                                 const void *val, const void *x, void *y, void *stream, double *kernel_ms,
                                 double *cycles_per_ms)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    cudaEvent_t e0, e1;
    cudaError_t e = cudaEventCreate(&e0);
    if (e != cudaSuccess)
        return e;
    if ((e = cudaEventCreate(&e1)) != cudaSuccess) {
        cudaEventDestroy(e0);
        return e;
    }
    const int calls = 10;
    const long long spin = 1ll << 23;
    float ms_kernel = 0, ms_spin = 0;
    for (int k = 0; k < 2 + calls && e == cudaSuccess; k++) { // two warm-up calls
        if (k == 2)
            e = cudaEventRecord(e0, s);
        if (e == cudaSuccess)
            e = (cudaError_t)slowcsr_launch(is_f64, width, rows, 0, row_ptr, col_idx, val, x, y, 0, 0, nullptr, stream);
    }
    if (e == cudaSuccess && (e = cudaEventRecord(e1, s)) == cudaSuccess && (e = cudaEventSynchronize(e1)) == cudaSuccess)
        e = cudaEventElapsedTime(&ms_kernel, e0, e1);
    if (e == cudaSuccess && (e = cudaEventRecord(e0, s)) == cudaSuccess &&
        (e = (cudaError_t)slowcsr_delay(spin, stream)) == cudaSuccess && (e = cudaEventRecord(e1, s)) == cudaSuccess &&
        (e = cudaEventSynchronize(e1)) == cudaSuccess)
        e = cudaEventElapsedTime(&ms_spin, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (e != cudaSuccess)
        return e;
    *kernel_ms = ms_kernel / calls;
    *cycles_per_ms = ms_spin > 0 ? spin / ms_spin : 0;
    return cudaSuccess;
}

extern "C" int slowcsr_launch(int is_f64, int width, int32_t rows, int32_t nnz, const int32_t *row_ptr,
                              const int32_t *col_idx, const void *val, const void *x, void *y, int64_t extra,
                              int wrong, void *sink, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (is_f64)
        return launch<double>(width, rows, nnz, row_ptr, col_idx, static_cast<const double *>(val),
                              static_cast<const double *>(x), static_cast<double *>(y), extra, wrong,
                              static_cast<double *>(sink), s);
    return launch<float>(width, rows, nnz, row_ptr, col_idx, static_cast<const float *>(val),
                         static_cast<const float *>(x), static_cast<float *>(y), extra, wrong,
                         static_cast<float *>(sink), s);
}

extern "C" const char *slowcsr_error_string(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }
