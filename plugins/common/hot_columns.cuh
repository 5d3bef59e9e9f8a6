// Hot columns on the device (hot_columns.h): the buffer's gather, one small
// launch before a format's kernel, and the readers of x a kernel takes in
// place of the pointer: plain_x reads x, hot_x reads a hot entry (negative
// column) from the buffer. Both return the same bits for the same entry.
#ifndef SPMVLAB_PLUGINS_COMMON_HOT_COLUMNS_CUH
#define SPMVLAB_PLUGINS_COMMON_HOT_COLUMNS_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "hot_columns.h"

template <typename T>
struct plain_x {
    const T *__restrict__ x;
    __device__ __forceinline__ T operator()(int32_t c) const { return __ldg(x + c); }
};

template <typename T>
struct hot_x {
    const T *__restrict__ x;
    const T *__restrict__ end; // the buffer's end: hot entry c < 0 reads end[c]
    __device__ __forceinline__ T operator()(int32_t c) const { return __ldg((c < 0 ? end : x) + c); }
};

// buf[h] = x[col[h]] for the n hot columns.
template <typename T>
__global__ void hot_columns_gather(T *__restrict__ buf, const T *__restrict__ x, const int32_t *__restrict__ col,
                                   int32_t n)
{
    const int32_t h = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (h < n)
        buf[h] = __ldg(x + __ldg(col + h));
}

// Gathers the buffer of h (if any) on stream s, then calls f with the
// reader of x: f(plain_x<T>) without hot columns, f(hot_x<T>) with them.
// Returns the gather's launch error, else what f returns.
template <typename T, typename F>
cudaError_t with_x(const spmvlab_hot_columns *h, const T *x, cudaStream_t s, F &&f)
{
    if (h->count == 0)
        return f(plain_x<T>{x});
    T *buf = static_cast<T *>(h->d_x);
    constexpr int kBlock = 256;
    hot_columns_gather<T><<<(unsigned)((h->count + kBlock - 1) / kBlock), kBlock, 0, s>>>(
        buf, x, static_cast<const int32_t *>(h->d_col), h->count);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    return f(hot_x<T>{x, buf + h->count});
}

#endif
