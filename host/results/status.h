/*
 * The status column of a result row: the outcome of its trial (core's
 * spmvlab_result) under the names the CSV has always used, plus the two
 * statuses of an input no instance ran on (skipped, unreadable). The engine
 * sets statuses from outcome values and the driver decides from them; no
 * status is ever read back out of a message.
 */
#ifndef SPMVLAB_HOST_RUN_STATUS_H
#define SPMVLAB_HOST_RUN_STATUS_H

#include "machine.h"
#include "row.h"
#include "spmvlab/core.h"

/* An input spmvlab does not handle (complex values, ...): not an error. */
#define RUN_STATUS_SKIPPED "skipped"
/* An input that could not be read (missing, unreadable, malformed). */
#define RUN_STATUS_UNREADABLE "unreadable"

/* What a status counts as in every summary. */
typedef enum run_class {
    RUN_CLASS_OK = 0,
    RUN_CLASS_WRONG,      /* a result beyond its error bound */
    RUN_CLASS_REFUSED,    /* a clean refusal: limit, unsupported, invalid-option */
    RUN_CLASS_FAILED,     /* crash, timeout, cuda-error, device-fault, oom, internal, io, ... */
    RUN_CLASS_SKIPPED,    /* an input row: the input was skipped */
    RUN_CLASS_UNREADABLE  /* an input row: the input could not be read */
} run_class;

/* The CSV name of an outcome: spmvlab_result_name, except that an input
 * the dtype cannot hold (bad-input) is "unsupported", as it always was. */
const char *run_status_name(spmvlab_result o);
/* The outcome a status column names; INTERNAL for a name it does not know. */
spmvlab_result run_status_outcome(const char *status);
/* 1 for the outcomes that make a run fail: wrong, crash, timeout,
 * internal and cuda-error (a refusal or a limit is a result, not a failure). */
int run_status_is_failure(spmvlab_result o);
/* 1 when a row of this status makes the run fail: never for an input row
 * (unreadable inputs have their own exit code), else run_status_is_failure. */
int run_status_fails_run(const char *status);
/* The summary class of a status; an unknown name is FAILED. */
run_class run_status_class(const char *status);
/* Sets the row's status to o and its message to msg on one line. */
void run_row_fail(run_row *r, spmvlab_result o, const char *msg);
/* Makes r the row of an input no instance ran on: the matrix label, its
 * source and dtype, status (RUN_STATUS_SKIPPED or RUN_STATUS_UNREADABLE),
 * why, and the run's machine and build from meta; the instance and
 * measurement columns stay empty. */
void run_row_input(run_row *r, const run_meta *meta, const char *matrix, const char *source, const char *dtype,
                   const char *status, const char *why);

/* The exit code result rows call for (exit_codes.h), the one their run
 * gave: EXIT_USAGE when an input was unreadable, else EXIT_FAILED when a
 * row is wrong or failed, else EXIT_OK (refusals and skipped inputs are
 * results, not failures). */
int rows_exit_code(const run_rows *rows);

#endif
