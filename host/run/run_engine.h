/*
 * The measuring engine: a group of instances on one matrix and dtype,
 * converted and verified through one trial (spmvlab/trial.h) and timed
 * round by round (A B C A B C ...), each ending as one run_row with its
 * samples.
 */
#ifndef SPMVLAB_HOST_RUN_ENGINE_H
#define SPMVLAB_HOST_RUN_ENGINE_H

#include <signal.h>

#include "run_meta.h"
#include "run_options.h"
#include "run_order.h"
#include "run_row.h"
#include "spmvlab/features.h"
#include "spmvlab/config.h"
#include "spmvlab/core.h"
#include "spmvlab/trial.h"

/* One instance in a group. */
typedef struct run_member {
    const spmvlab_instance_spec *spec;
    int emit;                   /* 1: its row is a result; 0: measured only as the speedup reference */
    spmvlab_instance in;
    int converted;              /* in holds a format */
    int timed;                  /* verified on the GPU and taking part in the rounds */
    void *dy;                   /* this instance's y (device, or host stand-in) */
    int batch_n;                /* spmv calls per back-to-back sample */
    void *graph_exec;           /* cudaGraphExec_t of batch_n calls, or NULL: stream launches */
    double *single, *batch;     /* samples in ms, one per round */
    int nsamples, cap;
    double wall_ms;             /* host time spent on this instance: convert, checks, timing */
    run_row row;                /* the result being filled */
} run_member;

/* Called as work proceeds, for the progress line: instance label and what
 * is being done ("converting", "checking", "timing"); done counts finished
 * members of the group. */
typedef void (*run_progress_fn)(void *arg, const char *instance, const char *phase, int done, int total);

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
    run_progress_fn progress;
    void *progress_arg;
    run_member *faulted;        /* the member that left the CUDA context unusable, or NULL */
    const run_order_facts *order; /* the ordering A went through (--reorder), or NULL */
    const run_per_call *per_call; /* ORDER+call: the permutation kept inside every call, or NULL */
    const spmvlab_features *features; /* A's structure for the rows' feature columns, or NULL */
} run_group;

/* Prepares the matrix, converts and verifies every member, times those
 * that passed (GPU only) and fills each member's row, samples included;
 * destroys the formats. Failures become statuses, never a return value.
 * Returns 0, or -1 when the group could not run at all (rows say why). */
int group_execute(run_group *g);
/* The fields of a row known before anything runs: matrix, instance,
 * dtype, byte counts, the run's settings and machine; status ok. */
void group_fill_identity(const run_group *g, const spmvlab_instance_spec *spec, run_row *r);
/* Frees the members' samples and rows. */
void group_release(run_group *g);

/* ---- pieces of group_execute (run_measure.c) -------------------------------- */

/* Warm-up, batch calibration, graph capture and the interleaved rounds for
 * every member with timed = 1 (GPU only), on the trial's x. A member that
 * fails on the way leaves the rounds with its status set. */
void measure_group(run_group *g, const spmvlab_trial *t);
/* Frees graphs (idempotent). */
void measure_release(run_group *g);

/* After mb failed or finished a step: 1 when the CUDA context is unusable
 * (spmvlab_runtime_fault). The first member seen so is blamed: its row
 * becomes device-fault and g->faulted points to it; the rows of the others
 * are void and their cells must run again in a fresh process. */
int group_fault_check(run_group *g, run_member *mb);

/* Ends the member's part in the group: its row gets status o and the
 * sentence, and it is no longer timed. */
void member_fail(run_member *mb, spmvlab_result o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
