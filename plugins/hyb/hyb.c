/*
 * hyb — the hybrid ELL + COO format of Bell and Garland.
 *
 * Format: the first K non-zeros of every row go to an ELL part, the rest
 * (only rows longer than K have any) to a COO part. K is the ELL width.
 *
 * Layout: ELL is column-major, rows x K slots: slot (i, k) at k*rows + i, so
 * the threads of a warp (consecutive rows) read consecutive addresses.
 * Padding: a row shorter than K ends with slots of column -1 and value 0; the
 * kernel stops at the first such slot, so padding values are never read.
 * COO holds the overflow as (row, col, val), sorted by row then column.
 *
 * Execution: kernel 1 (one thread per row) stores the ELL sum into every y
 * row; kernel 2 adds the COO part. The COO entries are cut into equal
 * intervals (a multiple of 32 entries), one warp each; a warp reduces runs of
 * equal rows with a segmented scan and issues one atomicAdd per run, carrying
 * a run across its 32-entry steps, and the warps of a block (consecutive
 * intervals) combine the runs they carry out, so a very long overflow row
 * costs one atomic per block it spans instead of one per entry.
 *
 * Options: ell_width (auto or K; larger than the longest row is reduced to
 * it), row_fraction (auto: the largest K such that at least this fraction of
 * the rows have >= K non-zeros).
 *
 * Limits: f64 and f32; the ELL part may hold at most 2^31 - 1 slots (LIMIT).
 *
 * Paper: N. Bell and M. Garland, "Implementing sparse matrix-vector
 * multiplication on throughput-oriented processors", SC 2009; W. Hwu,
 * D. Kirk, I. El Hajj, "Programming Massively Parallel Processors", 4th ed.,
 * ch. 14.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb.h"
#include "spmvlab/plugin.h"

/* COO warps to plan for when no device is present (CPU runs only). */
#define HYB_HOST_WARPS 4096

