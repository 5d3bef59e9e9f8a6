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
 * COO holds the overflow as (row, col, val) with 32-bit indices, sorted by
 * row then column.
 *
 * Execution: the ELL kernel (G lanes per row, G = 1, 2, 4 or 8) stores the
 * ELL sum into every y row; then a chunked COO kernel of the coo plugin adds
 * the overflow (coo_kernel = blocked, coo_blocked.h: 8 consecutive entries
 * per lane, one warp scan per 256; or segmented, coo_segmented.h: a warp
 * scan per 32): a warp per fixed chunk of entries, plain adds for the rows a
 * chunk owns, atomics only at chunk edges. With K = 0 (pure COO) y is zeroed
 * on the stream instead of the ELL kernel.
 *
 * Width (ell_width = auto): the largest K such that at least
 * max(min_rows, row_fraction * rows) rows have K or more non-zeros (Bell &
 * Garland: 4096 and 1/3), then two guards that send the matrix to COO whole:
 * the ELL part would move more bytes than ell_guard times what COO moves for
 * the same entries (rows*K*(4+s) > ell_guard * ell_entries*(8+s)), or the
 * COO part would hold more than coo_share of the non-zeros (a small ELL part
 * saves 4 bytes on few entries but costs a second kernel and a second pass
 * over y). ell_guard = 0 turns both off. Lanes (ell_lanes = auto): the fewest
 * that give at least two threads per resident thread slot of the device, at
 * most K and at most 8 (f64) or 4 (f32), 2 from 2^20 non-zeros, and 1 where
 * the columns are random (hyb_auto_lanes).
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

#include "../common/row_length.h"
#include "hyb.h"
#include "spmvlab/plugin.h"

/* Resident threads assumed without a device (132 SMs x 2048). */
#define HYB_HOST_THREADS (132LL * 2048)

/* ell_lanes must be a power of two. */
static spmvlab_status hyb_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const hyb_opts *o = spmvlab_opts_fields(opts);
    if (o->ell_lanes != SPMVLAB_AUTO && (o->ell_lanes & (o->ell_lanes - 1))) {
        snprintf(err->msg, sizeof err->msg, "hyb option ell_lanes = %d must be 1, 2, 4 or 8",
                 o->ell_lanes);
        return SPMVLAB_INVALID_OPTION;
    }
    return SPMVLAB_OK;
}

/* The Bell-Garland width: the largest K such that at least
 * max(min_rows, fraction * rows) rows have K or more non-zeros (0 when none
 * qualifies). -1 without memory. */
static int32_t hyb_auto_width(const spmvlab_matrix *A, int32_t longest, double fraction,
                              int min_rows)
{
    int32_t *count = calloc((size_t)longest + 1, sizeof *count);
    if (!count)
        return -1;
    for (int32_t i = 0; i < A->rows; i++)
        count[A->row_ptr[i + 1] - A->row_ptr[i]]++;
    double need = fraction * (double)A->rows;
    need = need > (double)min_rows ? need : (double)min_rows;
    int32_t width = 0;
    long long at_least = 0; /* rows with length >= k */
    for (int32_t k = longest; k >= 1; k--) {
        at_least += count[k];
        if ((double)at_least >= need) {
            width = k;
            break;
        }
    }
    free(count);
    return width;
}

/* Non-zeros that a width K keeps in ELL. */
static long long hyb_ell_entries(const spmvlab_matrix *A, int32_t width)
{
    long long n = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        n += len < width ? len : width;
    }
    return n;
}

/* From COO_AUTO_MIN_NNZ non-zeros at most this many lanes a row: a thread
 * then has slots enough to keep its loads in flight, and wider groups only
 * add shuffles; launch-bound matrices keep the thread-count rule's 4 or 8
 * (README.md, "Choosing K", rule 3). */
#define HYB_LARGE_MAX_LANES 2

/* Lanes per row of the ELL kernel: the fewest (a power of two) that give
 * rows*G >= twice the device's resident threads, at most K, at most the
 * value size in bytes (8 or 4: each lane group reads whole sectors) and
 * HYB_LARGE_MAX_LANES on a large matrix of nnz non-zeros. One lane where the
 * columns are random (coo_auto_random): a lane group's slots then share no
 * sector of x, and one thread a row keeps K independent gathers in flight
 * (README.md, "Choosing K", rule 3). */
