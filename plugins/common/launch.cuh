// The host side of a plugin's extern "C" launchers, shared by the .cu files
// of several in-tree plugins: the dispatch on the run's dtype and the error
// text that the plugin's .c files hand to spmvlab_launched.
#ifndef SPMVLAB_PLUGINS_COMMON_LAUNCH_CUH
#define SPMVLAB_PLUGINS_COMMON_LAUNCH_CUH

#include <cuda_runtime.h>

#include <type_traits>

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

// Calls launch(std::integral_constant<int, G>()) for the power of two G in
// [1, MOST] equal to lanes, MOST when none is (lane counts are checked by
// the plugin before): a kernel's lanes-per-row template argument.
template <int MOST, int G = 1, typename Launch>
static inline void with_lanes(int lanes, Launch launch)
{
    if constexpr (G < MOST) {
        if (lanes != G)
            return with_lanes<MOST, 2 * G>(lanes, launch);
    }
    launch(std::integral_constant<int, G>());
}

// Defines the extern "C" launcher `int NAME(const F *f, const void *x,
// void *y, void *stream)` of a format F whose typed launch is
// launch_typed(f, x, y, cudaStream_t) in scope: launch_f64_f32 with work
// (an expression of f), the dtype f->dtype and the stream as cudaStream_t.
#define SPMVLAB_TYPED_LAUNCHER(NAME, F, work)                                                              \
    extern "C" int NAME(const F *f, const void *x, void *y, void *stream)                                  \
    {                                                                                                      \
        cudaStream_t s = static_cast<cudaStream_t>(stream);                                                \
        return launch_f64_f32(work, f->dtype, x, y,                                                        \
                              [&](auto xt, auto yt) { return launch_typed(f, xt, yt, s); });               \
    }

// Defines P##_error_string(code): cudaGetErrorString for the .c files, which
// include no CUDA header.
#define SPMVLAB_CUDA_ERROR_STRING(P) \
    extern "C" const char *P##_error_string(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }

#endif
