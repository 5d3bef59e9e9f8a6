/*
 * band — the diagonal format, for banded matrices: the worked example of
 * docs/writing-a-plugin.md, built out of tree against the installed package.
 *
 * Layout: the distinct diagonals the matrix uses, by offset = col - row,
 * sorted: offsets[ndiag] (int32), and data[ndiag][rows] stored diagonal by
 * diagonal: data[d·rows + i] = A(i, i + offsets[d]), zero where that entry
 * is absent or falls outside the matrix. No column indices: a diagonal's
 * offset gives every column. Device bytes: 4·ndiag + sizeof(value)·ndiag·rows.
 *
 * Padding: a diagonal costs `rows` values however few of them are non-zero,
 * so DIA explodes on anything not banded (a random matrix has up to
 * rows + cols - 1 diagonals). The option max_fill refuses (SPMVLAB_LIMIT) a
 * matrix whose stored entries ndiag·rows exceed max_fill·nnz.
 *
 * Kernel: one thread per row; thread i walks the diagonals and reads
 * data[d·rows + i], so neighbouring threads read neighbouring values
 * (coalesced) and x almost contiguously. spmv_host runs the same loop with
 * the same fused multiply-adds, padding included, so results match bits.
 *
 * Options: max_fill (float, default 3). dtypes: f64, f32, f16 (f16 values,
 * x and y; accumulated in f32, rounded once at the end).
 * Paper: Bell & Garland, Implementing sparse matrix-vector multiplication on
 * throughput-oriented processors, SC'09 (the DIA kernel); Saad, Iterative
 * Methods for Sparse Linear Systems, 2nd ed., §3.4 (the format).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

#include "band_kernels.h"

typedef struct band_format {
    spmvlab_ctx *ctx;         /* the core's services, for dev_free and fail */
    spmvlab_dtype dtype;
    int32_t rows, cols, nnz;
    int32_t ndiag;            /* diagonals stored */
    int32_t *offsets;         /* host: ndiag offsets, ascending */
    void *data;               /* host: ndiag·rows values of dtype */
    int32_t *d_offsets;       /* device copies, from spmvlab_put */
    void *d_data;
} band_format;

/* The dtypes band computes in: its descriptor's and convert's. */
#define BAND_DTYPES (SPMVLAB_DTYPES_F64_F32 | SPMVLAB_DTYPE_BIT(SPMVLAB_F16))

/* The options, parsed, range-checked and defaulted by the core. */
typedef struct band_opts {
    double max_fill; /* stored entries allowed per non-zero */
} band_opts;

/* One row a line: the key is the member's name (plugin_helpers.h). */
static const spmvlab_option band_options[] = {
    SPMVLAB_OPTION(band_opts, max_fill, SPMVLAB_OPT_FLOAT, "3", "1..1000000", "refuse matrices whose stored entries (diagonals x rows) exceed max_fill x nnz"),
    {NULL},
};

static void band_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(band_format, f, handle);
    void *const dev[] = {f->d_offsets, f->d_data}, *const host[] = {f->offsets, f->data};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* The distinct offsets (col - row) of A, ascending, into a malloc'd array.
 * A bitmap over the rows + cols - 1 possible offsets keeps this linear.
 * Returns the count, or -1 when out of memory. */
static int32_t band_find_offsets(const spmvlab_matrix *A, int32_t **out)
{
    *out = NULL;
    if (A->nnz == 0)
        return 0;
    size_t span = (size_t)A->rows + (size_t)A->cols - 1; /* offsets -(rows-1) .. cols-1 */
    uint64_t *seen = calloc((span + 63) / 64, sizeof *seen);
    if (!seen)
        return -1;
    int32_t ndiag = 0;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            size_t b = (size_t)((int64_t)A->col_idx[k] - i + A->rows - 1);
            if (!(seen[b / 64] & (1ull << (b % 64)))) {
                seen[b / 64] |= 1ull << (b % 64);
                ndiag++;
            }
        }
    int32_t *off = malloc((size_t)ndiag * sizeof *off);
    if (!off) {
        free(seen);
        return -1;
    }
    int32_t n = 0;
    for (size_t b = 0; b < span; b++)
        if (seen[b / 64] & (1ull << (b % 64)))
            off[n++] = (int32_t)((int64_t)b - (A->rows - 1));
    free(seen);
    *out = off;
    return ndiag;
}

