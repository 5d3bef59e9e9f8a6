/* Status names of result rows and their summary classes; see status.h. */
#include <stdio.h>
#include <string.h>

#include "exit_codes.h"
#include "status.h"
#include "spmvlab/gen.h"

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

int run_status_fails_run(const char *status)
{
    run_class c = run_status_class(status);
    if (c == RUN_CLASS_SKIPPED || c == RUN_CLASS_UNREADABLE)
        return 0;
    return run_status_is_failure(run_status_outcome(status));
}

run_class run_status_class(const char *status)
{
    if (strcmp(status, RUN_STATUS_SKIPPED) == 0)
        return RUN_CLASS_SKIPPED;
    if (strcmp(status, RUN_STATUS_UNREADABLE) == 0)
        return RUN_CLASS_UNREADABLE;
    spmvlab_result o;
    if (spmvlab_result_parse(status, &o))
        return RUN_CLASS_FAILED; /* a status this version does not know is never a success */
    switch (o) {
    case SPMVLAB_RESULT_OK: return RUN_CLASS_OK;
    case SPMVLAB_RESULT_WRONG: return RUN_CLASS_WRONG;
    case SPMVLAB_RESULT_UNSUPPORTED:
    case SPMVLAB_RESULT_BAD_INPUT:
    case SPMVLAB_RESULT_LIMIT:
    case SPMVLAB_RESULT_INVALID_OPTION: return RUN_CLASS_REFUSED;
    default: return RUN_CLASS_FAILED;
    }
}

/* Keeps a message on one line in the table and the CSV. */
static void one_line(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

void run_row_fail(run_row *r, spmvlab_result o, const char *msg)
{
    snprintf(r->status, sizeof r->status, "%s", run_status_name(o));
    snprintf(r->message, sizeof r->message, "%s", msg);
    one_line(r->message);
}

void run_row_input(run_row *r, const run_meta *meta, const char *matrix, const char *source, const char *dtype,
                   const char *status, const char *why)
{
    run_row_init(r);
    run_meta_to_row(meta, r);
    snprintf(r->matrix, sizeof r->matrix, "%s", matrix);
    snprintf(r->source, sizeof r->source, "%s", source);
    snprintf(r->part, sizeof r->part, "%s", spmvlab_part_name(spmvlab_split_part(matrix)));
    snprintf(r->dtype, sizeof r->dtype, "%s", dtype);
    snprintf(r->status, sizeof r->status, "%s", status);
    snprintf(r->message, sizeof r->message, "%s", why);
    one_line(r->message);
}

int rows_exit_code(const run_rows *rows)
{
    int failed = 0;
    for (int i = 0; i < rows->n; i++) {
        if (run_status_class(rows->v[i].status) == RUN_CLASS_UNREADABLE)
            return EXIT_USAGE; /* as the run that met the input exited */
        failed |= run_status_fails_run(rows->v[i].status);
    }
    return failed ? EXIT_FAILED : EXIT_OK;
}
