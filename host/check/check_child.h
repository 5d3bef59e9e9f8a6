/*
 * A conformance check in a child process (spmvlab_sandbox_run): the result
 * travels back through a pipe as one fixed-size record, and a child that
 * crashes, hangs or exits without one becomes a FAIL that says how and
 * during which step it announced last ("stage: ..." on its stderr).
 */
#ifndef SPMVLAB_CHECK_CHILD_H
#define SPMVLAB_CHECK_CHILD_H

#include "check_cases.h"
#include "check_settings.h"
#include "spmvlab/sandbox.h"

/* Runs one check in a child (or here with --no-fork) and fills r. */
void check_run_job(const check_settings *o, check_job *j, check_result *r);
/* Writes r whole to fd. Returns 0, or -1 when the pipe broke. */
int check_write_result(int fd, const check_result *r);
/* The FAIL of a child that ended without its result: crashed (signal),
 * timed out, or exited, with its last stage and last words. */
void check_child_failure(const spmvlab_sandbox_result *sr, double timeout_s, check_result *r);

#endif
