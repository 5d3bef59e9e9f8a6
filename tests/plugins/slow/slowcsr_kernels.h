/* slowcsr's launchers (slowcsr.cu), callable from C. */
#ifndef SLOWCSR_KERNELS_H
#define SLOWCSR_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = A·x with `width` lanes per row, then (extra > 0) a second pass that
 * gathers extra more products val[k]·x[col[k]] (k cycling through the
 * non-zeros) into a sum that is kept only when it equals *never. wrong = 1
 * adds 1 to y[0]. f64 when is_f64, else f32. Returns 0 or a cudaError_t. */
int slowcsr_launch(int is_f64, int width, int32_t rows, int32_t nnz, const int32_t *row_ptr, const int32_t *col_idx,
                   const void *val, const void *x, void *y, int64_t extra, int wrong, void *sink, void *stream);
/* A single thread spinning for `cycles` SM clock cycles on stream. */
int slowcsr_delay(long long cycles, void *stream);
/* Measures the row kernel (ms per call, over back-to-back calls into the
 * scratch x and y) and the SM clock (cycles per ms) on stream. Returns 0 or
 * a cudaError_t. */
int slowcsr_calibrate(int is_f64, int width, int32_t rows, const int32_t *row_ptr, const int32_t *col_idx,
                      const void *val, const void *x, void *y, void *stream, double *kernel_ms,
                      double *cycles_per_ms);
const char *slowcsr_error_string(int code);

#ifdef __cplusplus
}
#endif
#endif
