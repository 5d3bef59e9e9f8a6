/*
 * The host side of the cusparse plugin's formats: the arrays handed to
 * cuSPARSE, built from the core's CSR on the CPU, and their execution on
 * the CPU in the same layout (spmv_host), so a CI machine without a GPU
 * checks every conversion.
 *
 *   csr   row_ptr[rows + 1], col_idx[nnz], val[nnz]
 *   coo   row_idx[nnz] (sorted by row), col_idx[nnz], val[nnz]
 *   sell  slice_ptr[ceil(rows / C) + 1], col[stored], val[stored]: each
 *         slice of C rows stored column-major (entry j of row r of slice s at
 *         slice_ptr[s] + j·C + r) over the slice's longest row; padding has
 *         column -1 and value 0, and the last slice is padded to C rows
 *         (cuSPARSE's Sliced-ELL, cusparseCreateSlicedEll)
 *   bsr   block_ptr[brows + 1], block_col[nnzb], val[nnzb·b²]: b x b blocks,
 *         row-major inside a block, block columns sorted; the rows and
 *         columns past the matrix's edge are zero (cusparseCreateBsr)
 *
 * Values are stored in `storage`: the run's dtype, or f32 in an f64 run
 * (the mixed mode: f32 matrix, f64 x, y and arithmetic).
 */
#ifndef CUSPARSE_LAYOUT_H
#define CUSPARSE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include <spmvlab/plugin.h>

#include "../common/block_count.h"

/* The cuSPARSE storage families, in the order of the `format` option. */
typedef enum cusparse_family {
    CUSPARSE_FAMILY_CSR = 0,
    CUSPARSE_FAMILY_COO = 1,
    CUSPARSE_FAMILY_SELL = 2,
    CUSPARSE_FAMILY_BSR = 3
} cusparse_family;

/* The smallest and largest BSR block dimension the plugin builds. */
#define CUSPARSE_BSR_MIN 2 /* option block ranges over "2..8" */
#define CUSPARSE_BSR_MAX 8

typedef struct cusparse_layout {
    cusparse_family family;
    spmvlab_dtype dtype;    /* x and y (f16 runs compute in f32) */
    spmvlab_dtype storage;  /* type of val: dtype, or f32 in an f64 run */
    int32_t rows, cols, nnz;
    int32_t slice;          /* sell: rows per slice (C) */
    int32_t block;          /* bsr: block dimension b */
    int32_t brows, bcols;   /* bsr: block rows and block columns (ceil of rows / b, cols / b) */
    int32_t *ptr;           /* row_ptr, row_idx, slice_ptr or block_ptr (see above) */
    int32_t *idx;           /* col_idx, sell col or block_col */
    void *val;              /* n_val values of `storage` */
    int64_t n_ptr, n_idx, n_val; /* entries of ptr, idx and val */
} cusparse_layout;

/* Stored value slots of a layout per non-zero (1 for csr and coo; the
 * padding shows for sell and bsr); 0 for an empty matrix. */
double cusparse_layout_fill(const cusparse_layout *L);

/* BSR's stored b x b blocks, or -1 when out of host memory. */
static inline int64_t cusparse_bsr_count(const spmvlab_matrix *A, int b)
{
    return block_count(A, b, b);
}

/* Device bytes of A in BSR with block b and nnzb blocks, values of size vs:
 * 4·(brows + 1) + 4·nnzb + vs·b²·nnzb. */
double cusparse_bsr_bytes(const spmvlab_matrix *A, int b, int64_t nnzb, size_t vs);

/* Number of stored entries (padding included) of A in Sliced-ELL with C
 * rows per slice. */
int64_t cusparse_sell_count(const spmvlab_matrix *A, int C);

/* Builds L from A. slice is read for sell, block (2..8) for bsr. Returns
 * OK, LIMIT (the arrays would pass 32-bit offsets) or NOMEM, with the
 * reason in why; on failure L holds nothing. */
spmvlab_status cusparse_layout_build(cusparse_layout *L, const spmvlab_matrix *A, cusparse_family family,
                                     spmvlab_dtype storage, int slice, int block, char *why, size_t len);

void cusparse_layout_free(cusparse_layout *L);

/* y = A·x from L's own arrays on the CPU. f64 runs accumulate in double
 * (from f64 or f32 values), f32 in float, f16 in float rounded once. */
void cusparse_layout_spmv_f64(const cusparse_layout *L, const double *x, double *y);
void cusparse_layout_spmv_f32(const cusparse_layout *L, const float *x, float *y);
void cusparse_layout_spmv_f16(const cusparse_layout *L, const uint16_t *x, uint16_t *y);

typedef struct cusparse_opts {
    int format;      /* cusparse_family */
    int alg;         /* CUSPARSE_ALGO_1 or _2 (csr and coo) */
    int slice;       /* sell: rows per slice */
    int block;       /* bsr: block dimension, or SPMVLAB_AUTO */
    double max_fill; /* sell and bsr: stored values / nnz allowed */
    int values;      /* CUSPARSE_VALUES_NATIVE or _F32 */
} cusparse_opts;

/* The values of the `alg` and `values` choices. */
enum { CUSPARSE_ALGO_1 = 0, CUSPARSE_ALGO_2 = 1 };
enum { CUSPARSE_VALUES_NATIVE = 0, CUSPARSE_VALUES_F32 = 1 };
/* The option table (cusparse_options.c). */
extern const spmvlab_option cusparse_options[];

#endif
