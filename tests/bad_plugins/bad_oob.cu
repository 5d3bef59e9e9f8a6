// Test plugin bad_oob: one thread per row, plus one store far beyond y.
#include <cuda_runtime.h>
#include <stdint.h>


// Far past any allocation of an 80 GB device: an illegal address for sure.
#define BAD_OOB_OFFSET ((size_t)1 << 37)

template <typename T>
__global__ void bad_oob_csr(int rows, const int32_t *row_ptr, const int32_t *col, const T *val, const T *x, T *y,
                            int fault)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (fault && r == 0)
        *(volatile T *)((char *)y + BAD_OOB_OFFSET) = T(1);
    if (r >= rows)
        return;
    T s = 0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
        s += val[k] * x[col[k]];
    y[r] = s;
}

extern "C" int bad_oob_launch(int rows, const void *row_ptr, const void *col, const void *val, int f64,
                              const void *x, void *y, int fault, void *stream)
{
    int blocks = (rows + 255) / 256;
    if (blocks == 0)
        return 0;
    cudaStream_t s = (cudaStream_t)stream;
    const int32_t *rp = (const int32_t *)row_ptr, *ci = (const int32_t *)col;
    if (f64)
        bad_oob_csr<double><<<blocks, 256, 0, s>>>(rows, rp, ci, (const double *)val, (const double *)x,
                                                   (double *)y, fault);
    else
        bad_oob_csr<float><<<blocks, 256, 0, s>>>(rows, rp, ci, (const float *)val, (const float *)x, (float *)y,
                                                  fault);
    return (int)cudaGetLastError();
}

extern "C" const char *bad_oob_error_string(int code) { return cudaGetErrorString((cudaError_t)code); }
