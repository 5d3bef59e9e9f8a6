/*
 * SELL-C-sigma: what the host side (sell.c, sell_build.c, sell_host.c) and
 * the kernels (sell.cu) share. The format is described in sell.c.
 */
#ifndef SPMVLAB_SELL_H
#define SPMVLAB_SELL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads of one warp; C and threads_per_row are chosen relative to it. */
#define SELL_WARP 32

/* Column index of a padding slot: the kernels load no x for it, so a
 * padding slot never multiplies an x value (Inf or NaN in x stays out). */
#define SELL_PAD_COL (-1)

/* Slots a lane loads before it adds them (memory-level parallelism). */
#define SELL_UNROLL 4

/* Long-row path: one warp adds one piece of at most SELL_PIECE entries of a
 * long row, each lane SELL_PIECE / 32 of them; rows of several pieces are
 * finished by a second kernel that adds the pieces' partial sums. */
#define SELL_PIECE 512

/* The options struct the core fills (ABI 1.1); INT_AUTO members hold
 * SPMVLAB_AUTO for "auto". */
typedef struct sell_opts {
    int C;               /* rows per slice */
    int sigma;           /* sorting window in rows, or auto */
    int threads_per_row; /* lanes per row, or auto */
    int long_row;        /* rows longer than this take the long-row path, or auto */
} sell_opts;

/* The device arrays of one SELL-C-sigma matrix plus its long-row tail, as
 * the kernels read them. */
typedef struct sell_device_view {
    int32_t rows;               /* rows of A; sorted positions >= rows are padding */
    int32_t C;                  /* rows per slice */
    int32_t threads_per_row;    /* 1, 2, 4, ..., 32 lanes share one row */
    int32_t is_f32;             /* values, x and y are float (else double) */
    const int32_t *slice_ptr;   /* first slot of each slice, nslices + 1 (width = diff / C) */
    const int32_t *perm;        /* original row of each sorted position; NULL = identity */
    const int32_t *col;         /* column of each slot, SELL_PAD_COL for padding */
    const void *val;            /* value of each slot, 0 for padding */
    int32_t nlong;              /* long rows (0: no long-row path) */
    int32_t npieces;            /* pieces of the long rows */
    int32_t multi_piece;        /* 1 when some long row has more than one piece */
    const int32_t *long_row;    /* original row of each long row, nlong */
    const int32_t *long_ptr;    /* first entry of each long row, nlong + 1 */
    const int32_t *piece_ptr;   /* first piece of each long row, nlong + 1 */
    const int32_t *piece_of;    /* long row of each piece, npieces */
    const int32_t *long_col;    /* columns of the long rows' entries */
    const void *long_val;       /* values of the long rows' entries */
    void *partial;              /* one partial sum per piece (dtype) */
} sell_device_view;

/* Launches y = A*x on stream (a cudaStream_t): the slices, then the long
 * rows (which overwrite their rows of y). Returns the first cudaError_t as
 * an int (0 = cudaSuccess). */
int sell_spmv_launch(const sell_device_view *A, const void *x, void *y, void *stream);

/* The text of a CUDA error code returned by sell_spmv_launch. */
const char *sell_cuda_error_text(int code);

#ifdef __cplusplus
}
#endif
#endif /* SPMVLAB_SELL_H */
