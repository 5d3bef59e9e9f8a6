/* csr: the format handle (built by csr.c, run on the CPU by csr_host.c). */
#ifndef CSR_FORMAT_H
#define CSR_FORMAT_H

#include <spmvlab/plugin.h>

#include "csr_kernels.h"
#include "csr_plan.h"

typedef struct csr_format {
    spmvlab_ctx *ctx;           /* services; outlives the format */
    spmvlab_dtype dtype;        /* value type of val, x and y */
    int32_t rows, cols, nnz;    /* matrix shape */
    csr_kernel kernel;          /* the path in use: scalar, vector or adaptive */
    int width;                  /* lanes per row: 1 scalar, 2..32 vector, 0 adaptive */
    int32_t block_rows;         /* adaptive: most rows of a row block before shrinking */
    csr_stats stats;            /* row lengths: what the auto rule read */
    csr_adaptive_plan plan;     /* adaptive only: row blocks and long-row pieces (host) */
    const int32_t *row_ptr;     /* host arrays of the input, valid until destroy */
    const int32_t *col_idx;
    const void *val;            /* A's values, or the core's codes (vs); NULL for a pattern */
    spmvlab_value_store vs;     /* native, codes into the core's value table, or one pattern value */
    int32_t *d_row_ptr, *d_col_idx; /* device copies */
    void *d_val;
    csr_adaptive_dev ad;        /* adaptive only: the plan's device arrays */
} csr_format;

/* spmv_host of each dtype: the path's own decomposition and order. */
void csr_host_f64(const csr_format *f, const double *x, double *y);
void csr_host_f32(const csr_format *f, const float *x, float *y);

typedef struct csr_opts {
    int kernel;     /* csr_kernel, the kernel choice's value */
    int width;      /* vector lanes, or SPMVLAB_AUTO */
    int block_rows; /* adaptive: most rows of a row block, or SPMVLAB_AUTO (CSR_AD_ROWS) */
    int values;     /* SPMVLAB_VALUES_*: native, indexed, pattern or auto */
} csr_opts;

/* The option table (csr_options.c). */
extern const spmvlab_option csr_options[];

#endif
