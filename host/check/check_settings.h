/* What one `spmvlab check` run checks and how: the settings the suite
 * (check_suite.c) and each check's child (check_child.c) read. */
#ifndef SPMVLAB_CHECK_SETTINGS_H
#define SPMVLAB_CHECK_SETTINGS_H

#include <stdint.h>

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

#endif