static const spmvlab_option hyb_options[] = {
    {"ell_width", SPMVLAB_OPT_INT_AUTO, "auto", 0, 2147483647.0, NULL,
     "ELL slots per row K; auto: Bell-Garland choice from row_fraction; 0: all COO"},
    {"row_fraction", SPMVLAB_OPT_FLOAT, "0.333333", 0, 1, NULL,
     "auto width: largest K such that at least this fraction of rows have >= K non-zeros"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* The Bell-Garland width: the largest K such that at least fraction * rows
 * rows have K or more non-zeros (0 when none qualifies). -1 without memory. */
static int32_t hyb_auto_width(const spmvlab_matrix *A, double fraction)
{
    int32_t longest = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        longest = len > longest ? len : longest;
    }
    int32_t *count = calloc((size_t)longest + 1, sizeof *count);
    if (!count)
        return -1;
    for (int32_t i = 0; i < A->rows; i++)
        count[A->row_ptr[i + 1] - A->row_ptr[i]]++;
    int32_t width = 0;
    long long at_least = 0; /* rows with length >= k */
    for (int32_t k = longest; k >= 1; k--) {
        at_least += count[k];
        if ((double)at_least >= fraction * (double)A->rows) {
            width = k;
            break;
        }
    }
    free(count);
    return width;
}

/* Plans the COO kernel: enough warps to fill the device, each taking an
 * interval of whole 32-entry steps. */
static void hyb_plan_coo(hyb_format *f)
{
    const spmvlab_device *dev = f->ctx->device;
    long long max_warps = HYB_HOST_WARPS;
    if (dev->present && dev->sm_count > 0 && dev->max_threads_per_sm >= HYB_WARP)
        max_warps = (long long)dev->sm_count * (dev->max_threads_per_sm / HYB_WARP);
    long long steps = ((long long)f->coo_entries + HYB_WARP - 1) / HYB_WARP;
    long long warps = steps < max_warps ? steps : max_warps;
    if (warps == 0) {
        f->coo_interval = f->coo_warps = 0;
        return;
    }
    long long interval = (steps + warps - 1) / warps * HYB_WARP;
    f->coo_interval = (int32_t)interval;
    f->coo_warps = (int32_t)(((long long)f->coo_entries + interval - 1) / interval);
}

/* Frees every host and device array of f, then f. */
static void hyb_free(hyb_format *f)
{
    if (!f)
        return;
    spmvlab_ctx *ctx = f->ctx;
    ctx->dev_free(ctx, f->d_ell_col);
    ctx->dev_free(ctx, f->d_ell_val);
    ctx->dev_free(ctx, f->d_coo_row);
    ctx->dev_free(ctx, f->d_coo_col);
    ctx->dev_free(ctx, f->d_coo_val);
    free(f->ell_col);
    free(f->ell_val);
    free(f->coo_row);
    free(f->coo_col);
    free(f->coo_val);
    free(f);
}

/* Allocates bytes of device memory at *dst and copies src there; nothing for
 * 0 bytes. Returns the core's status (LIMIT, NOMEM, ...) on failure. */
static spmvlab_status hyb_to_device(hyb_format *f, void **dst, const void *src, size_t bytes,
                                    spmvlab_err *err)
{
    return spmvlab_dev_put(f->ctx, dst, src, bytes, &f->bytes, err);
}

/* Splits every row of A at K into the host ELL and COO arrays of f. */
static void hyb_fill(hyb_format *f, const spmvlab_matrix *A)
{
    const size_t es = spmvlab_dtype_size(A->dtype);
    const char *val = A->val;
    char *ell_val = f->ell_val, *coo_val = f->coo_val;
    size_t c = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t b = A->row_ptr[i], e = A->row_ptr[i + 1];
        for (int32_t k = 0; k < f->width; k++) {
            size_t slot = (size_t)k * (size_t)A->rows + (size_t)i;
            if (b + k < e) {
                f->ell_col[slot] = A->col_idx[b + k];
                memcpy(ell_val + slot * es, val + (size_t)(b + k) * es, es);
            } else {
                f->ell_col[slot] = -1; /* value stays 0 from calloc */
            }
        }
        for (int32_t j = b + f->width; j < e; j++, c++) {
            f->coo_row[c] = i;
            f->coo_col[c] = A->col_idx[j];
            memcpy(coo_val + c * es, val + (size_t)j * es, es);
        }
    }
}

