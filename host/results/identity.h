/*
 * The identity of a group's rows: the columns every row of one matrix and
 * dtype shares (matrix, dtype, byte counts, the run's settings, machine,
 * ordering and structure), held once per group and copied into each
 * member's row with the instance's own columns.
 */
#ifndef SPMVLAB_HOST_RESULTS_IDENTITY_H
#define SPMVLAB_HOST_RESULTS_IDENTITY_H

#include "row.h"
#include "spmvlab/config.h"

/* A row holding only the shared columns; its status is ok. */
typedef struct run_identity {
    run_row row;
} run_identity;

/* r = the identity with the instance's columns of spec: its label, plugin,
 * plugin file, version and hash, and options. */
void identity_to_row(const run_identity *id, const spmvlab_instance_spec *spec, run_row *r);

#endif
