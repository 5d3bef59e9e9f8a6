/*
 * --reorder: each ordering of the list permutes the matrix once after it
 * is loaded and before its groups, so every instance sees the same
 * matrix and is verified against that matrix's own reference. An
 * ordering other than none is its own matrix cell, labelled NAME@ORDER,
 * so shards, resume, merge and the summary treat it as one more matrix.
 * ORDER+call (NAME@ORDER+call) converts the instances from the same
 * permuted matrix but keeps the permutation inside every call: x and y
 * stay in the file's order and are verified against its reference
 * (spmvlab/permuted_call.h).
 */
#ifndef SPMVLAB_HOST_RUN_ORDER_H
#define SPMVLAB_HOST_RUN_ORDER_H

#include <stddef.h>

#include "run_options.h"
#include "row.h"
#include "spmvlab/reorder.h"

/* What one ordering did to one matrix: the ordering columns of its rows. */
typedef struct run_order_facts {
    run_order_spec ordering;
    double reorder_ms;          /* host time to compute the permutation and apply it, ms */
    double bandwidth_before;    /* largest |row - column| in the file's order */
    double bandwidth_after;     /* the same after the ordering */
    double sectors_before[3];   /* x-gather sectors (bound.h) for f16, f32, f64 values, file order */
    double sectors_after[3];    /* the same after the ordering */
} run_order_facts;

/* --reorder ORDER+call: a group's matrix is the permuted one the
 * instances are converted from; their calls take x and y in the order of
 * original, through perm, and are verified against original's reference. */
typedef struct run_per_call {
    const spmvlab_csr *original; /* the matrix in the file's order */
    const int32_t *perm;         /* perm[new] = old, rows entries */
} run_per_call;

/* How many orderings the run sweeps: 1 (the file's order) without --reorder. */
int run_order_count(const run_settings *s);
/* The i-th ordering of the run (none without --reorder). */
run_order_spec run_order_at(const run_settings *s, int i);
/* "none", "rcm", "degree", "rcm+call", "degree+call". */
void run_order_name(run_order_spec o, char *out, size_t len);
/* The matrix label of ordering o: label itself for none, else "label@o". */
void run_order_label(const char *label, run_order_spec o, char *out, size_t len);

/* Permutes A by ordering o into *B (empty for none) and fills facts for
 * the dtypes of s; with perm not NULL *perm gets the permutation (NULL for
 * none; free()). Rectangular matrices: degree permutes rows only; rcm is
 * refused. Returns 0, or -1 with the sentence of why the ordering does not
 * apply (then *B is empty). */
int run_order_apply(const run_settings *s, const spmvlab_csr *A, run_order_spec o, spmvlab_csr *B, int32_t **perm,
                    run_order_facts *facts, spmvlab_err *err);

/* Writes the ordering columns of r for its dtype (d) from facts; NULL
 * facts (no --reorder) leaves them empty. */
void run_order_to_row(const run_order_facts *facts, spmvlab_dtype d, run_row *r);

#endif
