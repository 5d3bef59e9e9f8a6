/* The band plugin's kernel launcher (band.cu), callable from C. */
#ifndef BAND_KERNELS_H
#define BAND_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = A·x for a DIA matrix: dtype is a spmvlab_dtype (0 f64, 1 f32, 2 f16);
 * offsets and data are device arrays. Asynchronous on stream (a
 * cudaStream_t). Returns 0 or the cudaError_t of the launch. */
int band_launch(int dtype, int32_t rows, int32_t cols, int32_t ndiag, const int32_t *offsets, const void *data,
               const void *x, void *y, void *stream);
/* The text of a cudaError_t code. */
const char *band_error_string(int code);

#ifdef __cplusplus
}
#endif
#endif
