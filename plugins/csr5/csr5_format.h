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
    void *h_pieces;        /* spmv_host scratch, 2 tiles + 1 values (one spmv_host at a time) */
} csr5_fmt;

/* The options, filled by the core from the table in csr5.c; enums in the
 * order of each option's choices. */
typedef struct csr5_opts {
    int sigma;          /* 1..CSR5_SIGMA_MAX or SPMVLAB_AUTO */
    int min_tiles;      /* sigma = auto: 4 below this many tiles at the mean's sigma; 0: off */
    int calibrate;      /* CSR5_CAL_KERNEL, CSR5_CAL_INLINE */
    int arrive;         /* CSR5_ARRIVE_RELEASE, CSR5_ARRIVE_ACQ_REL */
    int occupancy;      /* blocks per SM the f64 main kernel targets: 3 or 4 */
    int launch;         /* CSR5_LAUNCH_OVERLAP, CSR5_LAUNCH_SERIAL */
    int stores;         /* CSR5_STORES_AUTO, CSR5_STORES_DIRECT, CSR5_STORES_STAGED */
    int empty;          /* CSR5_EMPTY_OFFSETS, CSR5_EMPTY_COMPRESS */
    int sigma_mean;     /* CSR5_MEAN_ALL, CSR5_MEAN_STORED */
    int verify_convert; /* 0 or 1 */
} csr5_opts;

enum { CSR5_CAL_KERNEL, CSR5_CAL_INLINE };
/* Blocks per SM the f64 main kernel targets (occupancy), as the number. */
enum { CSR5_OCCUPANCY_3 = 3, CSR5_OCCUPANCY_4 = 4 };
enum { CSR5_ARRIVE_RELEASE, CSR5_ARRIVE_ACQ_REL };
enum { CSR5_LAUNCH_OVERLAP, CSR5_LAUNCH_SERIAL };
enum { CSR5_STORES_AUTO, CSR5_STORES_DIRECT, CSR5_STORES_STAGED };
enum { CSR5_EMPTY_OFFSETS, CSR5_EMPTY_COMPRESS };
enum { CSR5_MEAN_ALL, CSR5_MEAN_STORED };

/* Conversion on the host: builds the arrays and uploads them. Returns OK,
 * or NOMEM / LIMIT / CUDA_ERROR with the sentence in err. */
spmvlab_status csr5_convert_host(csr5_fmt *f, const spmvlab_matrix *A, spmvlab_err *err);
/* Conversion on the GPU from A's device CSR, then host copies of every
 * array; sets f->gpu_ms. Returns OK or the failing step's status. */
spmvlab_status csr5_convert_gpu(csr5_fmt *f, const spmvlab_matrix *A, spmvlab_err *err);
/* verify_convert: INTERNAL unless a host conversion gives the same arrays. */
spmvlab_status csr5_verify_gpu(csr5_fmt *f, const spmvlab_matrix *A, spmvlab_err *err);
/* Allocates bytes of device memory at *dst (counted by the core) and
 * uploads src there. */
spmvlab_status csr5_put(csr5_fmt *f, const void **dst, const void *src, size_t bytes, spmvlab_err *err);
/* A CUDA_ERROR sentence for code rc from the step what. */
spmvlab_status csr5_cuda_fail(csr5_fmt *f, spmvlab_err *err, int rc, const char *what);

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
 * copies, with f->h_pieces as scratch. */
void csr5_host_f64(const csr5_fmt *f, const double *x, double *y);
void csr5_host_f32(const csr5_fmt *f, const float *x, float *y);

/* The option table (csr5_options.c). */
extern const spmvlab_option csr5_options[];

#endif /* SPMVLAB_CSR5_FORMAT_H */
