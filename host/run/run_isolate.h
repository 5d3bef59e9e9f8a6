/*
 * --isolate: every instance x matrix runs in a child process
 * (spmvlab_sandbox_run), which opens CUDA itself and writes its row back
 * through a pipe; the parent never initialises CUDA. A crash, a hang past
 * the timeout or a silent exit becomes the row's status, with the child's
 * last words in the message.
 */
#ifndef SPMVLAB_HOST_RUN_ISOLATE_H
#define SPMVLAB_HOST_RUN_ISOLATE_H

#include "run_engine.h"

/* Runs spec on g's matrix and dtype in a child and fills row (identity
 * included; samples owned by row). Returns 0, or -1 when no child could be
 * started (row says why). */
int isolate_member(const run_group *g, const spmvlab_instance_spec *spec, run_row *row);

/* Kills the child under way, if any (and its process group): for the
 * SIGINT handler; async-signal-safe. */
void isolate_interrupt(void);

/* Opens the runtime in a child, fills m's device fields and measures the
 * peak there. Returns 0; -1 with a sentence when the child failed. */
int isolate_meta(run_meta *m, double timeout_s, spmvlab_err *err);

#endif
