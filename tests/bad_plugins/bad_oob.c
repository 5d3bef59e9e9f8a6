/* Test plugin: a correct CSR kernel that also writes far out of bounds on
 * the device on matrices of BAD_OOB_FROM_ROWS rows or more, the most common
 * bug of a new format. The write leaves the CUDA context unusable (an
 * illegal address), so the run and the check must record a device-fault
 * for this plugin and keep every other cell. Small matrices pass, so one
 * check shows both. spmv_host is correct. */
#include "bad_common.h"

#define BAD_OOB_FROM_ROWS 1000 /* the edge cases of check stay below, the bundled matrices above */

/* bad_oob.cu: launches the kernel; returns a cudaError_t. */
int bad_oob_launch(int rows, const void *row_ptr, const void *col, const void *val, int f64, const void *x,
                   void *y, int fault, void *stream);
const char *bad_oob_error_string(int code);

static spmvlab_status oob_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    plain_format *f = fmt;
    int rc = bad_oob_launch(f->rows, f->d_row_ptr, f->d_col_idx, f->d_val, f->dtype == SPMVLAB_F64, x, y,
                            f->rows >= BAD_OOB_FROM_ROWS, stream);
    if (rc)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "launch failed: %s", bad_oob_error_string(rc));
    return SPMVLAB_OK;
}

static spmvlab_status oob_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    (void)opts;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "bad_oob has kernels for f64 and f32 only");
    return plain_convert(ctx, A, out, err);
}

static const spmvlab_plugin desc = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "bad_oob",
    .summary = "CSR that writes out of bounds on the device from 1000 rows",
    .version = "0.0.1",
    .reference = "spmvlab test suite",
    .dtypes = SPMVLAB_DTYPE_BIT(SPMVLAB_F64) | SPMVLAB_DTYPE_BIT(SPMVLAB_F32),
    .convert = oob_convert,
    .spmv = oob_spmv,
    .footprint = plain_footprint,
    .destroy = plain_destroy,
    .spmv_host = plain_spmv_host,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &desc; }
