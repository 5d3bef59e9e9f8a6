/* The conformance suite behind `spmvlab check`. */
#ifndef SPMVLAB_CHECK_SUITE_H
#define SPMVLAB_CHECK_SUITE_H

#include <stdint.h>

#include "spmvlab/core.h"

#define CHECK_MAX_SETS 32

typedef struct check_settings {
    const char *sets[CHECK_MAX_SETS]; /* "key=value" for the instance */
    int nsets;
    uint32_t dtype_mask;              /* 0: every dtype the plugin declares */
    char **paths;                     /* matrix files */
    int npaths;
    long max_nnz;                     /* skip larger files; 0: no limit */
    int edge_cases;                   /* include the built-in battery */
    int gpu;                          /* also run spmv on the device */
    uint64_t seed;
    int verbose;
    double timeout_s;                 /* per check, in its child process; <= 0: none */
    int no_fork;                      /* run the checks in this process (for gdb) */
} check_settings;

/* Runs the suite on target (a plugin name or a .so path), each check in a
 * child process unless no_fork; prints a pass / fail list and a summary.
 * Returns the process exit code. */
int check_run(spmvlab_registry *reg, const char *target, const check_settings *o);

#endif
