/*
 * The status column of a result row: the outcome of its trial (core's
 * spmvlab_result) under the names the CSV has always used. The engine sets
 * statuses from outcome values and the driver decides from them; no status
 * is ever read back out of a message.
 */
#ifndef SPMVLAB_HOST_RUN_STATUS_H
#define SPMVLAB_HOST_RUN_STATUS_H

#include "run_row.h"
#include "spmvlab/core.h"

/* The CSV name of an outcome: spmvlab_result_name, except that an input
 * the dtype cannot hold (bad-input) is "unsupported", as it always was. */
const char *run_status_name(spmvlab_result o);
/* The outcome a status column names; INTERNAL for a name it does not know. */
spmvlab_result run_status_outcome(const char *status);
/* 1 for the outcomes that make a run fail: wrong, crash, timeout,
 * internal and cuda-error (a refusal or a limit is a result, not a failure). */
int run_status_is_failure(spmvlab_result o);
/* Sets the row's status to o and its message to msg on one line. */
void run_row_fail(run_row *r, spmvlab_result o, const char *msg);

#endif
