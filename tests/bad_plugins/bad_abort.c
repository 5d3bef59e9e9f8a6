/* Test plugin: says why on stderr and aborts — in spmv / spmv_host by
 * default, in convert with stage = convert. An isolated run records a crash
 * with these last words. */
#include <stdio.h>

#include "bad_common.h"

static const spmvlab_option options[] = {PLAIN_STAGE_OPTION("spmv"), {NULL}};

static void give_up(const char *where)
{
    fprintf(stderr, "bad_abort: an invariant broke in %s\n", where);
    abort();
}

static spmvlab_status abort_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                    spmvlab_err *err)
{
    if (spmvlab_opt_int(opts, "stage") == PLAIN_AT_CONVERT)
        give_up("convert");
    return plain_convert(ctx, A, out, err);
}

static spmvlab_status abort_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    (void)fmt, (void)x, (void)y, (void)stream, (void)err;
    give_up("spmv");
    return SPMVLAB_INTERNAL;
}

static spmvlab_status abort_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    (void)fmt, (void)x, (void)y, (void)err;
    give_up("spmv_host");
    return SPMVLAB_INTERNAL;
}

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_abort", "aborts in spmv (or convert with stage = convert)"),
    .options = options,
    .convert = abort_convert,
    .spmv = abort_spmv,
    .footprint = plain_footprint,
    .destroy = plain_destroy,
    .spmv_host = abort_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
