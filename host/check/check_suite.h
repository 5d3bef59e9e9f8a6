/* The conformance suite behind `spmvlab check`. */
#ifndef SPMVLAB_CHECK_SUITE_H
#define SPMVLAB_CHECK_SUITE_H

#include "check_settings.h"
#include "spmvlab/core.h"

/* Runs the suite on target (a plugin name or a .so path), each check in a
 * child process unless no_fork; prints a pass / fail list and a summary.
 * Returns the process exit code. */
int check_run(spmvlab_registry *reg, const char *target, const check_settings *o);

#endif
