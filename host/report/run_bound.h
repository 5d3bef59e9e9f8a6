/*
 * The bound columns of a timed row: bound_us, bound_kind and bound_frac
 * from the matrix, the row's byte count and the device ceilings
 * (spmvlab/bound.h; docs/methodology.md, "How close to the limit").
 */
#ifndef SPMVLAB_HOST_RUN_BOUND_H
#define SPMVLAB_HOST_RUN_BOUND_H

#include <stddef.h>

#include "run_row.h"
#include "spmvlab/ceilings.h"
#include "spmvlab/matrix.h"

/* Fills r's bound columns from A (x and y of value_size bytes), r's
 * device_bytes and ms, and the ceilings c; single = 1 for single-launch
 * timing. Leaves them empty when a ceiling, the byte count or the time is
 * unknown. */
void run_row_bound(run_row *r, const spmvlab_csr *A, size_t value_size, const spmvlab_ceilings *c, int single);

#endif
