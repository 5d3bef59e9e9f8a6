/*
 * CSR5 executed on the CPU from the format's own arrays (spmv_host), for f64
 * and f32. The algorithm lives in csr5_host_impl.h, instantiated per type.
 */
#include <math.h>
#include <string.h>

#include "csr5_format.h"
#include "csr5_tile.h"

/* The row of y a stored row is written to (kernel: c5_yrow). */
#define CSR5_YROW(h, r) ((h)->row_map ? (h)->row_map[(r)] : (r))

#define CSR5_V double
#define CSR5_FMA fma
#define CSR5_FN(name) csr5_host_##name##_f64
#include "csr5_host_impl.h"
#undef CSR5_V
#undef CSR5_FMA
#undef CSR5_FN

#define CSR5_V float
#define CSR5_FMA fmaf
#define CSR5_FN(name) csr5_host_##name##_f32
#include "csr5_host_impl.h"
#undef CSR5_V
#undef CSR5_FMA
#undef CSR5_FN

void csr5_host_f64(const csr5_fmt *f, const double *x, double *y) { csr5_host_spmv_f64(f, x, y, f->h_pieces); }

void csr5_host_f32(const csr5_fmt *f, const float *x, float *y) { csr5_host_spmv_f32(f, x, y, f->h_pieces); }