static int32_t hyb_auto_lanes(const spmvlab_device *dev, int32_t rows, int32_t width, size_t es,
                              int64_t nnz, int random)
{
    if (random)
        return 1;
    long long target = HYB_HOST_THREADS;
    if (dev->present && dev->sm_count > 0 && dev->max_threads_per_sm > 0)
        target = (long long)dev->sm_count * dev->max_threads_per_sm;
    target *= 2;
    int32_t g = 1, most = es >= 8 ? HYB_MAX_LANES : HYB_MAX_LANES / 2;
    if (nnz >= COO_AUTO_MIN_NNZ && most > HYB_LARGE_MAX_LANES)
        most = HYB_LARGE_MAX_LANES;
    while (g < most && 2 * g <= width && (long long)rows * g < target)
        g *= 2;
    return g;
}

/* Frees every host and device array of f, then f. */
static void hyb_destroy(void *fmt)
{
    hyb_format *f = fmt;
    if (!f)
        return;
    void *dev[] = {f->d_ell_col, f->d_ell_val, f->d_coo_row, f->d_coo_col, f->d_coo_val, f->d_starts};
    void *host[] = {f->ell_col, f->ell_val, f->coo_row, f->coo_col, f->coo_val, f->starts};
    spmvlab_free_all(f->ctx, dev, 6);
    coo_own_free(f->ctx, &f->own);
    for (int i = 0; i < 6; i++)
        free(host[i]);
    free(f);
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

/* Chooses K (option, or the auto rule with its guard) into f->width and
 * f->guarded. Returns OK or NOMEM (histogram). */
static spmvlab_status hyb_choose_width(hyb_format *f, const spmvlab_matrix *A, const hyb_opts *o,
                                       spmvlab_err *err)
{
    const int32_t longest = longest_row(A);
    if (o->ell_width != SPMVLAB_AUTO) {
        f->width = o->ell_width < longest ? o->ell_width : longest;
        return SPMVLAB_OK;
    }
    int32_t width = hyb_auto_width(A, longest, o->row_fraction, o->min_rows);
    if (width < 0)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the row-length histogram");
    const double es = (double)spmvlab_dtype_size(A->dtype);
    const long long kept = hyb_ell_entries(A, width);
    const double ell_bytes = (double)width * A->rows * (4 + es);
    const double coo_bytes = (double)kept * (8 + es);
    if (width > 0 && o->ell_guard > 0 && ell_bytes > o->ell_guard * coo_bytes) {
        f->guarded = 1;
        width = 0;
    } else if (width > 0 && o->ell_guard > 0 &&
               (double)(A->nnz - kept) > o->coo_share * (double)A->nnz) {
        f->guarded = 2; /* a small ELL part does not pay for its kernel and y's second pass */
        width = 0;
    } else if (width > 0 && o->ell_guard > 0 && kept < A->nnz && A->nnz < o->small_nnz) {
        f->guarded = 3; /* launch-bound: two kernels and y's second pass cost more than ELL saves */
        width = 0;
    }
    f->width = width;
    return SPMVLAB_OK;
}

/* An auto-width ELL part of few lane groups with long slot chains (rows x
 * lanes below HYB_THIN_THREADS, more than HYB_THIN_SLOTS slots a lane) goes
 * to COO whole (guarded=4): each thread's dependent gathers then set the
 * time. Rows of 128 to 512 over 7,812 to 29,297 rows (one lane: random
 * columns) ran at 0.18x to 0.80x cuSPARSE where pure COO ran the same rows
 * at 0.87x to 1.37x (measured on the corpus tune part, docs/perf/
 * 2026-11-28-corpus-tune). */
static void hyb_guard_thin_ell(hyb_format *f, int32_t rows, const hyb_opts *o)
{
    if (o->ell_width != SPMVLAB_AUTO || o->ell_guard <= 0 || f->width == 0)
        return;
    if ((long long)rows * f->lanes < HYB_THIN_THREADS && f->width > HYB_THIN_SLOTS * f->lanes) {
        f->guarded = 4;
        f->width = 0;
    }
}

/* Builds the format: width, lanes, split, COO plan, device copies. */
static spmvlab_status hyb_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                  const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    const hyb_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(hyb_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    spmvlab_status st = hyb_choose_width(f, A, o, err);
    if (st != SPMVLAB_OK) {
        hyb_destroy(f);
        return st;
    }
    const size_t es = spmvlab_dtype_size(A->dtype);
    long long slots = (long long)f->width * A->rows;
    if (slots > INT32_MAX) {
        hyb_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_LIMIT, "ELL part of %d x %d slots exceeds 2^31 - 1 slots",
                         A->rows, f->width);
    }
    /* random columns (one O(nnz) pass, only where a rule reads it): the
     * lanes and the COO kernel */
    const int random = (o->ell_lanes == SPMVLAB_AUTO || o->coo_kernel == HYB_COO_AUTO) &&
                       coo_auto_random(A->row_ptr, A->col_idx, A->rows, A->nnz, es);
    f->lanes = o->ell_lanes != SPMVLAB_AUTO ? o->ell_lanes
                                            : hyb_auto_lanes(ctx->device, A->rows, f->width, es, A->nnz, random);
    if (es < 8 && f->lanes > HYB_MAX_LANES / 2)
        f->lanes = HYB_MAX_LANES / 2;
    hyb_guard_thin_ell(f, A->rows, o);
    f->ell_entries = (int32_t)hyb_ell_entries(A, f->width);
    f->coo_entries = A->nnz - f->ell_entries;

    const size_t ns = (size_t)slots, nc = (size_t)f->coo_entries;
    f->ell_col = malloc((ns ? ns : 1) * sizeof *f->ell_col);
    f->ell_val = calloc(ns ? ns : 1, es);
    f->coo_row = malloc((nc ? nc : 1) * sizeof *f->coo_row);
    f->coo_col = malloc((nc ? nc : 1) * sizeof *f->coo_col);
    f->coo_val = malloc((nc ? nc : 1) * es);
    if (!f->ell_col || !f->ell_val || !f->coo_row || !f->coo_col || !f->coo_val) {
        hyb_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM,
                         "out of host memory for %lld ELL slots and %zu COO entries", slots, nc);
    }
    hyb_fill(f, A);
    f->coo_kernel = o->coo_kernel == HYB_COO_AUTO
                        ? (coo_auto_blocked(A->row_ptr, A->rows, A->nnz, random) ? HYB_COO_BLOCKED
                                                                                 : HYB_COO_SEGMENTED)
                        : o->coo_kernel;
    const int32_t tile = f->coo_kernel == HYB_COO_BLOCKED ? COO_BLK_TILE : COO_SEG_WARP;
    const int32_t chunk = o->coo_chunk != SPMVLAB_AUTO
                              ? o->coo_chunk
                              : coo_auto_chunk(f->coo_kernel == HYB_COO_BLOCKED, f->coo_entries);
    f->plan = chunk > 0 ? coo_seg_fixed_plan(f->coo_entries, chunk, tile)
                        : coo_seg_make_plan(ctx->device,
                                            ctx->device->present
                                                ? hyb_coo_occupancy(f->coo_kernel, (int)f->dtype, f->width == 0)
                                                : 0,
                                            f->coo_entries, tile);
    /* the owner write (no memset) and moved edges only where the COO kernel writes y alone */
    const coo_write_opts w = {o->coo_zero, o->coo_edges, o->coo_loads, o->coo_chunk == SPMVLAB_AUTO};
    st = coo_own_settle(ctx, w, f->coo_kernel == HYB_COO_SEGMENTED, f->width == 0, A, f->coo_row,
                        f->coo_entries, &f->plan, &f->owner, &f->starts, err);
    if (st != SPMVLAB_OK) {
        hyb_destroy(f);
        return st;
    }

    const spmvlab_array a[] = {
        {(void **)&f->d_ell_col, f->ell_col, ns * sizeof(int32_t)},
        {&f->d_ell_val, f->ell_val, ns * es},
        {(void **)&f->d_coo_row, f->coo_row, nc * sizeof(int32_t)},
        {(void **)&f->d_coo_col, f->coo_col, nc * sizeof(int32_t)},
        {&f->d_coo_val, f->coo_val, nc * es},
        {(void **)&f->d_starts, f->starts,
         (f->starts ? coo_seg_starts_len(f->plan.warps) : 0) * sizeof(int32_t)},
    };
    st = spmvlab_put_all(ctx, a, 6, err); /* no starts: 0 bytes, nothing placed */
    f->plan.d_starts = f->d_starts;
    if (st == SPMVLAB_OK && f->owner)
        st = coo_own_prepare(ctx, f->plan, f->coo_entries, f->coo_row, es, &f->own, err);
    return spmvlab_converted(st, f, hyb_destroy, out);
}

