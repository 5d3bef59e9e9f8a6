/* Result rows built in memory for the tests of the run library's records,
 * summaries and reports (tests linking spmvlab_run). */
#ifndef SPMVLAB_TESTLIB_ROWS_H
#define SPMVLAB_TESTLIB_ROWS_H

#include <stdio.h>

#include "row.h"

/* An f64 row of matrix and instance with status, every other field as
 * run_row_init leaves it. */
static inline run_row test_row(const char *matrix, const char *instance, const char *status)
{
    run_row r;
    run_row_init(&r);
    snprintf(r.matrix, sizeof r.matrix, "%s", matrix);
    snprintf(r.instance, sizeof r.instance, "%s", instance);
    snprintf(r.dtype, sizeof r.dtype, "f64");
    snprintf(r.status, sizeof r.status, "%s", status);
    return r;
}

#endif