/* Builds the format: width, split, COO plan, device copies. */
static spmvlab_status hyb_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                  const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    *out = NULL;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "hyb supports the f64 and f32 dtypes only");
    int32_t longest = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        longest = len > longest ? len : longest;
    }
    long long width;
    if (spmvlab_opt_is_auto(opts, "ell_width")) {
        width = hyb_auto_width(A, spmvlab_opt_float(opts, "row_fraction"));
        if (width < 0)
            return ctx->fail(ctx, err, SPMVLAB_NOMEM,
                             "out of host memory for the row-length histogram");
    } else {
        width = spmvlab_opt_int(opts, "ell_width");
        width = width < longest ? width : longest;
    }
    long long slots = width * (long long)A->rows;
    if (slots > INT32_MAX)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "ELL part of %lld x %lld slots exceeds 2^31 - 1 slots", (long long)A->rows,
                         width);

    hyb_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the format");
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->width = (int32_t)width;
    long long ell_entries = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        ell_entries += len < f->width ? len : f->width;
    }
    f->ell_entries = (int32_t)ell_entries;
    f->coo_entries = A->nnz - f->ell_entries;

    const size_t es = spmvlab_dtype_size(A->dtype), ns = (size_t)slots, nc = (size_t)f->coo_entries;
    f->ell_col = malloc((ns ? ns : 1) * sizeof *f->ell_col);
    f->ell_val = calloc(ns ? ns : 1, es);
    f->coo_row = malloc((nc ? nc : 1) * sizeof *f->coo_row);
    f->coo_col = malloc((nc ? nc : 1) * sizeof *f->coo_col);
    f->coo_val = malloc((nc ? nc : 1) * es);
    if (!f->ell_col || !f->ell_val || !f->coo_row || !f->coo_col || !f->coo_val) {
        hyb_free(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM,
                         "out of host memory for %lld ELL slots and %d COO entries", slots,
                         A->nnz - (int32_t)ell_entries);
    }
    hyb_fill(f, A);
    hyb_plan_coo(f);

    spmvlab_status st =
        hyb_to_device(f, (void **)&f->d_ell_col, f->ell_col, ns * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = hyb_to_device(f, &f->d_ell_val, f->ell_val, ns * es, err);
    if (st == SPMVLAB_OK)
        st = hyb_to_device(f, (void **)&f->d_coo_row, f->coo_row, nc * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = hyb_to_device(f, (void **)&f->d_coo_col, f->coo_col, nc * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = hyb_to_device(f, &f->d_coo_val, f->coo_val, nc * es, err);
    if (st != SPMVLAB_OK) {
        hyb_free(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

/* Launches the ELL kernel (stores every y row), then the COO kernel (adds). */
static spmvlab_status hyb_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    hyb_format *f = fmt;
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e =
        hyb_launch_ell((int)f->dtype, f->rows, f->width, f->d_ell_col, f->d_ell_val, x, y, s);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "ELL kernel launch failed: %s",
                            cudaGetErrorString(e));
    e = hyb_launch_coo((int)f->dtype, f->coo_entries, f->coo_interval, f->coo_warps, f->d_coo_row,
                       f->d_coo_col, f->d_coo_val, x, y, s);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "COO kernel launch failed: %s",
                            cudaGetErrorString(e));
    return SPMVLAB_OK;
}

/* The kernels on the CPU, in value type T: the ELL loop per row, then the
 * COO blocks, each running its warps' steps with the same carry and the
 * same scan order and then combining the warps' carries; the kernel's
 * atomics become plain additions. hyb_scan_* is the warp's run-restricted
 * Hillis-Steele scan; it fills start[l], the first lane of lane l's run. */
#define HYB_DEFINE_HOST(T, FMA, SUFFIX)                                                            \
    static void hyb_scan_##SUFFIX(T v[HYB_WARP], const int32_t r[HYB_WARP],                        \
                                  int32_t start[HYB_WARP])                                         \
    {                                                                                              \
        T u[HYB_WARP];                                                                             \
        for (int l = 0; l < HYB_WARP; l++)                                                         \
            start[l] = l == 0 || r[l] != r[l - 1] ? l : start[l - 1];                              \
        for (int d = 1; d < HYB_WARP; d <<= 1) {                                                   \
            memcpy(u, v, sizeof u);                                                                \
            for (int l = d; l < HYB_WARP; l++)                                                     \
                if (l - d >= start[l])                                                             \
                    v[l] += u[l - d];                                                              \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    static void hyb_host_##SUFFIX(const hyb_format *f, const T *x, T *y)                           \
    {                                                                                              \
        const T *ev = f->ell_val, *cv = f->coo_val;                                                \
        for (int32_t i = 0; i < f->rows; i++) {                                                    \
            T sum = 0;                                                                             \
            size_t slot = (size_t)i;                                                               \
            for (int32_t k = 0; k < f->width; k++, slot += (size_t)f->rows) {                      \
                int32_t c = f->ell_col[slot];                                                      \
                if (c < 0)                                                                         \
                    break;                                                                         \
                sum = FMA(ev[slot], x[c], sum);                                                    \
            }                                                                                      \
            y[i] = sum;                                                                            \
        }                                                                                          \
        const int per_block = HYB_BLOCK / HYB_WARP;                                                \
        for (int32_t b = 0; b * per_block < f->coo_warps; b++) {                                   \
            int32_t block_rows[HYB_WARP], start[HYB_WARP];                                         \
            T block_sums[HYB_WARP];                                                                \
            for (int l = 0; l < HYB_WARP; l++) {                                                   \
                block_rows[l] = -1;                                                                \
                block_sums[l] = 0;                                                                 \
            }                                                                                      \
            for (int w = 0; w < per_block; w++) {                                                  \
                long long begin = ((long long)b * per_block + w) * f->coo_interval;                \
                long long end = begin + f->coo_interval;                                           \
                end = end < f->coo_entries ? end : f->coo_entries;                                 \
                int32_t carry_row = -1;                                                            \
                T carry = 0;                                                                       \
                for (long long base = begin; base < end; base += HYB_WARP) {                       \
                    int32_t r[HYB_WARP];                                                           \
                    T v[HYB_WARP];                                                                 \
                    for (int l = 0; l < HYB_WARP; l++) {                                           \
                        long long k = base + l;                                                    \
                        r[l] = k < end ? f->coo_row[k] : -1;                                       \
                        v[l] = k < end ? cv[k] * x[f->coo_col[k]] : (T)0;                          \
                    }                                                                              \
                    if (r[0] == carry_row)                                                         \
                        v[0] += carry;                                                             \
                    else if (carry_row >= 0)                                                       \
                        y[carry_row] += carry;                                                     \
                    hyb_scan_##SUFFIX(v, r, start);                                                \
                    for (int l = 0; l < HYB_WARP - 1; l++)                                         \
                        if (r[l] >= 0 && start[l + 1] == l + 1)                                    \
                            y[r[l]] += v[l];                                                       \
                    carry_row = r[HYB_WARP - 1];                                                   \
                    carry = v[HYB_WARP - 1];                                                       \
                }                                                                                  \
                block_rows[w] = carry_row;                                                         \
                block_sums[w] = carry;                                                             \
            }                                                                                      \
            hyb_scan_##SUFFIX(block_sums, block_rows, start);                                      \
            for (int l = 0; l < HYB_WARP; l++)                                                     \
                if (block_rows[l] >= 0 && (l == HYB_WARP - 1 || start[l + 1] == l + 1))            \
                    y[block_rows[l]] += block_sums[l];                                             \
        }                                                                                          \
    }

HYB_DEFINE_HOST(double, fma, f64)
HYB_DEFINE_HOST(float, fmaf, f32)

/* y = A x on the CPU from the format's own arrays. */
static spmvlab_status hyb_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    const hyb_format *f = fmt;
    if (f->dtype == SPMVLAB_F64)
        hyb_host_f64(f, x, y);
    else
        hyb_host_f32(f, x, y);
    return SPMVLAB_OK;
}

static size_t hyb_footprint(const void *fmt)
{
    return ((const hyb_format *)fmt)->bytes;
}

static void hyb_destroy(void *fmt)
{
    hyb_free(fmt);
}

/* ell_width, ELL fill (slots per stored ELL entry), COO entries and plan. */
static void hyb_describe(const void *fmt, char *buf, size_t len)
{
    const hyb_format *f = fmt;
    long long slots = (long long)f->width * f->rows;
    long long nnz = (long long)f->ell_entries + f->coo_entries;
    snprintf(buf, len,
             "ell_width=%d ell_slots=%lld ell_entries=%d ell_fill=%.3f coo_entries=%d "
             "coo_share=%.3f coo_warps=%d coo_interval=%d",
             f->width, slots, f->ell_entries,
             f->ell_entries ? (double)slots / (double)f->ell_entries : 0.0, f->coo_entries,
             nnz ? (double)f->coo_entries / (double)nnz : 0.0, f->coo_warps, f->coo_interval);
}

static const spmvlab_plugin hyb_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "hyb",
    .summary = "hybrid ELL + COO: ELL of width K for the regular part, COO for the overflow",
    .version = "1.0.0",
    .reference = "N. Bell, M. Garland, Implementing sparse matrix-vector multiplication on "
                 "throughput-oriented processors, SC 2009",
    .dtypes = SPMVLAB_DTYPES_F64_F32,
    .options = hyb_options,
    .check_options = NULL,
    .convert = hyb_convert,
    .spmv = hyb_spmv,
    .footprint = hyb_footprint,
    .destroy = hyb_destroy,
    .spmv_host = hyb_spmv_host,
    .describe = hyb_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void)
{
    return &hyb_plugin;
}
