/*
 * --reorder: each ordering of the list permutes the matrix once after it
 * is loaded and before its groups, so every instance sees the same
 * matrix and is verified against that matrix's own reference. An
 * ordering other than none is its own matrix cell, labelled NAME@ORDER,
 * so shards, resume, merge and the summary treat it as one more matrix.
 */
#ifndef SPMVLAB_HOST_RUN_ORDER_H
#define SPMVLAB_HOST_RUN_ORDER_H

#include <stddef.h>

#include "run_options.h"
#include "run_row.h"
#include "spmvlab/reorder.h"

/* What one ordering did to one matrix: the ordering columns of its rows. */
typedef struct run_order_facts {
    spmvlab_ordering ordering;
    double reorder_ms;          /* host time to compute the permutation and apply it, ms */
    double bandwidth_before;    /* largest |row - column| in the file's order */
    double bandwidth_after;     /* the same after the ordering */
    double sectors_before[3];   /* x-gather sectors (bound.h) for f16, f32, f64 values, file order */
    double sectors_after[3];    /* the same after the ordering */
} run_order_facts;

/* How many orderings the run sweeps: 1 (the file's order) without --reorder. */
int run_order_count(const run_settings *s);
/* The i-th ordering of the run (none without --reorder). */
spmvlab_ordering run_order_at(const run_settings *s, int i);
/* The matrix label of ordering o: label itself for none, else "label@o". */
void run_order_label(const char *label, spmvlab_ordering o, char *out, size_t len);

/* Permutes A by ordering o into *B (a copy of A for none) and fills facts
 * for the dtypes of s. Rectangular matrices: degree permutes rows only;
 * rcm is refused. Returns 0, or -1 with the sentence of why the ordering
 * does not apply (then *B is empty). */
int run_order_apply(const run_settings *s, const spmvlab_csr *A, spmvlab_ordering o, spmvlab_csr *B,
                    run_order_facts *facts, spmvlab_err *err);

/* Writes the ordering columns of r for its dtype (d) from facts; NULL
 * facts (no --reorder) leaves them empty. */
void run_order_to_row(const run_order_facts *facts, spmvlab_dtype d, run_row *r);

#endif
