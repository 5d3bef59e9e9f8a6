/*
 * jds — jagged diagonal storage, plain or cut into ELL sections.
 *
 * Format: the rows are sorted by length, longest first; equal lengths keep
 * their original order (a stable sort). perm[r] is the original row at sorted
 * position r. Jagged diagonal d is entry d of every sorted row that has more
 * than d entries; since the rows are sorted, those rows are a prefix 0..n_d-1.
 *
 * Layout (sections = 0, plain JDS): diagonal after diagonal, jd_ptr[d] the
 * start of diagonal d (jd_ptr[0] = 0, jd_ptr[D] = nnz, D the longest row),
 * entry d of sorted row r at jd_ptr[d] + r. No padding: nnz values stored.
 * Layout (sections = N > 0): the sorted rows are cut into sections of
 * ceil(rows / N) rows (the last may be shorter, so there are N or fewer
 * sections); section s is a column-major ELL block of height h_s (its rows)
 * and width w_s (its first, longest row), starting at sec_ptr[s]; entry k of
 * its row i at sec_ptr[s] + k*h_s + i. Shorter rows are padded at their end
 * with column -1 and value 0; the kernel stops at the first padding slot.
 *
 * Execution: one thread per sorted row r writes y[perm[r]] directly; empty
 * rows sort last and get 0. No atomics, no second pass.
 *
 * Options: sections (0: plain JDS; N: N sections of equal row count).
 *
 * Limits: f64 and f32; at most 2^31 - 1 stored slots (LIMIT).
 *
 * Source: W. Hwu, D. Kirk, I. El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., ch. 14 (JDS, and JDS with ELL sections); Y. Saad,
 * "Krylov subspace methods on supercomputers", SIAM J. Sci. Stat. Comput.
 * 10(6), 1989 (jagged diagonals).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jds.h"
#include "spmvlab/plugin.h"

static const spmvlab_option jds_options[] = {
    {"sections", SPMVLAB_OPT_INT, "0", 0, 2147483647.0, NULL,
     "0: plain JDS; N: sorted rows cut into N sections of ceil(rows/N) rows, each an ELL block"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* Frees every host and device array of f, then f. */
static void jds_free(jds_format *f)
{
    if (!f)
        return;
    spmvlab_ctx *ctx = f->ctx;
    ctx->dev_free(ctx, f->d_perm);
    ctx->dev_free(ctx, f->d_ptr);
    ctx->dev_free(ctx, f->d_col);
    ctx->dev_free(ctx, f->d_val);
    free(f->perm);
    free(f->ptr);
    free(f->col);
    free(f->val);
    free(f);
}

/* Allocates bytes of device memory at *dst and copies src there; nothing for
 * 0 bytes. Returns the core's status (LIMIT, NOMEM, ...) on failure. */
static spmvlab_status jds_to_device(jds_format *f, void **dst, const void *src, size_t bytes,
                                    spmvlab_err *err)
{
    return spmvlab_dev_put(f->ctx, dst, src, bytes, &f->bytes, err);
}

/* Stable counting sort of the rows by length, longest first, into f->perm.
 * Returns the longest length, or -1 without memory. */
static int32_t jds_sort_rows(jds_format *f, const int32_t *row_ptr)
{
    int32_t longest = 0;
    for (int32_t i = 0; i < f->rows; i++) {
        int32_t len = row_ptr[i + 1] - row_ptr[i];
        longest = len > longest ? len : longest;
    }
    int32_t *next = calloc((size_t)longest + 2, sizeof *next); /* next slot per length */
    if (!next)
        return -1;
    for (int32_t i = 0; i < f->rows; i++)
        next[row_ptr[i + 1] - row_ptr[i]]++;
    int32_t pos = 0; /* rows longer than len come first */
    for (int32_t len = longest; len >= 0; len--) {
        int32_t n = next[len];
        next[len] = pos;
        pos += n;
    }
    for (int32_t i = 0; i < f->rows; i++)
        f->perm[next[row_ptr[i + 1] - row_ptr[i]]++] = i;
    free(next);
    return longest;
}

/* Plain JDS: jd_ptr from the diagonal lengths, then every entry at
 * jd_ptr[d] + r. */
