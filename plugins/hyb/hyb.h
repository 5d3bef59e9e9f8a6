/*
 * hyb: the format handle (built by hyb.c, inspected by test_hyb.c) and the
 * kernel launchers that hyb.c calls and hyb.cu defines. Each launcher returns
 * cudaGetLastError() after its launch (cudaSuccess when there was nothing to
 * launch). Values, x and y are double for SPMVLAB_F64 and float for
 * SPMVLAB_F32.
 */
#ifndef SPMVLAB_HYB_H
#define SPMVLAB_HYB_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of both kernels. */
#define HYB_BLOCK 256
/* Lanes per warp: one COO chunk per warp step. */
#define HYB_WARP 32

typedef struct hyb_format {
    spmvlab_ctx *ctx;     /* services; outlives the format */
    spmvlab_dtype dtype;  /* value type of val arrays, x and y */
    int32_t rows, cols;   /* matrix shape */
    int32_t width;        /* K: ELL slots per row */
    int32_t ell_entries;  /* non-zeros in the ELL part (slots minus padding) */
    int32_t coo_entries;  /* non-zeros in the COO part */
    int32_t coo_interval; /* COO entries per warp, a multiple of 32 */
    int32_t coo_warps;    /* warps of the COO kernel */
    size_t bytes;         /* live dev_alloc bytes, the footprint */
    /* host copies, read by spmv_host */
    int32_t *ell_col;           /* rows*K columns, -1 in padding */
    void *ell_val;              /* rows*K values, 0 in padding */
    int32_t *coo_row, *coo_col; /* coo_entries rows and columns */
    void *coo_val;              /* coo_entries values */
    /* device copies, read by the kernels */
    int32_t *d_ell_col;
    void *d_ell_val;
    int32_t *d_coo_row, *d_coo_col;
    void *d_coo_val;
} hyb_format;

/* y[i] = sum of row i's ELL part, for every row (plain store). width 0 still
 * writes y = 0. col < 0 marks padding, always at the end of a row. */
cudaError_t hyb_launch_ell(int dtype, int32_t rows, int32_t width, const int32_t *col,
                           const void *val, const void *x, void *y, cudaStream_t stream);

/* y[row] += overflow entries: warp w takes entries [w*interval, (w+1)*interval)
 * in chunks of 32, reduces equal-row runs with a segmented warp scan and
 * issues one atomicAdd per run (a run crossing chunks is carried; the runs
 * the warps of a block carry out are combined before their atomics). */
cudaError_t hyb_launch_coo(int dtype, int32_t entries, int32_t interval, int32_t warps,
                           const int32_t *row, const int32_t *col, const void *val, const void *x,
                           void *y, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
