/*
 * sell — SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske, Bishop, "A unified
 * sparse matrix data format for efficient general sparse matrix-vector
 * multiplication on modern processors with wide SIMD units", SIAM J. Sci.
 * Comput. 36(5), C401-C423, 2014), with the several-threads-per-row kernel
 * of SELL-P (Anzt, Tomov, Dongarra, "Implementing a sparse matrix vector
 * product for the SELL-C/SELL-C-sigma formats on NVIDIA GPUs", 2014).
 *
 * Format: rows are sorted by length, longest first, within windows of sigma
 * consecutive rows (sigma = 1: no sorting; sigma >= rows or >= 2^30: one
 * global sort; ties keep their original order; sigma <= C cannot change any
 * slice's width and acts as 1). The sorted rows are cut into slices of C
 * rows. Each slice is stored column-major and padded to its longest row:
 * entry k of slice row r of slice s sits at slice_ptr[s] + k * C + r, for
 * k < slice_width[s]. Padding entries have column SELL_PAD_COL (-1) and value
 * 0 and are skipped by the kernels. The last slice is stored with all C rows;
 * the rows past the matrix hold only padding and are never written.
 *
 * Arrays (device and host): slice_ptr (int64, nslices + 1), slice_width
 * (int32, nslices), perm (int32, rows: original row of each sorted position;
 * not stored when the order is the identity, e.g. sigma = 1), col (int32) and
 * val (dtype), one per stored entry. Footprint in bytes:
 *   8 (nslices + 1) + 4 nslices + 4 rows [perm stored] + (4 + sizeof(val)) stored
 * with stored = fill * nnz entries.
 *
 * Options: C (rows per slice: divides 32 or is a multiple of 32), sigma
 * (sorting window: 1, a multiple of C, or >= 2^30 for a global sort with any
 * C), threads_per_row (1, 2, 4, ..., 32, or auto: the largest power of two
 * T <= 32 with 8 T <= mean slice width). The kernel (sell.cu) writes
 * y[perm[p]] directly; spmv_host runs the same per-thread fused multiply-add
 * sequences and the same shuffle tree.
 *
 * Limits: f64 and f32. Stored entries are counted in 64 bits; a matrix whose
 * padded arrays would not fit in memory is refused (LIMIT) before any copy.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/plugin.h"
#include "sell.h"

#define SELL_C_MAX 4096         /* largest slice height accepted */
#define SELL_SIGMA_MAX 2147483647 /* largest value of the sigma option */
#define SELL_SIGMA_GLOBAL 1073741824 /* sigma >= 2^30: one global sort, for every C */
#define SELL_AUTO_MIN_PER_THREAD 8 /* auto: each thread of a row gets >= 8 slots on average */

