/*
 * Matrices in the core: CSR with f64 values on the host, the Matrix Market
 * reader and writer, and row-length statistics.
 */
#ifndef SPMVLAB_MATRIX_H
#define SPMVLAB_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A CSR matrix owned by the core: 0-based, columns sorted and unique within
 * each row, f64 values. Every pointer is malloc'd; free with spmvlab_csr_free. */
typedef struct spmvlab_csr {
    int32_t rows;       /* number of rows */
    int32_t cols;       /* number of columns */
    int32_t nnz;        /* stored entries after expansion and summing duplicates */
    int32_t *row_ptr;   /* rows + 1 offsets into col_idx / val */
    int32_t *col_idx;   /* nnz column indices */
    double *val;        /* nnz values */
    char symmetry[16];  /* as read: "general", "symmetric", "skew-symmetric" */
    char field[16];     /* as read: "real", "integer", "pattern" */
} spmvlab_csr;

/* One (row, col, value) triplet, 0-based; the builder's input. */
typedef struct spmvlab_triplet {
    int32_t row, col;
    double val;
} spmvlab_triplet;

/* Frees the arrays of A and zeroes it; A may be partly filled. */
void spmvlab_csr_free(spmvlab_csr *A);

/* Builds CSR from n triplets (any order; duplicates summed; columns sorted).
 * Takes ownership of t (freed). Returns 0, or -1 with a sentence in err. */
int spmvlab_csr_from_triplets(spmvlab_csr *A, int32_t rows, int32_t cols, spmvlab_triplet *t,
                              size_t n, spmvlab_err *err);

/* Reads a Matrix Market file (plain or .gz) into A. Returns 0; -1 with one
 * sentence naming the file and line in err for malformed input; -2 for a
 * well-formed file of a kind spmvlab does not handle (array, complex). */
int spmvlab_mtx_read(const char *path, spmvlab_csr *A, spmvlab_err *err);

/* Writes A as "coordinate real general" Matrix Market; gzip when the path
 * ends in .gz. Returns 0, or -1 with a sentence in err. */
int spmvlab_mtx_write(const char *path, const spmvlab_csr *A, const char *comment,
                      spmvlab_err *err);

/* The matrix's label: the file name without directory and .mtx/.mtx.gz. */
void spmvlab_matrix_label(const char *path, char *out, size_t len);

/* Row-length statistics of A. */
typedef struct spmvlab_row_stats {
    int32_t min, max;   /* shortest and longest row */
    double mean, stddev;/* mean and population standard deviation */
    int32_t empty;      /* rows without entries */
} spmvlab_row_stats;

void spmvlab_row_stats_of(const spmvlab_csr *A, spmvlab_row_stats *s);

#ifdef __cplusplus
}
#endif
#endif
