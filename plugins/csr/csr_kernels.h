/* The csr plugin's kernel launchers (csr.cu), callable from C. */
#ifndef CSR_KERNELS_H
#define CSR_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = A·x with `width` lanes per row (1 = scalar). f64 when is_f64, else
 * f32. Asynchronous on stream. Returns 0 or a cudaError_t code. */
int csr_launch(int is_f64, int width, int32_t rows, const int32_t *row_ptr, const int32_t *col_idx,
               const void *val, const void *x, void *y, void *stream);
const char *csr_error_string(int code);

#ifdef __cplusplus
}
#endif
#endif
