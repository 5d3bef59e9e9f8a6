/*
 * Cheap structural features of a matrix, one pass over its CSR: what the
 * selector (`spmvlab select`) compares to find a matrix's nearest
 * neighbours in a measured corpus.
 */
#ifndef SPMVLAB_FEATURES_H
#define SPMVLAB_FEATURES_H

#include "spmvlab/matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spmvlab_features {
    double rows, cols, nnz;  /* shape and entries */
    double row_mean;         /* entries per row */
    double row_cv;           /* standard deviation / mean of the row lengths (0 when empty) */
    double row_max;          /* longest row */
    double empty_share;      /* share of rows without entries, in [0, 1] */
    double bandwidth;        /* mean distance of an entry from the diagonal (row * cols / rows), / cols */
    double locality;         /* share of entries within 8 columns (one 64-byte line of doubles)
                                past the previous entry of their row, of those with one */
    double block_fill;       /* entries / (16 * non-empty aligned 4 x 4 blocks), in (0, 1] */
} spmvlab_features;

/* The number of coordinates of spmvlab_features_vector. */
#define SPMVLAB_FEATURE_COUNT 10

/* Computes the features of A in O(nnz + cols) time. Returns 0, or -1 with a
 * sentence when out of host memory. */
int spmvlab_features_of(const spmvlab_csr *A, spmvlab_features *f, spmvlab_err *err);

/* The features as coordinates where a distance means a ratio: logarithms of
 * the sizes and lengths, shares as they are. */
void spmvlab_features_vector(const spmvlab_features *f, double v[SPMVLAB_FEATURE_COUNT]);

/* The short name of coordinate i ("rows", "row_cv", ...), or NULL. */
const char *spmvlab_feature_name(int i);

/* Reads / writes the features as the values of spmvlab_feature_name(0..),
 * in that order. */
void spmvlab_features_to_array(const spmvlab_features *f, double v[SPMVLAB_FEATURE_COUNT]);
void spmvlab_features_from_array(const double v[SPMVLAB_FEATURE_COUNT], spmvlab_features *f);

#ifdef __cplusplus
}
#endif
#endif
