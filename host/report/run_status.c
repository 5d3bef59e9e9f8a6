/* Status names of result rows; see run_status.h. */
#include <stdio.h>

#include "run_status.h"

const char *run_status_name(spmvlab_result o)
{
    return o == SPMVLAB_RESULT_BAD_INPUT ? "unsupported" : spmvlab_result_name(o);
}

spmvlab_result run_status_outcome(const char *status)
{
    spmvlab_result o;
    return spmvlab_result_parse(status, &o) ? SPMVLAB_RESULT_INTERNAL : o;
}

int run_status_is_failure(spmvlab_result o)
{
    return o == SPMVLAB_RESULT_WRONG || o == SPMVLAB_RESULT_CRASH || o == SPMVLAB_RESULT_TIMEOUT ||
           o == SPMVLAB_RESULT_INTERNAL || o == SPMVLAB_RESULT_CUDA_ERROR || o == SPMVLAB_RESULT_DEVICE_FAULT;
}

void run_row_fail(run_row *r, spmvlab_result o, const char *msg)
{
    snprintf(r->status, sizeof r->status, "%s", run_status_name(o));
    snprintf(r->message, sizeof r->message, "%s", msg);
    for (char *p = r->message; *p; p++) /* one line in the table and the CSV */
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}
