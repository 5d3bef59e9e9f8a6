/* The body of `spmvlab run` and `spmvlab tune`: settings, instances,
 * matrices, the measuring loop, outputs and the summary. */
#ifndef SPMVLAB_HOST_RUN_DRIVER_H
#define SPMVLAB_HOST_RUN_DRIVER_H

#include <stdio.h>

#include "run_options.h"
#include "run_row.h"

/* Runs the command; returns the process exit code: 0 done, 1 some result
 * is wrong or an instance failed (crash, timeout, cuda-error, internal),
 * 2 bad usage, configuration or input, 130 interrupted. */
int run_command(int argc, char **argv, run_mode mode);

/* tune's table: per matrix, dtype and label the fastest combination, the
 * search time and memory (cmd_tune.c). */
void tune_print(FILE *f, const run_rows *rows);

#endif
