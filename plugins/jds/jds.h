/*
 * jds: the format handle (built by jds.c, inspected by test_jds.c) and the
 * kernel launchers that jds.c calls and jds.cu defines. Each launcher returns
 * cudaGetLastError() after its launch (cudaSuccess when there was nothing to
 * launch). Values, x and y are double for SPMVLAB_F64 and float for
 * SPMVLAB_F32.
 */
#ifndef SPMVLAB_JDS_H
#define SPMVLAB_JDS_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block: one thread per sorted row. */
#define JDS_BLOCK 256

typedef struct jds_format {
    spmvlab_ctx *ctx;        /* services; outlives the format */
    spmvlab_dtype dtype;     /* value type of val, x and y */
    int32_t rows, cols, nnz; /* matrix shape and non-zeros */
    int32_t diagonals;       /* D: jagged diagonals, the longest row's length */
    int32_t sections;        /* 0: plain JDS; else the number of ELL sections */
    int32_t section_rows;    /* sorted rows per section, the last may have fewer */
    int32_t slots;           /* stored values: nnz plus the sections' padding */
    int32_t ptr_len;         /* entries of ptr: D + 1 (plain) or sections + 1 */
    size_t bytes;            /* live dev_alloc bytes, the footprint */
    /* host copies, read by spmv_host */
    int32_t *perm; /* rows: sorted position -> original row */
    int32_t *ptr;  /* jd_ptr (plain) or sec_ptr (sections) */
    int32_t *col;  /* slots columns, -1 in padding */
    void *val;     /* slots values, 0 in padding */
    /* device copies, read by the kernels */
    int32_t *d_perm, *d_ptr, *d_col;
    void *d_val;
} jds_format;

/* Plain JDS: thread r (sorted position) sums entry d of its row at
 * jd_ptr[d] + r while r < jd_ptr[d+1] - jd_ptr[d], and stores the sum in
 * y[perm[r]]. Every row is written, empty rows with 0. */
cudaError_t jds_launch_diagonals(int dtype, int32_t rows, int32_t diagonals, const int32_t *perm,
                                 const int32_t *jd_ptr, const int32_t *col, const void *val,
                                 const void *x, void *y, cudaStream_t stream);

/* Sectioned JDS: sorted row r lies in section s = r / section_rows, an ELL
 * block of nr rows (section_rows, the last may be shorter) and width
 * (sec_ptr[s+1] - sec_ptr[s]) / nr; slot (r, k) at sec_ptr[s] + k*nr + r -
 * s*section_rows; col < 0 marks padding, at the end of a row. */
cudaError_t jds_launch_sections(int dtype, int32_t rows, int32_t section_rows, const int32_t *perm,
                                const int32_t *sec_ptr, const int32_t *col, const void *val,
                                const void *x, void *y, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
