/*
 * SELL-C-sigma: what the host side (sell.c) and the kernels (sell.cu) share.
 */
#ifndef SPMVLAB_SELL_H
#define SPMVLAB_SELL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads of one warp; C and threads_per_row are chosen relative to it. */
#define SELL_WARP 32

/* Column index of a padding entry: the kernels skip it, so a padding slot
 * never multiplies an x value (Inf or NaN in x stays out of other rows). */
#define SELL_PAD_COL (-1)

/* The device arrays of one SELL-C-sigma matrix, as the kernels read them. */
typedef struct sell_device_view {
    int32_t rows;               /* rows of A; sorted positions >= rows are padding */
    int32_t C;                  /* rows per slice */
    int32_t threads_per_row;    /* 1, 2, 4, ..., 32 threads share one row */
    int32_t is_f32;             /* values, x and y are float (else double) */
    const int64_t *slice_ptr;   /* first entry of each slice, nslices + 1 */
    const int32_t *slice_width; /* entries per row of each slice, nslices */
    const int32_t *perm;        /* original row of each sorted position; NULL = identity */
    const int32_t *col;         /* column of each stored entry, SELL_PAD_COL for padding */
    const void *val;            /* value of each stored entry, 0 for padding */
} sell_device_view;

/* Launches y = A*x on stream (a cudaStream_t) for A->rows > 0. Returns the
 * cudaError_t of the launch as an int (0 = cudaSuccess). */
int sell_spmv_launch(const sell_device_view *A, const void *x, void *y, void *stream);

/* The text of a CUDA error code returned by sell_spmv_launch. */
const char *sell_cuda_error_text(int code);

#ifdef __cplusplus
}
#endif
#endif /* SPMVLAB_SELL_H */