static const spmvlab_option sell_options[] = {
    {"C", SPMVLAB_OPT_INT, "32", 1, SELL_C_MAX, NULL,
     "rows per slice: a divisor of the warp size (1, 2, 4, 8, 16, 32) or a multiple of it"},
    {"sigma", SPMVLAB_OPT_INT, "256", 1, SELL_SIGMA_MAX, NULL,
     "sorting window in rows: 1 (no sorting) or a multiple of C; >= rows or >= 1073741824: "
     "global sort"},
    {"threads_per_row", SPMVLAB_OPT_INT_AUTO, "1", 1, SELL_WARP, NULL,
     "threads sharing one row (1, 2, 4, ..., 32); auto: largest T with 8*T <= mean slice width"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* One SELL-C-sigma matrix: host arrays for spmv_host, device arrays for spmv. */
typedef struct sell_fmt {
    spmvlab_ctx *ctx;          /* services of the instance; frees device memory */
    spmvlab_dtype dtype;       /* type of val, x and y */
    int32_t rows, cols, nnz;   /* shape of A and its non-zeros */
    int32_t C;                 /* rows per slice */
    long long sigma;           /* sorting window as requested */
    int32_t sigma_eff;         /* window used: min(sigma, rows), or 1 when that is <= C */
    int32_t threads_per_row;   /* threads sharing one row in the kernel */
    int tpr_auto;              /* threads_per_row was chosen by the auto rule */
    int32_t nslices;           /* ceil(rows / C) */
    int32_t max_width;         /* widest slice */
    int64_t stored;            /* stored entries: non-zeros plus padding */
    int64_t *slice_ptr;        /* host, nslices + 1 entry offsets */
    int32_t *slice_width;      /* host, nslices widths */
    int32_t *perm;             /* host, rows; NULL when the order is the identity */
    int32_t *col;              /* host, stored columns (SELL_PAD_COL for padding) */
    void *val;                 /* host, stored values of dtype */
    int64_t *d_slice_ptr;      /* device copies of the five arrays above */
    int32_t *d_slice_width;
    int32_t *d_perm;
    int32_t *d_col;
    void *d_val;
    size_t dev_bytes;          /* sum of the live dev_alloc byte counts */
} sell_fmt;

/* Checks C, sigma and threads_per_row against each other (tpr <= 0: auto).
 * Returns 0, or -1 with one sentence in why. */
static int sell_check_values(long long C, long long sigma, long long tpr, char *why, size_t len)
{
    if (C < 1 || (SELL_WARP % C != 0 && C % SELL_WARP != 0)) {
        snprintf(why, len,
                 "C = %lld must divide the warp size %d (1, 2, 4, 8, 16, 32) or be a multiple of it "
                 "(64, 96, 128, ...)",
                 C, SELL_WARP);
        return -1;
    }
    if (sigma != 1 && sigma < SELL_SIGMA_GLOBAL && (sigma < 1 || sigma % C != 0)) {
        long long below = sigma / C * C, above = below + C;
        char near[64];
        if (below > 0)
            snprintf(near, sizeof near, "%lld or %lld", below, above);
        else
            snprintf(near, sizeof near, "%lld", above);
        snprintf(why, len,
                 "sigma = %lld must be 1 (no sorting) or a multiple of C = %lld so that sorting "
                 "windows hold whole slices (e.g. %s), or %d or more for a global sort",
                 sigma, C, near, SELL_SIGMA_GLOBAL);
        return -1;
    }
    if (tpr > 0 && (tpr > SELL_WARP || (tpr & (tpr - 1)) != 0)) {
        snprintf(why, len,
                 "threads_per_row = %lld must be a power of two from 1 to %d (or auto) so that "
                 "the threads of a row share a warp",
                 tpr, SELL_WARP);
        return -1;
    }
    return 0;
}

/* Reads the three options; tpr is 0 for auto. */
static void sell_read_options(const spmvlab_opts *opts, long long *C, long long *sigma,
                              long long *tpr)
{
    *C = spmvlab_opt_int(opts, "C");
    *sigma = spmvlab_opt_int(opts, "sigma");
    *tpr = spmvlab_opt_is_auto(opts, "threads_per_row") ? 0 : spmvlab_opt_int(opts, "threads_per_row");
}

/* Cross-option checks made when the configuration is read. Returns OK or
 * INVALID_OPTION with the sentence in err. */
static spmvlab_status sell_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    long long C, sigma, tpr;
    sell_read_options(opts, &C, &sigma, &tpr);
    if (sell_check_values(C, sigma, tpr, err->msg, sizeof err->msg) != 0)
        return SPMVLAB_INVALID_OPTION;
    return SPMVLAB_OK;
}

/* Sort key of a row: longer rows first, then the lower row index, so the
 * order is deterministic and ties keep their original order. */
static uint64_t sell_sort_key(int32_t len, int32_t row)
{
    return ((uint64_t)(uint32_t)(INT32_MAX - len) << 32) | (uint32_t)row;
}

static int sell_cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Fills order[p] = original row at sorted position p: rows sorted by length
 * (descending) within windows of sigma rows. Returns 1 when the order is not
 * the identity, 0 when it is, -1 when out of host memory. */
static int sell_sort_rows(const spmvlab_matrix *A, int32_t sigma, int32_t *order)
{
    int changed = 0;
    for (int32_t i = 0; i < A->rows; i++)
        order[i] = i;
    if (sigma <= 1 || A->rows <= 1)
        return 0;
    uint64_t *key = malloc((size_t)sigma * sizeof *key);
    if (!key)
        return -1;
    for (int64_t w0 = 0; w0 < A->rows; w0 += sigma) {
        int32_t n = (int32_t)(A->rows - w0 < sigma ? A->rows - w0 : sigma);
        for (int32_t j = 0; j < n; j++) {
            int32_t row = (int32_t)w0 + j;
            key[j] = sell_sort_key(A->row_ptr[row + 1] - A->row_ptr[row], row);
        }
        qsort(key, (size_t)n, sizeof *key, sell_cmp_key);
        for (int32_t j = 0; j < n; j++) {
            order[w0 + j] = (int32_t)(uint32_t)key[j];
            changed |= order[w0 + j] != (int32_t)w0 + j;
        }
    }
    free(key);
    return changed;
}

/* threads_per_row = auto: the largest power of two T <= 32 with
 * SELL_AUTO_MIN_PER_THREAD * T <= mean slice width (stored / (nslices * C)),
 * so that each thread of a row still has several entries to add. */
static int32_t sell_auto_tpr(int64_t stored, int32_t nslices, int32_t C)
{
    double mean = nslices > 0 ? (double)stored / ((double)nslices * C) : 0.0;
    int32_t t = 1;
    while (t < SELL_WARP && (double)SELL_AUTO_MIN_PER_THREAD * (t * 2) <= mean)
        t *= 2;
    return t;
}

/* Frees every host and device array of f (NULL allowed). */
static void sell_destroy(void *fmt)
{
    sell_fmt *f = fmt;
    if (!f)
        return;
    f->ctx->dev_free(f->ctx, f->d_slice_ptr);
    f->ctx->dev_free(f->ctx, f->d_slice_width);
    f->ctx->dev_free(f->ctx, f->d_perm);
    f->ctx->dev_free(f->ctx, f->d_col);
    f->ctx->dev_free(f->ctx, f->d_val);
    free(f->slice_ptr);
    free(f->slice_width);
    free(f->perm);
    free(f->col);
    free(f->val);
    free(f);
}

/* Tracked device allocation of bytes into *p, counted in f->dev_bytes. */
static spmvlab_status sell_dev_alloc(sell_fmt *f, void **p, size_t bytes, spmvlab_err *err)
{
    spmvlab_status st = f->ctx->dev_alloc(f->ctx, p, bytes, err);
    if (st == SPMVLAB_OK)
        f->dev_bytes += bytes;
    return st;
}

/* Copies a host array to its device twin (nothing for 0 bytes). */
static spmvlab_status sell_upload(sell_fmt *f, void *dst, const void *src, size_t bytes,
                                  spmvlab_err *err)
{
    return bytes ? f->ctx->upload(f->ctx, dst, src, bytes, err) : SPMVLAB_OK;
}

/* Slice geometry from the sorted order: slice widths, slice_ptr, max width
 * and the stored entry count. Needs f->slice_width / slice_ptr allocated. */
static void sell_layout(sell_fmt *f, const spmvlab_matrix *A, const int32_t *order)
{
    int64_t at = 0;
    f->max_width = 0;
    for (int32_t s = 0; s < f->nslices; s++) {
        int32_t w = 0;
        int64_t end = (int64_t)(s + 1) * f->C < A->rows ? (int64_t)(s + 1) * f->C : A->rows;
        for (int64_t p = (int64_t)s * f->C; p < end; p++) {
            int32_t len = A->row_ptr[order[p] + 1] - A->row_ptr[order[p]];
            w = len > w ? len : w;
        }
        f->slice_width[s] = w;
        f->slice_ptr[s] = at;
        at += (int64_t)w * f->C;
        f->max_width = w > f->max_width ? w : f->max_width;
    }
    f->slice_ptr[f->nslices] = at;
    f->stored = at;
}

/* Writes the entries of every slice column-major, padding included. */
static void sell_fill(sell_fmt *f, const spmvlab_matrix *A, const int32_t *order)
{
    size_t vs = spmvlab_dtype_size(f->dtype);
    char *val = f->val;
    const char *src = A->val;
    for (int32_t s = 0; s < f->nslices; s++) {
        for (int32_t r = 0; r < f->C; r++) {
            int64_t p = (int64_t)s * f->C + r;
            int32_t len = 0, first = 0;
            if (p < A->rows) {
                first = A->row_ptr[order[p]];
                len = A->row_ptr[order[p] + 1] - first;
            }
            for (int32_t k = 0; k < f->slice_width[s]; k++) {
                int64_t i = f->slice_ptr[s] + (int64_t)k * f->C + r;
                if (k < len) {
                    f->col[i] = A->col_idx[first + k];
                    memcpy(val + i * vs, src + (size_t)(first + k) * vs, vs);
                } else {
                    f->col[i] = SELL_PAD_COL;
                    memset(val + i * vs, 0, vs);
                }
            }
        }
    }
}

/* Allocates the device arrays (first, so the run's memory limit refuses a
 * huge padding before host copies are made) and the host arrays of col and
 * val. Returns OK, LIMIT or NOMEM. */
static spmvlab_status sell_alloc_entries(sell_fmt *f, spmvlab_err *err)
{
    size_t vs = spmvlab_dtype_size(f->dtype);
    spmvlab_ctx *ctx = f->ctx;
    if ((uint64_t)f->stored > SIZE_MAX / (sizeof(int32_t) + vs))
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "%lld stored entries (fill %.2f with C = %d, sigma = %lld) do not fit "
                         "in memory",
                         (long long)f->stored, f->nnz ? (double)f->stored / f->nnz : 1.0, f->C,
                         f->sigma);
    size_t n = (size_t)f->stored;
    spmvlab_status st = sell_dev_alloc(f, (void **)&f->d_slice_ptr,
                                       ((size_t)f->nslices + 1) * sizeof(int64_t), err);
    if (st == SPMVLAB_OK)
        st = sell_dev_alloc(f, (void **)&f->d_slice_width, (size_t)f->nslices * sizeof(int32_t), err);
    if (st == SPMVLAB_OK && f->perm)
        st = sell_dev_alloc(f, (void **)&f->d_perm, (size_t)f->rows * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = sell_dev_alloc(f, (void **)&f->d_col, n * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = sell_dev_alloc(f, &f->d_val, n * vs, err);
    if (st != SPMVLAB_OK)
        return st;
    f->col = malloc(n * sizeof(int32_t) + 1);
    f->val = malloc(n * vs + 1);
    if (!f->col || !f->val)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld stored entries",
                         (long long)f->stored);
    return SPMVLAB_OK;
}

/* Builds SELL-C-sigma from the CSR input: sort, slice, pad, upload.
 * Returns OK, UNSUPPORTED (dtype), INVALID_OPTION, LIMIT or NOMEM; on
 * failure nothing is kept. */
static spmvlab_status sell_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                   const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    *out = NULL;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "sell supports f64 and f32 values only");
    long long C, sigma, tpr;
    char why[SPMVLAB_ERR_LEN];
    sell_read_options(opts, &C, &sigma, &tpr);
    if (sell_check_values(C, sigma, tpr, why, sizeof why) != 0)
        return ctx->fail(ctx, err, SPMVLAB_INVALID_OPTION, "%s", why);

    sell_fmt *f = calloc(1, sizeof *f);
    int32_t *order = malloc(((size_t)A->rows + 1) * sizeof *order);
    if (!f || !order) {
        free(f);
        free(order);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the sell descriptor");
    }
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = A->nnz;
    f->C = (int32_t)C;
    f->sigma = sigma;
    /* A window of at most one slice cannot change any slice's width, so it
     * is not sorted and no permutation is stored: sigma <= C acts as 1. */
    f->sigma_eff = (int32_t)(sigma < A->rows && sigma < SELL_SIGMA_GLOBAL ? sigma : A->rows);
    if (f->sigma_eff <= f->C)
        f->sigma_eff = 1;
    f->nslices = (int32_t)(((int64_t)A->rows + C - 1) / C);

    spmvlab_status st = SPMVLAB_OK;
    int sorted = sell_sort_rows(A, f->sigma_eff, order);
    f->slice_ptr = malloc(((size_t)f->nslices + 1) * sizeof(int64_t));
    f->slice_width = malloc((size_t)f->nslices * sizeof(int32_t) + 1);
    if (sorted < 0 || !f->slice_ptr || !f->slice_width) {
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the sell slices");
    } else if (sorted) {
        f->perm = order; /* the sorted order is the permutation the kernel writes through */
        order = NULL;
    }
    const int32_t *ord = f->perm ? f->perm : order;
    if (st == SPMVLAB_OK) {
        sell_layout(f, A, ord);
        f->tpr_auto = tpr <= 0;
        f->threads_per_row = f->tpr_auto ? sell_auto_tpr(f->stored, f->nslices, f->C) : (int32_t)tpr;
        st = sell_alloc_entries(f, err);
    }
    if (st == SPMVLAB_OK) {
        sell_fill(f, A, ord);
        size_t vs = spmvlab_dtype_size(f->dtype), n = (size_t)f->stored;
        st = sell_upload(f, f->d_slice_ptr, f->slice_ptr, ((size_t)f->nslices + 1) * sizeof(int64_t), err);
        if (st == SPMVLAB_OK)
            st = sell_upload(f, f->d_slice_width, f->slice_width, (size_t)f->nslices * sizeof(int32_t), err);
        if (st == SPMVLAB_OK && f->perm)
            st = sell_upload(f, f->d_perm, f->perm, (size_t)f->rows * sizeof(int32_t), err);
        if (st == SPMVLAB_OK)
            st = sell_upload(f, f->d_col, f->col, n * sizeof(int32_t), err);
        if (st == SPMVLAB_OK)
            st = sell_upload(f, f->d_val, f->val, n * vs, err);
    }
    free(order);
    if (st != SPMVLAB_OK) {
        sell_destroy(f);
        return st;
    }
    ctx->log(ctx, "sell: C=%d sigma=%d slices=%d stored=%lld fill=%.3f threads_per_row=%d", f->C,
             f->sigma_eff, f->nslices, (long long)f->stored,
             f->nnz ? (double)f->stored / f->nnz : 1.0, f->threads_per_row);
    *out = f;
    return SPMVLAB_OK;
}

