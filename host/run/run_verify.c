/* Checking one instance's result against the reference; see run_engine.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "run_engine.h"

void member_fail(run_member *mb, const char *status, const char *fmt, ...)
{
    char msg[sizeof mb->row.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++) /* one line in the table and the CSV */
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    if (strcmp(status, "cuda-error") == 0 && strstr(msg, "out of memory"))
        status = "oom";
    snprintf(mb->row.status, sizeof mb->row.status, "%s", status);
    snprintf(mb->row.message, sizeof mb->row.message, "%s", msg);
    mb->timed = 0;
}

int verify_member(run_group *g, run_member *mb, const run_check_data *cd, int poison)
{
    const spmvlab_matrix *m = &mb->in.matrix->view;
    const spmvlab_plugin *p = mb->in.plugin->desc;
    size_t ybytes = (size_t)m->rows * spmvlab_dtype_size(m->dtype);
    int gpu = g->rt->device.present;
    spmvlab_err err = {{0}};
    const char *what = gpu ? "spmv" : "spmv_host";
    if (poison) {
        spmvlab_status st;
        if (gpu) {
            if (spmvlab_dev_poison(g->rt, mb->dy, (size_t)m->rows, m->dtype, &err)) {
                member_fail(mb, "cuda-error", "%s", err.msg);
                return -1;
            }
            st = p->spmv(mb->in.fmt, cd->dx, mb->dy, g->rt->stream, &err);
        } else {
            spmvlab_poison_host(mb->dy, (size_t)m->rows, m->dtype);
            st = p->spmv_host(mb->in.fmt, cd->x, mb->dy, &err);
        }
        if (st != SPMVLAB_OK) {
            member_fail(mb, spmvlab_status_name(st), "%s", err.msg[0] ? err.msg : "spmv failed without a sentence");
            return -1;
        }
    }
    if (spmvlab_dev_sync(g->rt, &err) || spmvlab_dev_download(g->rt, cd->y, mb->dy, ybytes, &err)) {
        member_fail(mb, "cuda-error", "%s on %s: %s", mb->in.label, m->name, err.msg);
        return -1;
    }
    spmvlab_verdict v;
    spmvlab_verify_stored(m, mb->in.storage, cd->y, cd->ref, cd->absum, &v);
    if (!(mb->row.error_ratio >= v.max_ratio))
        mb->row.error_ratio = v.max_ratio;
    if (v.nonfinite_ref) {
        member_fail(mb, "unsupported", "the input holds NaN or Inf (%d rows have a non-finite reference)",
                    v.nonfinite_ref);
        return -1;
    }
    if (v.ok)
        return 0;
    int32_t r = v.worst_row, len = r >= 0 ? m->row_ptr[r + 1] - m->row_ptr[r] : 0;
    const char *when = poison ? "" : " after the timed launches";
    if (v.nan_rows)
        member_fail(mb, "wrong", "%s%s: %d rows not written or NaN (row %d of length %d holds %g, expected %.17g)",
                    what, when, v.nan_rows, r, len, v.y_worst, v.ref_worst);
    else
        member_fail(mb, "wrong",
                    "%s%s: %d rows beyond the error bound; worst row %d (length %d): %.17g, expected %.17g, %.3g x the bound",
                    what, when, v.bad_rows, r, len, v.y_worst, v.ref_worst, v.max_ratio);
    return -1;
}
