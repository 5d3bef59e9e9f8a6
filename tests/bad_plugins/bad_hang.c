/* Test plugin: never returns — spmv launches a kernel that spins forever
 * and spmv_host loops forever (by default; stage = convert hangs in
 * convert; with min_rows = N only on matrices of at least N rows, elsewhere
 * spmv_host is a correct CSR). A run records a timeout. */
#include "bad_common.h"

static const spmvlab_option options[] = {PLAIN_STAGE_OPTION("spmv"), PLAIN_MIN_ROWS_OPTION, {NULL}};

/* bad_hang.cu: launches the spinning kernel; returns a cudaError_t. */
int bad_hang_launch(volatile int *flag, void *stream);
const char *bad_hang_error_string(int code);

typedef struct hang_format {
    plain_format plain; /* first: plain_destroy and plain_footprint take it */
    int *d_flag;        /* device int the kernel waits on; never set */
} hang_format;

static void spin(void)
{
    volatile int forever = 1;
    while (forever)
        ;
}

static spmvlab_status hang_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                   spmvlab_err *err)
{
    int here = A->rows >= spmvlab_opt_int(opts, "min_rows");
    if (here && spmvlab_opt_int(opts, "stage") == PLAIN_AT_CONVERT)
        spin();
    void *plain;
    spmvlab_status st = plain_convert(ctx, A, &plain, err);
    if (st != SPMVLAB_OK)
        return st;
    ((plain_format *)plain)->stage = here ? PLAIN_AT_SPMV : -1;
    hang_format *f = realloc(plain, sizeof *f);
    if (!f) {
        plain_destroy(plain);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    }
    f->d_flag = NULL;
    int zero = 0;
    st = plain_put_array(&f->plain, (void **)&f->d_flag, &zero, sizeof zero, err);
    if (st != SPMVLAB_OK) {
        plain_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

static void hang_destroy(void *fmt)
{
    hang_format *f = fmt;
    if (f)
        f->plain.ctx->dev_free(f->plain.ctx, f->d_flag);
    plain_destroy(fmt);
}

static spmvlab_status hang_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    hang_format *f = fmt;
    if (f->plain.stage != PLAIN_AT_SPMV)
        return plain_spmv_none(fmt, x, y, stream, err);
    int rc = bad_hang_launch(f->d_flag, stream);
    if (rc)
        return f->plain.ctx->fail(f->plain.ctx, err, SPMVLAB_CUDA_ERROR, "launch failed: %s", bad_hang_error_string(rc));
    return SPMVLAB_OK;
}

static spmvlab_status hang_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    if (((const plain_format *)fmt)->stage != PLAIN_AT_SPMV)
        return plain_spmv_host(fmt, x, y, err);
    spin();
    return SPMVLAB_INTERNAL;
}

static const spmvlab_plugin desc = {
    PLAIN_IDENTITY("bad_hang", "never returns from spmv (or convert with stage = convert)"),
    .options = options,
    .convert = hang_convert,
    .spmv = hang_spmv,
    .footprint = plain_footprint,
    .destroy = hang_destroy,
    .spmv_host = hang_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