/* The kernel on the CPU for value type V with fused multiply-add FMA: for
 * every sorted position, the T per-thread sums over k = t, t + T, ... and
 * the shuffle tree (offsets T/2, ..., 1 in units of a row's threads). */
#define SELL_HOST_KERNEL(NAME, V, FMA)                                                       \
    static void NAME(const sell_fmt *f, const V *x, V *y)                                    \
    {                                                                                        \
        const V *val = f->val;                                                               \
        const int32_t T = f->threads_per_row;                                                \
        V part[SELL_WARP];                                                                   \
        for (int32_t p = 0; p < f->rows; p++) {                                              \
            int32_t s = p / f->C, w = f->slice_width[s];                                     \
            int64_t base = f->slice_ptr[s] + (p - (int64_t)s * f->C);                        \
            for (int32_t t = 0; t < T; t++)                                                  \
                part[t] = 0;                                                                 \
            for (int32_t k = 0; k < w; k++) {                                                \
                int64_t i = base + (int64_t)k * f->C;                                        \
                int32_t c = f->col[i];                                                       \
                if (c != SELL_PAD_COL)                                                       \
                    part[k % T] = FMA(val[i], x[c], part[k % T]);                            \
            }                                                                                \
            for (int32_t h = T / 2; h >= 1; h /= 2)                                          \
                for (int32_t t = 0; t < h; t++)                                              \
                    part[t] = part[t] + part[t + h];                                         \
            y[f->perm ? f->perm[p] : p] = part[0];                                           \
        }                                                                                    \
    }