static void jds_fill_diagonals(jds_format *f, const spmvlab_matrix *A)
{
    const size_t es = spmvlab_dtype_size(A->dtype);
    const char *src = A->val;
    char *dst = f->val;
    memset(f->ptr, 0, (size_t)f->ptr_len * sizeof *f->ptr);
    for (int32_t r = 0; r < f->rows; r++) {
        int32_t len = A->row_ptr[f->perm[r] + 1] - A->row_ptr[f->perm[r]];
        for (int32_t d = 0; d < len; d++)
            f->ptr[d + 1]++;
    }
    for (int32_t d = 0; d < f->diagonals; d++)
        f->ptr[d + 1] += f->ptr[d];
    for (int32_t r = 0; r < f->rows; r++) {
        int32_t b = A->row_ptr[f->perm[r]], len = A->row_ptr[f->perm[r] + 1] - b;
        for (int32_t d = 0; d < len; d++) {
            size_t k = (size_t)f->ptr[d] + (size_t)r;
            f->col[k] = A->col_idx[b + d];
            memcpy(dst + k * es, src + (size_t)(b + d) * es, es);
        }
    }
}

/* Sections: every section a column-major ELL block of its longest row's
 * width; padding keeps column -1 and value 0. */
static void jds_fill_sections(jds_format *f, const spmvlab_matrix *A)
{
    const size_t es = spmvlab_dtype_size(A->dtype);
    const char *src = A->val;
    char *dst = f->val;
    for (size_t k = 0; k < (size_t)f->slots; k++)
        f->col[k] = -1;
    for (int32_t r = 0; r < f->rows; r++) {
        int32_t s = r / f->section_rows, first = s * f->section_rows;
        int32_t height = f->rows - first < f->section_rows ? f->rows - first : f->section_rows;
        int32_t b = A->row_ptr[f->perm[r]], len = A->row_ptr[f->perm[r] + 1] - b;
        for (int32_t j = 0; j < len; j++) {
            size_t k = (size_t)f->ptr[s] + (size_t)j * (size_t)height + (size_t)(r - first);
            f->col[k] = A->col_idx[b + j];
            memcpy(dst + k * es, src + (size_t)(b + j) * es, es);
        }
    }
}

/* Section geometry and sec_ptr (prefix sums of height * width). Returns the
 * stored slots, which may exceed INT32_MAX (the caller refuses those). */
static long long jds_plan_sections(jds_format *f, const int32_t *row_ptr)
{
    long long total = 0;
    f->ptr[0] = 0;
    for (int32_t s = 0; s < f->sections; s++) {
        int32_t first = s * f->section_rows;
        int32_t height = f->rows - first < f->section_rows ? f->rows - first : f->section_rows;
        int32_t width = row_ptr[f->perm[first] + 1] - row_ptr[f->perm[first]];
        total += (long long)height * width;
        f->ptr[s + 1] = total > INT32_MAX ? INT32_MAX : (int32_t)total;
    }
    return total;
}

