// Test plugin bad_hang: a kernel that waits for a flag nobody sets.
#include <cuda_runtime.h>

__global__ void bad_hang_spin(volatile int *flag)
{
    while (*flag == 0)
        __nanosleep(1000);
}

extern "C" int bad_hang_launch(volatile int *flag, void *stream)
{
    bad_hang_spin<<<1, 1, 0, (cudaStream_t)stream>>>(flag);
    return (int)cudaGetLastError();
}

extern "C" const char *bad_hang_error_string(int code) { return cudaGetErrorString((cudaError_t)code); }
