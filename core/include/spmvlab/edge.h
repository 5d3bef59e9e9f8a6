/*
 * Edge-case matrices for conformance checks: the shapes that break formats
 * (no rows, no non-zeros, one row, one column, empty rows, one dense row,
 * power-law rows, a row longer than any tile). Deterministic.
 */
#ifndef SPMVLAB_EDGE_H
#define SPMVLAB_EDGE_H

#include "spmvlab/matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of built-in edge cases. */
int spmvlab_edge_count(void);
/* Name of case i ("empty_rows", ...). */
const char *spmvlab_edge_name(int i);
/* Builds case i into A. Returns 0 or -1 with err. */
int spmvlab_edge_build(int i, spmvlab_csr *A, spmvlab_err *err);

#ifdef __cplusplus
}
#endif
#endif
