/*
 * coo: the kernel choices and the launchers that coo.c calls and coo.cu
 * defines.
 */
#ifndef SPMVLAB_COO_H
#define SPMVLAB_COO_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "coo_owner.h"
#include "coo_segmented.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel option's choices, in the order of the table's "a|b|c" text. */
enum { COO_KERNEL_BLOCKED = 0, COO_KERNEL_SEGMENTED = 1, COO_KERNEL_ATOMIC = 2, COO_KERNEL_AUTO = 3 };

/* Zeroes y on the stream, then runs the chosen kernel (COO_KERNEL_*; items:
 * entries per lane and tile of the blocked kernel, 4 or 8) for the plan;
 * with own (not NULL; blocked or segmented, nnz > 0) no memset: the owner
 * write of coo_owner.h and its carry pass. Returns the first CUDA error. */
cudaError_t coo_launch(int kernel, int items, int f64, int32_t rows, int32_t nnz, coo_seg_plan plan,
                       const int32_t *row_idx, const int32_t *col_idx, const void *val,
                       const void *x, void *y, const coo_own *own, cudaStream_t stream);
/* Blocks of the blocked or segmented kernel resident per SM; 0 when unknown. */
int coo_occupancy(int kernel, int f64);

#ifdef __cplusplus
}
#endif
typedef struct coo_opts {
    int kernel; /* COO_KERNEL_* (coo.h) */
    int items;  /* blocked: consecutive entries per lane and tile, 4 or 8 */
    int zero;   /* COO_ZERO_* (coo_owner.h) */
    int chunk;  /* entries per warp's chunk, SPMVLAB_AUTO: one chunk per resident warp */
    int loads;  /* COO_LOADS_* */
    int edges;  /* COO_EDGES_* (coo_owner.h) */
} coo_opts;

/* The option table (coo_options.c). */
extern const spmvlab_option coo_options[];

#endif
