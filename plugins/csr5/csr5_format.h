/*
 * CSR5 on the host side: the format handle and the functions the C files of
 * the plugin share (conversion on the host, the CPU execution).
 */
#ifndef SPMVLAB_CSR5_FORMAT_H
#define SPMVLAB_CSR5_FORMAT_H

#include "spmvlab/plugin.h"
#include "csr5.h"

/* Host copies of the format's arrays, in the device layout (see csr5_tile.h). */
typedef struct csr5_arrays {
    int32_t *row_ptr;      /* rows + 1 */
    uint32_t *tile_ptr;    /* tiles + 1, row | CSR5_EMPTY_FLAG */
    uint32_t *desc;        /* tiles * 32 * W words */
    int32_t *eo_ptr;       /* tiles, or NULL when no tile spans empty rows */
    int32_t *empty_offset; /* n_eo slot rows of the flagged tiles */
    int32_t *empty_rows;   /* n_empty rows without entries */
    int32_t *col;          /* nnz, tiles transposed */
    void *val;             /* nnz values of the dtype, same order */
    int32_t n_eo;          /* entries of empty_offset */
    int32_t n_empty;       /* entries of empty_rows */
    int32_t n_flagged;     /* tiles with CSR5_EMPTY_FLAG */
    int32_t *row_map;      /* empty = compress: A's row of each stored row; else NULL */
    int32_t *run_start;    /* empty = compress: runs of empty rows of A, */
    int32_t *run_len;      /* each of 1..CSR5_RUN_MAX rows */
    int32_t n_runs;        /* entries of run_start / run_len */
} csr5_arrays;

/* One converted CSR5 matrix. */
typedef struct csr5_fmt {
    spmvlab_ctx *ctx;      /* services of the instance; frees device memory */
    spmvlab_dtype dtype;   /* type of values, x and y */
    int32_t rows, cols, nnz; /* rows: stored rows (the non-empty ones with empty = compress) */
    int32_t rows_all;      /* rows of A */
    int32_t n_empty_all;   /* empty rows of A */
    int compress;          /* empty = compress took effect (A has empty and non-empty rows) */
    int sigma;             /* entries per lane of a tile */
    int sigma_auto;        /* sigma came from the mean row length */
    int stores_auto;       /* stores = auto chose d.staged */
    int W;                 /* descriptor words per lane */
    int on_gpu;            /* converted by kernels (else on the host) */
    double gpu_ms;         /* wall time of the GPU conversion before the host copies */
    csr5_arrays h;         /* host copies for spmv_host */
    csr5_dev d;            /* device arrays and the scalars the kernels need */
    size_t bytes;          /* live dev_alloc bytes */
} csr5_fmt;

/* Builds every array of the format on the host from A (the CPU conversion,
 * and the reference for verify_convert). Returns 0, or -1 when out of host
 * memory (h is then freed). */
int csr5_host_build(const spmvlab_matrix *A, int sigma, csr5_arrays *h);
/* empty = compress: the row pointer of A without its empty rows (*crp,
 * *nr + 1 entries), with the map to A's rows and the runs of empty rows
 * (at most CSR5_RUN_MAX rows each) in h. Returns 0, or -1 when out of host
 * memory (nothing is then allocated). */
int csr5_compress_rows(const spmvlab_matrix *A, int32_t **crp, int32_t *nr, csr5_arrays *h);
/* Exclusive prefix sum of n counts in place; returns the total, or -1 when
 * it exceeds INT32_MAX. */
int64_t csr5_exclusive_sum(int32_t *a, int64_t n);
/* Frees the host arrays. */
void csr5_arrays_free(csr5_arrays *h);
/* 1 when two builds of the same matrix and sigma hold equal arrays; else 0
 * with the name of the first differing array in *which. */
int csr5_arrays_equal(const csr5_arrays *a, const csr5_arrays *b, int32_t rows, int32_t nnz, int sigma,
                      size_t value_size, const char **which);
/* Fills the kernels' scalars derived from the arrays (tail rows, crossing
 * rows) into f->d, from the host copies. */
void csr5_layout_scalars(csr5_fmt *f);
/* spmv_host: the kernels' algorithm, operation for operation, on the host
 * copies. Returns OK or NOMEM. */
spmvlab_status csr5_spmv_host(const void *handle, const void *x, void *y, spmvlab_err *err);

#endif /* SPMVLAB_CSR5_FORMAT_H */
