/* The body of `spmvlab run` and `spmvlab tune`: settings, instances,
 * matrices, the measuring loop, outputs and the summary. */
#ifndef SPMVLAB_HOST_RUN_DRIVER_H
#define SPMVLAB_HOST_RUN_DRIVER_H

#include "run_options.h"

/* Runs the command; returns the process exit code: 0 done, 1 some result
 * is wrong or an instance failed (crash, timeout, cuda-error, internal),
 * 2 bad usage, configuration or input, 130 interrupted. */
int run_command(int argc, char **argv, run_mode mode);

#endif