/* Launches the ELL kernel (stores every y row, or zeroes y when K = 0 and
 * not owner), then the COO kernel (adds; owner: stores every row). */
static spmvlab_status hyb_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    hyb_format *f = fmt;
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e = f->owner ? cudaSuccess
                             : hyb_launch_ell((int)f->dtype, f->rows, f->width, f->lanes,
                                              f->d_ell_col, f->d_ell_val, x, y, s);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "ELL kernel launch failed: %s",
                            cudaGetErrorString(e));
    e = hyb_launch_coo(f->coo_kernel, (int)f->dtype, f->width == 0, f->rows, f->plan, f->coo_entries,
                       f->d_coo_row, f->d_coo_col, f->d_coo_val, x, y, f->owner ? &f->own : NULL, s);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "COO kernel launch failed: %s",
                            cudaGetErrorString(e));
    return SPMVLAB_OK;
}

COO_DEFINE_HOST_F64_F32()

/* The kernels on the CPU in value type T: per row, lane g of G sums slots
 * g, g+G, ... with fma until padding, the lanes meet in the kernel's shuffle
 * tree; then the COO part by the segmented kernel's order. */
#define HYB_DEFINE_HOST(T, FMA, SUFFIX)                                                     \
    static void hyb_host_##SUFFIX(const hyb_format *f, const T *x, T *y)                    \
    {                                                                                       \
        const T *ev = f->ell_val;                                                           \
        const size_t rows = (size_t)f->rows;                                                \
        for (int32_t i = 0; i < f->rows; i++) {                                             \
            T lane[HYB_MAX_LANES] = {0};                                                    \
            for (int32_t g = 0; g < f->lanes; g++)                                          \
                for (int32_t k = g; k < f->width; k += f->lanes) {                          \
                    size_t slot = (size_t)k * rows + (size_t)i;                             \
                    if (f->ell_col[slot] < 0)                                               \
                        break;                                                              \
                    lane[g] = FMA(ev[slot], x[f->ell_col[slot]], lane[g]);                  \
                }                                                                           \
            for (int32_t s = f->lanes / 2; s > 0; s /= 2)                                   \
                for (int32_t g = 0; g < s; g++)                                             \
                    lane[g] += lane[g + s];                                                 \
            y[i] = lane[0];                                                                 \
        }                                                                                   \
        T *carries = f->owner ? (T *)f->own.vals : NULL; /* owner: coo_owner.h's order */  \
        if (f->coo_kernel == HYB_COO_BLOCKED)                                               \
            coo_blk_host_##SUFFIX(f->plan, COO_BLK_ITEMS, f->coo_entries, f->coo_row,       \
                                  f->coo_col,                                               \
                                  f->coo_val, x, y, carries);                               \
        else                                                                                \
            coo_seg_host_##SUFFIX(f->plan, f->coo_entries, f->coo_row, f->coo_col,          \
                                  f->coo_val, x, y, carries);                               \
        coo_own_add_##SUFFIX(&f->own, f->plan.warps, y);                                    \
    }
