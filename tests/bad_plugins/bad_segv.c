/* Test plugin: writes through a null pointer — in convert by default, in
 * spmv / spmv_host with stage = spmv; with min_rows = N only on matrices of
 * at least N rows (elsewhere it is a correct CSR). A run records it as a
 * crash and goes on. */
#include "bad_common.h"

static const spmvlab_option options[] = {PLAIN_STAGE_OPTION("convert"), PLAIN_MIN_ROWS_OPTION, {NULL}};

/* A store 16 bytes past a null pointer, as through a field of a struct that
 * was never allocated: a plain segfault, which no sanitizer intercepts
 * before the signal (ASan's own SEGV handler aside: handle_segv=0). */
static void crash(void)
{
    volatile char *volatile nowhere = (volatile char *)16; /* both volatile: the store must happen */
    *nowhere = 42;
}

static spmvlab_status segv_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                   spmvlab_err *err)
{
    int here = A->rows >= spmvlab_opt_int(opts, "min_rows");
    if (here && spmvlab_opt_int(opts, "stage") == PLAIN_AT_CONVERT)
        crash();
    spmvlab_status st = plain_convert(ctx, A, out, err);
    if (st == SPMVLAB_OK)
        ((plain_format *)*out)->stage = here ? PLAIN_AT_SPMV : -1;
    return st;
}

static spmvlab_status segv_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    if (((const plain_format *)fmt)->stage != PLAIN_AT_SPMV)
        return plain_spmv_none(fmt, x, y, stream, err);
    crash();
    return SPMVLAB_INTERNAL;
}

static spmvlab_status segv_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    if (((const plain_format *)fmt)->stage != PLAIN_AT_SPMV)
        return plain_spmv_host(fmt, x, y, err);
    crash();
    return SPMVLAB_INTERNAL;
}

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_segv", "segfaults in convert (or spmv with stage = spmv)"),
    .options = options,
    .convert = segv_convert,
    .spmv = segv_spmv,
    .footprint = plain_footprint,
    .destroy = plain_destroy,
    .spmv_host = segv_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
