/* The @NAME@ plugin's kernel launchers (@NAME@.cu), callable from C. */
#ifndef @NAME_UPPER@_KERNELS_H
#define @NAME_UPPER@_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = A·x, one thread per row, block_size threads per block; f64 when
 * is_f64, else f32. Asynchronous on stream (a cudaStream_t). Returns 0 or
 * the cudaError_t of the launch. */
int @NAME@_launch(int is_f64, int block_size, int32_t rows, const int32_t *row_ptr, const int32_t *col_idx,
                  const void *val, const void *x, void *y, void *stream);
/* The text of a cudaError_t code. */
const char *@NAME@_error_string(int code);

#ifdef __cplusplus
}
#endif
#endif
