/*
 * hyb: the kernel launchers that hyb.c calls and hyb.cu defines. Each returns
 * cudaGetLastError() after its launch (cudaSuccess when there was nothing to
 * launch). Values, x and y are double for SPMVLAB_F64 and float for
 * SPMVLAB_F32.
 */
#ifndef SPMVLAB_HYB_H
#define SPMVLAB_HYB_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of both kernels. */
#define HYB_BLOCK 256
/* Lanes per warp: one COO chunk per warp step. */
#define HYB_WARP 32

/* y[i] = sum of row i's ELL part, for every row (plain store). width 0 still
 * writes y = 0. col < 0 marks padding, always at the end of a row. */
cudaError_t hyb_launch_ell(int dtype, int32_t rows, int32_t width, const int32_t *col,
                           const void *val, const void *x, void *y, cudaStream_t stream);

/* y[row] += overflow entries: warp w takes entries [w*interval, (w+1)*interval)
 * in chunks of 32, reduces equal-row runs with a segmented warp scan and
 * issues one atomicAdd per run (a run crossing chunks is carried). */
cudaError_t hyb_launch_coo(int dtype, int32_t entries, int32_t interval, int32_t warps,
                           const int32_t *row, const int32_t *col, const void *val,
                           const void *x, void *y, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
