/*
 * DASP executed on the CPU from the format's arrays (spmv_host): f64 with
 * double accumulators, f16 with float accumulators and binary16 results,
 * as the kernels do. The parts are in dasp_host_impl.h.
 */
#include <math.h>
#include <string.h>

#include "dasp_format.h"

#define DASP_ACC double
#define DASP_FN(name) name##_f64
#define DASP_LOAD(p, i) (((const double *)(p))[i])
#define DASP_STORE(y, i, v) (((double *)(y))[i] = (v))
#define DASP_FMA(a, b, c) fma((a), (b), (c))
#include "dasp_host_impl.h"
#undef DASP_ACC
#undef DASP_FN
#undef DASP_LOAD
#undef DASP_STORE
#undef DASP_FMA

#define DASP_ACC float
#define DASP_FN(name) name##_f16
#define DASP_LOAD(p, i) spmvlab_half_to_float(((const uint16_t *)(p))[i])
#define DASP_STORE(y, i, v) (((uint16_t *)(y))[i] = spmvlab_float_to_half(v))
#define DASP_FMA(a, b, c) fmaf((a), (b), (c))
#include "dasp_host_impl.h"

/* The kernels' order: the balanced path alone, or the row classes. */
#define DASP_HOST_ENTRY(T, SUFFIX)                                          \
    void dasp_host_##SUFFIX(const dasp_format *f, const T *x, T *y)         \
    {                                                                       \
        if (f->balanced) {                                                  \
            if (f->bal_stream)                                              \
                host_stream_##SUFFIX(f, x, y);                              \
            else                                                            \
                host_balanced_##SUFFIX(f, x, y);                            \
            return;                                                         \
        }                                                                   \
        if (f->empty_mode == DASP_ER_MEMSET)                                \
            host_zero_##SUFFIX(f, y);                                       \
        host_long_##SUFFIX(f, x, y);                                        \
        host_medium_##SUFFIX(f, x, y);                                      \
        host_short_##SUFFIX(f, x, y);                                       \
        host_tail_##SUFFIX(f, x, y);                                        \
        host_runs_##SUFFIX(f, y);                                           \
        if (f->empty_mode == DASP_ER_BITMAP)                                \
            host_zero_##SUFFIX(f, y);                                       \
    }
DASP_HOST_ENTRY(double, f64)
DASP_HOST_ENTRY(uint16_t, f16)
