// The host side of a plugin's extern "C" launchers, shared by the .cu files
// of several in-tree plugins: the dispatch on the run's dtype and the error
// text that the plugin's .c files hand to spmvlab_launched.
#ifndef SPMVLAB_PLUGINS_COMMON_LAUNCH_CUH
#define SPMVLAB_PLUGINS_COMMON_LAUNCH_CUH

#include <cuda_runtime.h>

#include "spmvlab/plugin.h"

// cudaSuccess without work (a format with nothing to launch), else
// launch(x, y) with x and y as double for an f64 run, as float for f32.
template <typename Launch>
static inline int launch_f64_f32(bool work, spmvlab_dtype dtype, const void *x, void *y, Launch launch)
{
    if (!work)
        return cudaSuccess;
    if (dtype == SPMVLAB_F64)
        return launch(static_cast<const double *>(x), static_cast<double *>(y));
    return launch(static_cast<const float *>(x), static_cast<float *>(y));
}

// Defines P##_error_string(code): cudaGetErrorString for the .c files, which
// include no CUDA header.
#define SPMVLAB_CUDA_ERROR_STRING(P) \
    extern "C" const char *P##_error_string(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }

#endif
