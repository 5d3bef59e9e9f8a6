/*
 * Running a piece of work in a child process, so that a plugin that
 * crashes, aborts or hangs costs one result, not the run. The child writes
 * its result to out_fd; its stderr is kept as "last words".
 *
 * CUDA cannot be used in a child forked after the parent initialised CUDA:
 * a parent that sandboxes GPU work must not touch the device itself.
 */
#ifndef SPMVLAB_SANDBOX_H
#define SPMVLAB_SANDBOX_H

#include <stddef.h>

#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum spmvlab_sandbox_end {
    SPMVLAB_SANDBOX_EXITED = 0,   /* returned; exit_code holds fn's return value */
    SPMVLAB_SANDBOX_CRASHED = 1,  /* killed by a signal (segfault, abort, ...) */
    SPMVLAB_SANDBOX_TIMEOUT = 2   /* ran past the time limit and was killed */
} spmvlab_sandbox_end;

typedef struct spmvlab_sandbox_result {
    spmvlab_sandbox_end end;
    int exit_code;             /* when EXITED */
    int signal;                /* when CRASHED */
    double wall_ms;            /* child's lifetime */
    char *output;              /* bytes written to out_fd, NUL-terminated; free() it */
    size_t output_len;
    char last_words[1024];     /* the tail of the child's stderr */
} spmvlab_sandbox_result;

/* Runs fn(arg, out_fd) in a child with a time limit in seconds (<= 0: none).
 * Returns 0 when the child was started and reaped (see r->end), -1 with a
 * sentence when no child could be started. */
int spmvlab_sandbox_run(int (*fn)(void *arg, int out_fd), void *arg, double timeout_s,
                        spmvlab_sandbox_result *r, spmvlab_err *err);

/* The same, but with idle = 1 the time limit counts from the child's last
 * output rather than its start: a child working through a list of jobs,
 * writing a result after each, gets timeout_s for every job. */
int spmvlab_sandbox_run_ex(int (*fn)(void *arg, int out_fd), void *arg, double timeout_s, int idle,
                           spmvlab_sandbox_result *r, spmvlab_err *err);

#ifdef __cplusplus
}
#endif
#endif