SELL_HOST_KERNEL(sell_host_f64, double, fma)
SELL_HOST_KERNEL(sell_host_f32, float, fmaf)

/* y = A x on the CPU from the format's own arrays. Always OK. */
static spmvlab_status sell_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    const sell_fmt *f = fmt;
    if (f->dtype == SPMVLAB_F64)
        sell_host_f64(f, x, y);
    else
        sell_host_f32(f, x, y);
    return SPMVLAB_OK;
}

/* y = A x on the device: one launch (none when rows == 0). Returns
 * CUDA_ERROR with the runtime's text when the launch failed. */
static spmvlab_status sell_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    sell_fmt *f = fmt;
    if (f->rows == 0)
        return SPMVLAB_OK;
    sell_device_view v = {f->rows,          f->C,        f->threads_per_row,
                          f->dtype == SPMVLAB_F32, f->d_slice_ptr, f->d_slice_width,
                          f->d_perm,        f->d_col,    f->d_val};
    int e = sell_spmv_launch(&v, x, y, stream);
    if (e != 0)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR,
                            "sell kernel (threads_per_row = %d) failed: %s", f->threads_per_row,
                            sell_cuda_error_text(e));
    return SPMVLAB_OK;
}

/* Device bytes kept for SpMV: every live dev_alloc. */
static size_t sell_footprint(const void *fmt)
{
    return ((const sell_fmt *)fmt)->dev_bytes;
}

