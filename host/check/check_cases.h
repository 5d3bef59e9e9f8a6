/*
 * One conformance check of `spmvlab check`, as it runs inside a child
 * process (or in the host process itself with --no-fork). The driver in
 * check_suite.c plans the checks, starts a child per check and prints the
 * results; this file does the work: load, device probe, one case (plugin x
 * matrix x dtype), two instances side by side, refusal of an undeclared dtype.
 */
#ifndef SPMVLAB_CHECK_CASES_H
#define SPMVLAB_CHECK_CASES_H

#include <stdint.h>

#include "spmvlab/core.h"

typedef enum check_verdict {
    CHECK_PASS = 0,    /* the check held */
    CHECK_REFUSED = 1, /* the plugin refused the input cleanly (status and sentence) */
    CHECK_FAIL = 2,    /* the plugin broke a rule; detail says which */
    CHECK_SKIP = 3     /* the input cannot be used (e.g. values overflow the dtype) */
} check_verdict;

/* What a check hands back to the driver: a fixed-size record, so a child
 * writes it to its pipe in one piece. */
typedef struct check_result {
    check_verdict verdict;
    char detail[SPMVLAB_ERR_LEN + 1024]; /* one line: the reason or the facts */
    int context_lost;           /* a device fault: the process must not run another case */
} check_result;

typedef enum check_kind {
    CHECK_LOAD,       /* load the plugin (a crash while loading is contained too) */
    CHECK_DEVICE,     /* open the GPU and name it (the parent must not touch CUDA) */
    CHECK_CASE,       /* convert, footprint, spmv_host (and spmv), destroy */
    CHECK_PAIR,       /* two instances with different options side by side */
    CHECK_UNDECLARED  /* convert in a dtype the plugin does not declare must refuse */
} check_kind;

/* Everything one check needs; filled by the driver, read-only for the check. */
typedef struct check_job {
    check_kind kind;
    int gpu;                          /* open the device and also run spmv */
    int verbose;                      /* append the plugin's log lines */
    int sandboxed;                    /* in a child: announce stages on stderr */
    uint64_t seed;                    /* seed of the random x */
    spmvlab_registry *reg;            /* LOAD: the registry to load into */
    const char *target;               /* LOAD: NAME, DIR/NAME or a .so path */
    const spmvlab_loaded *plugin;     /* the plugin under test */
    const spmvlab_optset *opts;       /* the instance's options (PAIR: the first) */
    const spmvlab_optset *opts_b;     /* PAIR: the second instance's options */
    const spmvlab_csr *const *mats;   /* CASE: mats[0]; PAIR: candidates in order */
    const char *const *names;         /* labels of mats */
    int nmats;
    spmvlab_dtype dtype;
} check_job;

/* 1 when target names a plugin file by its path (it ends in .so); else it
 * is a plugin as run -p names one: NAME, or DIR/NAME for
 * DIR/libspmvlab_NAME.so. */
int check_target_is_file(const char *target);
/* Loads target (see check_target_is_file) into reg. Returns the plugin, or
 * NULL with the registry's sentence. */
const spmvlab_loaded *check_load_target(spmvlab_registry *reg, const char *target, spmvlab_err *err);

/* Runs the check and fills r. Never exits; a crash is the driver's to see. */
void check_job_execute(const check_job *j, check_result *r);

#endif
