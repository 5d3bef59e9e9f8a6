/*
 * A group: the instances measured together on one matrix and dtype. The
 * core's trial engine (spmvlab/trial.h) converts, checks and times them
 * round by round (A B C A B C ...) and hands back one result record each;
 * the group copies them into rows beside the identity they share.
 */
#ifndef SPMVLAB_HOST_RUN_ENGINE_H
#define SPMVLAB_HOST_RUN_ENGINE_H

#include <signal.h>

#include "identity.h"
#include "machine.h"
#include "row.h"
#include "run_options.h"
#include "run_order.h"
#include "spmvlab/config.h"
#include "spmvlab/features.h"
#include "spmvlab/core.h"
#include "spmvlab/trial.h"

/* One instance in a group. */
typedef struct run_member {
    const spmvlab_instance_spec *spec;
    int emit;                   /* 1: its row is a result; 0: measured only as the speedup reference */
    run_row row;                /* its identity, then its result */
} run_member;

/* One matrix and dtype with its instances. */
typedef struct run_group {
    spmvlab_runtime *rt;
    const run_settings *s;
    const run_meta *meta;
    const char *matrix;         /* label */
    const char *source;         /* file */
    const spmvlab_csr *A;       /* the matrix the instances are converted from */
    spmvlab_dtype dtype;
    run_member *m;
    int n;
    volatile sig_atomic_t *stop; /* set by SIGINT: end the rounds early */
    void *flush_buf;            /* device buffer larger than L2 (with --flush-l2), or NULL */
    size_t flush_bytes;
    spmvlab_progress_fn progress; /* the progress line, or a worker's heartbeat; or NULL */
    void *progress_arg;
    run_member *faulted;        /* the member that left the CUDA context unusable, or NULL */
    const run_order_facts *order; /* the ordering A went through (--reorder), or NULL */
    const run_per_call *per_call; /* ORDER+call: the permutation kept inside every call, or NULL */
    const spmvlab_features *features; /* A's structure for the rows' feature columns, or NULL */
    const run_identity *identity; /* the columns every row of the group shares (group_identity) */
} run_group;

/* The identity every row of g shares: matrix, dtype, byte counts, the
 * run's settings and machine, the ordering and the structure; status ok.
 * Built once per group, before any member runs. */
void group_identity(const run_group *g, run_identity *id);
/* Converts, checks and (GPU only) times every member through the core's
 * trial engine (spmvlab_trial_measure) and copies each result record into
 * the member's row, identity and samples included; the formats are
 * destroyed. Failures become statuses, never a return value. Returns 0,
 * or -1 when the group could not run at all (rows say why). */
int group_execute(run_group *g);
/* Frees the members' rows (their samples). */
void group_release(run_group *g);

#endif
