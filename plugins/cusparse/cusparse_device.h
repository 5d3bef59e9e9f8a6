/*
 * The device side of the cusparse plugin: the layout's arrays in tracked
 * device memory, the cuSPARSE handle and descriptors, the work buffer, and
 * the call of cusparseSpMV on the run's stream.
 */
#ifndef CUSPARSE_DEVICE_H
#define CUSPARSE_DEVICE_H

#include <cusparse.h>

#include "cusparse_layout.h"

typedef struct cusparse_device {
    void *d_ptr, *d_idx, *d_val;  /* the layout's arrays (tracked) */
    void *d_buffer;               /* cuSPARSE's external buffer (tracked) */
    /* BSR only, when rows or columns are not a multiple of b: x and y of
     * whole blocks, since cuSPARSE reads and writes bcols·b and brows·b
     * entries; x's tail stays zero (tracked). */
    void *d_xpad, *d_ypad;
    cusparseHandle_t handle;
    cusparseSpMatDescr_t mat;
    cusparseDnVecDescr_t vx, vy;
    const void *x_bound;          /* pointers the vector descriptors hold now */
    void *y_bound;
    cusparseSpMVAlg_t alg;
    int zeros;                    /* nothing stored: spmv only zeroes y */
    int version;                  /* cusparseGetVersion, 0 without a GPU */
} cusparse_device;

/* Uploads L's arrays (and the BSR staging vectors) through the core, with or
 * without a GPU, so the footprint is the same on both. Returns the core's
 * status with its sentence. */
spmvlab_status cusparse_device_upload(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L,
                                      spmvlab_err *err);

/* Creates the handle and descriptors, sizes and allocates the buffer and
 * runs cusparseSpMV_preprocess on ctx->stream. alg2 selects CSR_ALG2 or
 * COO_ALG2. Returns OK, UNSUPPORTED (cuSPARSE refuses the combination),
 * NOMEM or CUDA_ERROR, each with a sentence; only called with a GPU. */
spmvlab_status cusparse_device_setup(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L, int alg2,
                                     spmvlab_err *err);

/* y = A·x on stream: no allocation, no synchronisation. */
spmvlab_status cusparse_device_spmv(cusparse_device *D, spmvlab_ctx *ctx, const cusparse_layout *L, const void *x,
                                    void *y, void *stream, spmvlab_err *err);

/* Destroys the cuSPARSE objects and frees every tracked array. */
void cusparse_device_free(cusparse_device *D, spmvlab_ctx *ctx);

#endif