/* Index of offset o in the ascending offsets (it is there). */
static int32_t band_slot(const int32_t *off, int32_t ndiag, int32_t o)
{
    int32_t lo = 0, hi = ndiag - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (off[mid] < o)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Builds DIA from CSR on the host, then uploads. Returns OK; LIMIT when
 * the padding would exceed max_fill; NOMEM; or the core's upload status. */
static spmvlab_status band_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    double max_fill = ((const band_opts *)spmvlab_opts_fields(opts))->max_fill;
    /* Refuses a dtype the descriptor does not declare, then declares f: a
     * zeroed band_format with ctx, dtype, rows, cols and nnz filled in. */
    SPMVLAB_CONVERT_BEGIN(band_format, f, ctx, A, BAND_DTYPES, out, err);
    int32_t ndiag = band_find_offsets(A, &f->offsets);
    if (ndiag < 0) {
        band_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory while finding the diagonals");
    }
    f->ndiag = ndiag;
    /* The guard comes before the big allocation: ndiag·rows can be huge. */
    double stored = (double)ndiag * A->rows;
    if (stored > max_fill * A->nnz) {
        band_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "%d diagonals x %d rows store %.0f entries for %d non-zeros, fill %.2f exceeds max_fill "
                         "%.2f (DIA suits banded matrices)",
                         ndiag, A->rows, stored, A->nnz, stored / A->nnz, max_fill);
    }
    size_t vs = spmvlab_dtype_size(A->dtype), db = (size_t)ndiag * (size_t)A->rows * vs;
    f->data = calloc(db ? db : 1, 1); /* zero bits are 0.0 in every dtype: the padding */
    if (!f->data) {
        band_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %zu bytes of diagonals", db);
    }
    const int32_t *off = f->offsets;
    char *data = f->data;
    const char *val = A->val;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int32_t d = band_slot(off, ndiag, A->col_idx[k] - i);
            memcpy(data + ((size_t)d * (size_t)A->rows + (size_t)i) * vs, val + (size_t)k * vs, vs);
        }
    const spmvlab_array arrays[] = {
        {(void **)&f->d_offsets, f->offsets, (size_t)ndiag * sizeof(int32_t)},
        {&f->d_data, f->data, db},
    };
    /* On OK hands f out in *out, else destroys it. */
    return spmvlab_converted(spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err), f, band_destroy, out);
}

static spmvlab_status band_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    band_format *f = handle;
    int rc = band_launch((int)f->dtype, f->rows, f->cols, f->ndiag, f->d_offsets, f->d_data, x, y, stream);
    return spmvlab_launched(f->ctx, err, rc, band_error_string, "kernel launch");
}

/* The kernel's loop on the CPU, one function per dtype: row i walks the
 * diagonals in order and multiply-adds every stored entry whose column is
 * inside the matrix, padding zeros included, exactly as band_rows does. */
static void band_host_f64(const band_format *f, const double *x, double *y)
{
    const double *data = f->data;
    for (int32_t i = 0; i < f->rows; i++) {
        double sum = 0;
        for (int32_t d = 0; d < f->ndiag; d++) {
            int64_t j = (int64_t)i + f->offsets[d];
            if (j >= 0 && j < f->cols)
                sum = fma(data[(size_t)d * (size_t)f->rows + (size_t)i], x[j], sum);
        }
        y[i] = sum;
    }
}

static void band_host_f32(const band_format *f, const float *x, float *y)
{
    const float *data = f->data;
    for (int32_t i = 0; i < f->rows; i++) {
        float sum = 0;
        for (int32_t d = 0; d < f->ndiag; d++) {
            int64_t j = (int64_t)i + f->offsets[d];
            if (j >= 0 && j < f->cols)
                sum = fmaf(data[(size_t)d * (size_t)f->rows + (size_t)i], x[j], sum);
        }
        y[i] = sum;
    }
}

static void band_host_f16(const band_format *f, const uint16_t *x, uint16_t *y)
{
    const uint16_t *data = f->data;
    for (int32_t i = 0; i < f->rows; i++) {
        float sum = 0;
        for (int32_t d = 0; d < f->ndiag; d++) {
            int64_t j = (int64_t)i + f->offsets[d];
            if (j >= 0 && j < f->cols)
                sum = fmaf(spmvlab_half_to_float(data[(size_t)d * (size_t)f->rows + (size_t)i]),
                           spmvlab_half_to_float(x[j]), sum);
        }
        y[i] = spmvlab_float_to_half(sum);
    }
}

/* band_spmv_host: one of the three above, by f->dtype. */
SPMVLAB_SPMV_HOST_F64_F32_F16(band, band_format, dtype)

static void band_describe(const void *handle, char *buf, size_t len)
{
    const band_format *f = handle;
    int32_t lo = f->ndiag ? f->offsets[0] : 0, hi = f->ndiag ? f->offsets[f->ndiag - 1] : 0;
    snprintf(buf, len, "diagonals=%d offsets=%d..%d fill=%.2f", f->ndiag, lo, hi,
             f->nnz ? (double)f->ndiag * f->rows / f->nnz : 0.0);
}

/* The descriptor and the exported entry: the standard members band_options,
 * band_opts, band_convert, band_spmv, band_destroy, band_spmv_host and
 * band_describe by name, then the version, dtypes, summary and reference. */
SPMVLAB_PLUGIN_DEFINE(band, "1.0.0", BAND_DTYPES, "diagonal format for banded matrices, thread per row",
                      "Bell & Garland, Implementing sparse matrix-vector multiplication on throughput-oriented "
                      "processors, SC'09; Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., 3.4");