/* Builds the format: sort, diagonals or sections, device copies. */
static spmvlab_status jds_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                  const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    *out = NULL;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "jds supports the f64 and f32 dtypes only");
    jds_format *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the format");
    f->ctx = ctx;
    f->dtype = A->dtype;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = A->nnz;
    f->perm = malloc(((size_t)A->rows + 1) * sizeof *f->perm);
    int32_t longest = f->perm ? jds_sort_rows(f, A->row_ptr) : -1;
    if (longest < 0) {
        jds_free(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory to sort %d rows", A->rows);
    }
    f->diagonals = longest;

    long long wanted = spmvlab_opt_int(opts, "sections"), slots = A->nnz;
    if (wanted > 0 && A->rows > 0) {
        long long n = wanted < A->rows ? wanted : A->rows;
        f->section_rows = (int32_t)((A->rows + n - 1) / n);
        f->sections = (int32_t)((A->rows + f->section_rows - 1) / f->section_rows);
        f->ptr_len = f->sections + 1;
    } else {
        f->ptr_len = f->diagonals + 1;
    }
    f->ptr = malloc((size_t)f->ptr_len * sizeof *f->ptr);
    if (!f->ptr) {
        jds_free(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d pointers", f->ptr_len);
    }
    if (f->sections > 0)
        slots = jds_plan_sections(f, A->row_ptr);
    if (slots > INT32_MAX) {
        jds_free(f);
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "%d sections of %d rows need %lld slots, more than 2^31 - 1", f->sections,
                         f->section_rows, slots);
    }
    f->slots = (int32_t)slots;

    const size_t es = spmvlab_dtype_size(A->dtype), ns = (size_t)f->slots;
    f->col = malloc((ns ? ns : 1) * sizeof *f->col);
    f->val = calloc(ns ? ns : 1, es);
    if (!f->col || !f->val) {
        jds_free(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d slots", f->slots);
    }
    if (f->sections > 0)
        jds_fill_sections(f, A);
    else
        jds_fill_diagonals(f, A);

    spmvlab_status st =
        jds_to_device(f, (void **)&f->d_perm, f->perm, (size_t)f->rows * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st =
            jds_to_device(f, (void **)&f->d_ptr, f->ptr, (size_t)f->ptr_len * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = jds_to_device(f, (void **)&f->d_col, f->col, ns * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = jds_to_device(f, &f->d_val, f->val, ns * es, err);
    if (st != SPMVLAB_OK) {
        jds_free(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

/* One kernel launch: diagonals or sections. */
static spmvlab_status jds_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    jds_format *f = fmt;
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e;
    if (f->sections > 0)
        e = jds_launch_sections((int)f->dtype, f->rows, f->section_rows, f->d_perm, f->d_ptr,
                                f->d_col, f->d_val, x, y, s);
    else
        e = jds_launch_diagonals((int)f->dtype, f->rows, f->diagonals, f->d_perm, f->d_ptr,
                                 f->d_col, f->d_val, x, y, s);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "JDS kernel launch failed: %s",
                            cudaGetErrorString(e));
    return SPMVLAB_OK;
}

/* The kernels on the CPU in value type T, one sorted row at a time, in the
 * same order of additions. */
#define JDS_DEFINE_HOST(T, FMA, NAME)                                                              \
    static void NAME(const jds_format *f, const T *x, T *y)                                        \
    {                                                                                              \
        const T *val = f->val;                                                                     \
        for (int32_t r = 0; r < f->rows; r++) {                                                    \
            T sum = 0;                                                                             \
            if (f->sections > 0) {                                                                 \
                int32_t s = r / f->section_rows, first = s * f->section_rows;                      \
                int32_t height =                                                                   \
                    f->rows - first < f->section_rows ? f->rows - first : f->section_rows;         \
                int32_t width = (f->ptr[s + 1] - f->ptr[s]) / height;                              \
                long long k = (long long)f->ptr[s] + (r - first);                                  \
                for (int32_t j = 0; j < width; j++, k += height) {                                 \
                    if (f->col[k] < 0)                                                             \
                        break;                                                                     \
                    sum = FMA(val[k], x[f->col[k]], sum);                                          \
                }                                                                                  \
            } else {                                                                               \
                for (int32_t d = 0; d < f->diagonals; d++) {                                       \
                    if (r >= f->ptr[d + 1] - f->ptr[d])                                            \
                        break;                                                                     \
                    int32_t k = f->ptr[d] + r;                                                     \
                    sum = FMA(val[k], x[f->col[k]], sum);                                          \
                }                                                                                  \
            }                                                                                      \
            y[f->perm[r]] = sum;                                                                   \
        }                                                                                          \
    }

JDS_DEFINE_HOST(double, fma, jds_host_f64)
JDS_DEFINE_HOST(float, fmaf, jds_host_f32)

/* y = A x on the CPU from the format's own arrays. */
static spmvlab_status jds_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    const jds_format *f = fmt;
    if (f->dtype == SPMVLAB_F64)
        jds_host_f64(f, x, y);
    else
        jds_host_f32(f, x, y);
    return SPMVLAB_OK;
}

static size_t jds_footprint(const void *fmt)
{
    return ((const jds_format *)fmt)->bytes;
}

static void jds_destroy(void *fmt)
{
    jds_free(fmt);
}

/* Diagonals, sections and the fill (stored slots per non-zero). */
static void jds_describe(const void *fmt, char *buf, size_t len)
{
    const jds_format *f = fmt;
    snprintf(buf, len, "diagonals=%d sections=%d section_rows=%d slots=%d fill=%.3f", f->diagonals,
             f->sections, f->section_rows, f->slots,
             f->nnz ? (double)f->slots / (double)f->nnz : 0.0);
}

static const spmvlab_plugin jds_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "jds",
    .summary =
        "jagged diagonal storage: rows sorted by length, one thread per row, optional ELL sections",
    .version = "1.0.0",
    .reference = "W. Hwu, D. Kirk, I. El Hajj, Programming Massively Parallel Processors, 4th ed., "
                 "ch. 14 (JDS)",
    .dtypes = SPMVLAB_DTYPES_F64_F32,
    .options = jds_options,
    .check_options = NULL,
    .convert = jds_convert,
    .spmv = jds_spmv,
    .footprint = jds_footprint,
    .destroy = jds_destroy,
    .spmv_host = jds_spmv_host,
    .describe = jds_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void)
{
    return &jds_plugin;
}
