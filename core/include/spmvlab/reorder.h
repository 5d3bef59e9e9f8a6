/*
 * Reordering a matrix for locality: orderings of its rows and columns
 * (reverse Cuthill-McKee, degree), the permuted matrix, and the two
 * numbers that say what an ordering changed: bandwidth and x-gather
 * sectors (bound.h). A permutation is perm[new] = old.
 */
#ifndef SPMVLAB_REORDER_H
#define SPMVLAB_REORDER_H

#include <stddef.h>
#include <stdint.h>

#include "spmvlab/matrix.h"
#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spmvlab_ordering {
    SPMVLAB_ORDER_NONE = 0,   /* the order of the file */
    SPMVLAB_ORDER_RCM = 1,    /* reverse Cuthill-McKee on the symmetrized pattern (square only) */
    SPMVLAB_ORDER_DEGREE = 2  /* rows (and columns) by decreasing degree: hubs first */
} spmvlab_ordering;

/* "none", "rcm", "degree". */
const char *spmvlab_ordering_name(spmvlab_ordering o);
/* Parses a name. Returns 0, or -1 with a sentence naming the choices. */
int spmvlab_ordering_parse(const char *name, spmvlab_ordering *o, spmvlab_err *err);

/* The permutation of ordering o for A into *perm (rows entries, free()).
 * Reverse Cuthill-McKee works on the pattern of A + A^T, one connected
 * component at a time, each from a pseudo-peripheral node (George & Liu),
 * neighbours by increasing degree, the whole order reversed. Degree
 * orders by the symmetrized degree (square) or row length (rectangular),
 * ties by index. Returns 0, or -1 with a sentence (RCM on a rectangular
 * matrix; out of memory). */
int spmvlab_order_compute(const spmvlab_csr *A, spmvlab_ordering o, int32_t **perm, spmvlab_err *err);

/* 1 when p holds every index 0..n-1 exactly once. */
int spmvlab_is_permutation(const int32_t *p, int32_t n);

/* B = P A P^T for a square A (row i of B is row perm[i] of A, column j
 * of A becomes column inv[j]); rows only (B = P A) for a rectangular one.
 * Columns stay sorted. Returns 0, or -1 with a sentence. */
int spmvlab_csr_permute(const spmvlab_csr *A, const int32_t *perm, spmvlab_csr *B, spmvlab_err *err);

/* v_new[i] = v[perm[i]] for n values: how x and y follow a permutation. */
void spmvlab_permute_vector(const double *v, const int32_t *perm, int32_t n, double *v_new);

/* The same for values of any dtype (value_size 2, 4 or 8 bytes), moved as
 * bits so the round trip is exact: gather out[i] = in[perm[i]] (x into the
 * permuted order), scatter out[perm[i]] = in[i] (y back into the file's
 * order). out and in must not overlap. */
void spmvlab_gather_values(void *out, const void *in, const int32_t *perm, int32_t n, size_t value_size);
void spmvlab_scatter_values(void *out, const void *in, const int32_t *perm, int32_t n, size_t value_size);

/* The largest |row - column| over the stored entries (0 when empty). */
int64_t spmvlab_csr_bandwidth(const spmvlab_csr *A);

#ifdef __cplusplus
}
#endif
#endif