HYB_DEFINE_HOST(double, fma, f64)
HYB_DEFINE_HOST(float, fmaf, f32)
SPMVLAB_SPMV_HOST_F64_F32(hyb, hyb_format, dtype)

/* K, lanes, ELL fill (slots per stored ELL entry), guard, COO entries and plan. */
static void hyb_describe(const void *fmt, char *buf, size_t len)
{
    const hyb_format *f = fmt;
    long long slots = (long long)f->width * f->rows;
    long long nnz = (long long)f->ell_entries + f->coo_entries;
    snprintf(buf, len,
             "ell_width=%d ell_lanes=%d ell_slots=%lld ell_entries=%d ell_fill=%.3f guarded=%d "
             "coo_entries=%d coo_share=%.3f coo_kernel=%s coo_warps=%d coo_chunk=%d coo_zero=%s "
             "coo_loads=%s coo_edges=%s",
             f->width, f->lanes, slots, f->ell_entries,
             f->ell_entries ? (double)slots / (double)f->ell_entries : 0.0, f->guarded,
             f->coo_entries, nnz ? (double)f->coo_entries / (double)nnz : 0.0,
             f->coo_kernel == HYB_COO_BLOCKED ? "blocked" : "segmented", f->plan.warps,
             f->plan.interval, f->width > 0 ? "ell" : f->owner ? "owner" : "memset",
             f->plan.stream ? "stream" : "cached", f->starts ? "rows" : "even");
}

SPMVLAB_PLUGIN_DEFINE(hyb, "1.1.0", SPMVLAB_DTYPES_F64_F32,
                      "hybrid ELL + COO: ELL of width K for the regular part, segmented COO for the overflow",
                      "N. Bell, M. Garland, Implementing sparse matrix-vector multiplication on "
                      "throughput-oriented processors, SC 2009",
                      .check_options = hyb_check_options);
