/* csr: the row-length statistics, the auto rule that picks a kernel from
 * them, and the adaptive path's row blocks and long-row pieces (csr_plan.c).
 * Pure host code, shared by convert and the tests. */
#ifndef CSR_PLAN_H
#define CSR_PLAN_H

#include <stdint.h>

typedef enum csr_kernel { CSR_AUTO = 0, CSR_SCALAR = 1, CSR_VECTOR = 2, CSR_ADAPTIVE = 3 } csr_kernel;

/* Rule constants (README, "The auto rule"). */
#define CSR_UNEVEN_CV 0.5       /* coefficient of variation above which rows are uneven */
#define CSR_SCALAR_MAX 4        /* regular rows of at most this length: scalar */
#define CSR_VECTOR_MEAN 96      /* regular rows of at least this mean length: vector */
#define CSR_VECTOR_MIN_ROWS 16384 /* ... when there are enough rows to fill the device */

typedef struct csr_stats {
    double mean; /* nnz / rows (0 without rows) */
    double cv;   /* standard deviation of the row lengths over their mean (0 if mean 0) */
    int32_t max; /* longest row */
} csr_stats;

/* Mean, coefficient of variation and maximum of the row lengths. */
csr_stats csr_row_stats(int32_t rows, const int32_t *row_ptr);

/* The auto rule: scalar, vector or adaptive for these statistics. */
csr_kernel csr_auto_kernel(const csr_stats *s, int32_t rows);

/* Lanes per row of the vector kernel: the power of two at or above the
 * mean, 2 to 32. */
int csr_vector_width(double mean);

/* The adaptive plan on the host. */
typedef struct csr_adaptive_plan {
    int32_t blocks;       /* row blocks */
    int32_t pieces;       /* long-row pieces */
    int32_t long_rows;    /* rows longer than CSR_AD_LONG */
    int32_t block_rows;   /* most short rows of a row block (8 to CSR_AD_ROWS) */
    int32_t block_nnz;    /* most non-zeros of a row block (CSR_AD_LONG to CSR_AD_CAP) */
    int32_t *blk_row;     /* blocks + 1 boundaries */
    int32_t *piece_row;   /* pieces rows */
    int32_t *piece_first; /* pieces: first piece of the same row */
} csr_adaptive_plan;

/* Bins the rows: consecutive rows of at most CSR_AD_LONG non-zeros form a
 * block while it holds at most block_rows rows and block_nnz non-zeros; rows
 * longer than CSR_AD_LONG are split into ceil(len / CSR_AD_PIECE) pieces and
 * trail the block before them (the block ends there, and its kernel leaves
 * its trailing long rows to their pieces), so no block is launched for a
 * long row alone (except when the matrix starts with one). block_rows (from
 * the option, CSR_AD_ROWS by default, down to 8) and block_nnz (from
 * CSR_AD_CAP down to CSR_AD_LONG) are halved together while
 * max(rows / block_rows, nnz / block_nnz) is below two blocks per SM
 * (sm_count; 132 when 0), so small matrices still spread over the device.
 * Returns 0, or -1 without memory (p then holds nothing). */
int csr_adaptive_build(csr_adaptive_plan *p, int32_t rows, const int32_t *row_ptr, int sm_count,
                       int32_t block_rows);
void csr_adaptive_free(csr_adaptive_plan *p);

#endif