/* Format facts for the A/B: the sigma trade-off shows in fill against perm. */
static void sell_describe(const void *fmt, char *buf, size_t len)
{
    const sell_fmt *f = fmt;
    double mean = f->nslices ? (double)f->stored / ((double)f->nslices * f->C) : 0.0;
    snprintf(buf, len,
             "C=%d sigma=%lld sigma_used=%d threads_per_row=%d tpr_auto=%s fill=%.4f "
             "stored=%lld padding=%lld slices=%d mean_width=%.2f max_width=%d perm=%s",
             f->C, f->sigma, f->sigma_eff, f->threads_per_row, f->tpr_auto ? "yes" : "no",
             f->nnz ? (double)f->stored / f->nnz : 1.0, (long long)f->stored,
             (long long)(f->stored - f->nnz), f->nslices, mean, f->max_width,
             f->perm ? "yes" : "no");
}

static const spmvlab_plugin sell_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "sell",
    .summary = "SELL-C-sigma: rows sorted in windows of sigma, slices of C rows stored "
               "column-major; optional SELL-P threads per row",
    .version = "1.0.0",
    .reference = "Kreutzer, Hager, Wellein, Fehske, Bishop, SIAM J. Sci. Comput. 36(5), C401-C423, "
                 "2014; Anzt, Tomov, Dongarra, SELL-P, 2014",
    .dtypes = SPMVLAB_DTYPES_F64_F32,
    .options = sell_options,
    .check_options = sell_check_options,
    .convert = sell_convert,
    .spmv = sell_spmv,
    .footprint = sell_footprint,
    .destroy = sell_destroy,
    .spmv_host = sell_spmv_host,
    .describe = sell_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void)
{
    return &sell_plugin;
}
