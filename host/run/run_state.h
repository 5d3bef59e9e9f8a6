/*
 * The state of one `spmvlab run` / `spmvlab tune`, shared by the driver
 * (run_driver.c) and the supervisor of its worker processes
 * (run_supervise.c). Internal to host/run.
 */
#ifndef SPMVLAB_HOST_RUN_STATE_H
#define SPMVLAB_HOST_RUN_STATE_H

#include <signal.h>
#include <stdio.h>

#include "progress.h"
#include "run_inputs.h"
#include "machine.h"
#include "run_options.h"
#include "run_order.h"
#include "row.h"
#include "run_select.h"
#include "spmvlab/config.h"
#include "spmvlab/core.h"

typedef struct run_state {
    run_settings s;
    spmvlab_config cfg;
    spmvlab_registry *reg;
    spmvlab_instance_spec *specs;
    int nspecs;
    int base;                   /* baseline spec, or -1 */
    spmvlab_runtime rt;
    int rt_open;
    run_meta meta;
    FILE *csv;
    FILE *json;
    run_rows rows;              /* resumed rows, then new ones */
    int failures, input_errors;
    int abandoned;              /* groups left unwritten by Ctrl-C */
    run_cells done;             /* cells with a row: resumed or measured */
    run_rows faults;            /* device-fault rows, the baseline's among them */
    run_cells excluded;         /* their cells: never run again, not even as the baseline */
    char **paths;
    int npaths;
    progress_line prog;
    void *flush_buf;
    size_t flush_bytes;
    FILE *sink;                 /* in a worker: rows go to the parent through it */
    int first_path;             /* where the next worker starts */
    int isolate_now;            /* this matrix runs one child per cell (after a worker died) */
    const run_order_facts *order; /* the ordering of the matrix under way (--reorder), or NULL */
    const run_per_call *per_call; /* its permutation kept inside every call (ORDER+call), or NULL */
    run_selectors selectors;    /* the corpora of the selector instances */
} run_state;

/* A worker's exit code after it recorded a device fault: start another. */
#define RUN_WORKER_FAULTED 75

/* Set by the first Ctrl-C. */
extern volatile sig_atomic_t run_stop_flag;

/* "spmvlab run: <sentence>." on stderr. */
void run_say(const run_state *st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Runs matrix mi: every cell of it that is not done. */
void run_matrix(run_state *st, int mi);
/* The device's facts (run_meta) from a child, so that this process never
 * initialises CUDA; the notice without a GPU. Returns 0 or an exit code. */
int run_probe_device(run_state *st);
/* In a worker: opens the device for measuring (memory limit, --flush-l2).
 * Returns 0 or an exit code. */
int run_open_device(run_state *st);
/* Takes a finished row: the CSV, the rows, the failure count; printed to
 * the table when print is set. */
void run_take_row(run_state *st, const run_row *r, int print);

/* Measures every matrix from st's worker processes: one worker holds the
 * CUDA context; when a plugin leaves it unusable the faulting cell is
 * recorded as device-fault and a fresh worker resumes with the next cell;
 * when a worker dies, the matrix under way runs one child per cell.
 * Returns 0, or an exit code when no worker could be started. */
int run_supervise(run_state *st);

#endif
