/*
 * coo — coordinate format (Hwu, Kirk, El Hajj, "Programming Massively
 * Parallel Processors", 4th ed., ch. 14, the COO format and its SpMV kernel).
 *
 * Format: three arrays of nnz entries, row_idx (32-bit), col_idx (32-bit)
 * and val, in the order of the CSR input (sorted by row, then column). No
 * padding; an empty row costs nothing. Device bytes: nnz·(8 + sizeof(value)).
 *
 * Execution: y is zeroed on the stream (cudaMemsetAsync; or, zero = owner,
 * blocked and segmented store every row once and a carry pass follows,
 * coo_owner.h), then one kernel:
 *   blocked    "thread-sequential then warp" (coo_blocked.h): the
 *              same chunk per warp, but each lane reduces 8 consecutive
 *              entries (16-byte loads) in order, then one warp scan per
 *              256 entries joins the runs that cross lanes;
 *   segmented  the chunked warp segmented reduction of
 *              coo_segmented.h: each warp owns a fixed chunk of non-zeros,
 *              reduces runs of equal rows with a warp scan, stores the rows
 *              it owns alone and uses atomics only for the runs shared with
 *              the neighbouring chunks (Bell & Garland's COO kernel, with
 *              the chunk per warp of Merrill & Garland's fixed-share idea);
 *   atomic     the textbook kernel: one atomicAdd per non-zero.
 * spmv_host runs the same algorithm on the CPU from the format's arrays.
 *
 * Options: kernel = auto | blocked | segmented | atomic (auto, the default:
 * blocked or segmented by size and row lengths, coo_rule.h); items = 8 | 4 |
 * auto (blocked: entries per lane and scan); chunk = N | auto (entries a
 * warp); zero = memset | owner | auto (blocked and segmented: y zeroed
 * first, or every row stored once by the kernel and the rows continued
 * across chunks added by a carry pass, coo_owner.h); loads = cached |
 * stream | auto; edges = rows | even | auto (segmented: where chunks begin).
 * The full rules and their measurements are in README.md.
 * Limits: dtypes f64 and f32 (f64 atomicAdd needs sm_60 or newer). The order
 * in which the pieces of a row shared between chunks are added depends on
 * atomic timing: results are reproducible within the error bound only.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coo.h"
#include "coo_blocked.h"
#include "coo_rule.h"
#include "coo_segmented.h"
#include "spmvlab/plugin.h"

static const char *const coo_kernel_names[] = {"blocked", "segmented", "atomic"};

/* items must be 4 or 8. */
static spmvlab_status coo_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const coo_opts *o = spmvlab_opts_fields(opts);
    if (o->items != SPMVLAB_AUTO && o->items != 4 && o->items != 8)
        return spmvlab_bad_option(err, "coo option items = %d must be 4 or 8", o->items);
    return SPMVLAB_OK;
}

/* One COO matrix: host arrays for spmv_host, device arrays for spmv. */
typedef struct coo_fmt {
    spmvlab_ctx *ctx;       /* services of the instance; frees device memory */
    int32_t rows, cols;     /* shape of A (values of y, of x) */
    int32_t nnz;            /* entries in each array */
    spmvlab_dtype dtype;    /* type of val, x and y */
    int kernel;             /* COO_KERNEL_* */
    int items;              /* blocked: entries per lane and tile, 4 or 8 */
    coo_seg_plan plan;      /* chunk per warp and warps (the atomic kernel's grid too) */
    int owner;              /* 1: zero = owner (blocked, segmented with entries) */
    coo_own own;            /* owner: the carry slots */
    int32_t *row_idx;       /* host, nnz row indices, non-decreasing */
    int32_t *col_idx;       /* host, nnz column indices */
    void *val;              /* host, nnz values of dtype */
    int32_t *starts;        /* host, the chunk edges at row starts (plan.starts), or NULL */
    int32_t *d_starts;      /* device copy of starts */
    int32_t *d_row_idx;     /* device copy of row_idx (NULL when nnz == 0) */
    int32_t *d_col_idx;     /* device copy of col_idx */
    void *d_val;            /* device copy of val */
} coo_fmt;

/* Frees every host and device array of f (NULL allowed). */
static void coo_destroy(void *fmt)
{
    coo_fmt *f = fmt;
    if (!f)
        return;
    void *dev[] = {f->d_row_idx, f->d_col_idx, f->d_val, f->d_starts};
    spmvlab_free_all(f->ctx, dev, 4);
    coo_own_free(f->ctx, &f->own);
    free(f->starts);
    free(f->row_idx);
    free(f->col_idx);
    free(f->val);
    free(f);
}

/* Builds COO from the CSR input: row indices expanded from row_ptr, column
 * indices and values copied, the chunk plan made for the device. Returns OK,
 * UNSUPPORTED (dtype) or the allocation's status; on failure keeps nothing. */
static spmvlab_status coo_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                  const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    const coo_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(coo_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    const size_t vs = spmvlab_dtype_size(A->dtype);
    const int random = (o->kernel == COO_KERNEL_AUTO || o->items == SPMVLAB_AUTO) &&
                       coo_auto_random(A->row_ptr, A->col_idx, A->rows, A->nnz, vs);
    f->kernel = o->kernel == COO_KERNEL_AUTO
                    ? (coo_auto_blocked(A->row_ptr, A->rows, A->nnz, random) ? COO_KERNEL_BLOCKED
                                                                             : COO_KERNEL_SEGMENTED)
                    : o->kernel;
    f->items = o->items == SPMVLAB_AUTO ? coo_auto_items(A->rows, A->nnz, random) : o->items;
    /* Fixed chunks, or one chunk per resident warp (the occupancy query only then). */
    const int32_t tile = f->kernel == COO_KERNEL_BLOCKED ? COO_BLK_TILE : COO_SEG_WARP;
    const int32_t chunk = o->chunk != SPMVLAB_AUTO ? o->chunk
                          : f->kernel == COO_KERNEL_ATOMIC ? 0
                                                           : coo_auto_chunk(f->kernel == COO_KERNEL_BLOCKED, A->nnz);
    f->plan = chunk > 0 ? coo_seg_fixed_plan(A->nnz, chunk, tile)
                        : coo_seg_make_plan(ctx->device,
                                            ctx->device->present
                                                ? coo_occupancy(f->kernel, A->dtype == SPMVLAB_F64)
                                                : 0,
                                            A->nnz, tile);

    size_t n = (size_t)A->nnz;
    /* malloc(0) may return NULL; ask for one byte so NULL always means failure */
    f->row_idx = malloc(n * sizeof(int32_t) + 1);
    f->col_idx = malloc(n * sizeof(int32_t) + 1);
    f->val = malloc(n * vs + 1);
    if (!f->row_idx || !f->col_idx || !f->val) {
        coo_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d coo entries",
                         A->nnz);
    }
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            f->row_idx[k] = i;
    memcpy(f->col_idx, A->col_idx, n * sizeof(int32_t));
    memcpy(f->val, A->val, n * vs);

    /* Loads, the owner write and edges at row starts (segmented). */
    const coo_write_opts w = {o->zero, o->edges, o->loads, o->chunk == SPMVLAB_AUTO};
    spmvlab_status st = coo_own_settle(ctx, w, f->kernel == COO_KERNEL_SEGMENTED,
                                       f->kernel != COO_KERNEL_ATOMIC, A, f->row_idx, f->nnz,
                                       &f->plan, &f->owner, &f->starts, err);
    if (st != SPMVLAB_OK) {
        coo_destroy(f);
        return st;
    }
    const size_t ns = f->starts ? coo_seg_starts_len(f->plan.warps) : 0;
    const spmvlab_array a[] = {
        {(void **)&f->d_row_idx, f->row_idx, n * sizeof(int32_t)},
        {(void **)&f->d_col_idx, f->col_idx, n * sizeof(int32_t)},
        {&f->d_val, f->val, n * vs},
        {(void **)&f->d_starts, f->starts, ns * sizeof(int32_t)},
    };
    st = spmvlab_put_all(ctx, a, 4, err); /* no starts: 0 bytes, nothing placed */
    f->plan.d_starts = f->d_starts;
    if (st == SPMVLAB_OK && f->owner)
        st = coo_own_prepare(ctx, f->plan, f->nnz, f->row_idx, vs, &f->own, err);
    return spmvlab_converted(st, f, coo_destroy, out);
}

/* y = A x on the device: zero y on the stream, then the chosen kernel.
 * Returns CUDA_ERROR with the runtime's text when a call failed. */
static spmvlab_status coo_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    coo_fmt *f = fmt;
    cudaError_t e = coo_launch(f->kernel, f->items, f->dtype == SPMVLAB_F64,
                               f->rows, f->nnz, f->plan, f->d_row_idx, f->d_col_idx, f->d_val,
                               x, y, f->owner ? &f->own : NULL, (cudaStream_t)stream);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "coo %s kernel failed: %s",
                            coo_kernel_names[f->kernel], cudaGetErrorString(e));
    return SPMVLAB_OK;
}

COO_DEFINE_HOST_F64_F32()

/* y = A x on the CPU from the format's own arrays, by the selected kernel's
 * algorithm: y zeroed, then one add per non-zero or the chunks (owner: the
 * carries set aside, then added as the carry pass does; coo_owner.h). */
#define COO_DEFINE_HOST(T, SUFFIX)                                                         \
    static void coo_host_##SUFFIX(const coo_fmt *f, const T *x, T *y)                      \
    {                                                                                      \
        const T *v = f->val;                                                               \
        T *carries = f->owner ? (T *)f->own.vals : NULL; /* NULL also without carries */   \
        memset(y, 0, (size_t)f->rows * sizeof(T));                                         \
        if (f->kernel == COO_KERNEL_BLOCKED) {                                             \
            coo_blk_host_##SUFFIX(f->plan, f->items, f->nnz, f->row_idx, f->col_idx, v, x, \
                                  y, carries);                                             \
            coo_own_add_##SUFFIX(&f->own, f->plan.warps, y);                               \
            return;                                                                        \
        }                                                                                  \
        if (f->kernel == COO_KERNEL_SEGMENTED) {                                           \
            coo_seg_host_##SUFFIX(f->plan, f->nnz, f->row_idx, f->col_idx, v, x, y,        \
                                  carries);                                                \
            coo_own_add_##SUFFIX(&f->own, f->plan.warps, y);                               \
            return;                                                                        \
        }                                                                                  \
        for (int32_t k = 0; k < f->nnz; k++)                                               \
            y[f->row_idx[k]] += v[k] * x[f->col_idx[k]];                                   \
    }
COO_DEFINE_HOST(double, f64)
COO_DEFINE_HOST(float, f32)
SPMVLAB_SPMV_HOST_F64_F32(coo, coo_fmt, dtype)

/* Facts for reports: the kernel and its chunk plan. */
static void coo_describe(const void *fmt, char *buf, size_t len)
{
    const coo_fmt *f = fmt;
    snprintf(buf, len,
             "kernel=%s items=%d warps=%d chunk=%d block=%d zero=%s carries=%d loads=%s edges=%s",
             coo_kernel_names[f->kernel], f->kernel == COO_KERNEL_BLOCKED ? f->items : 0,
             f->plan.warps, f->plan.interval, COO_SEG_BLOCK, f->owner ? "owner" : "memset",
             f->own.carries, f->plan.stream ? "stream" : "cached", f->starts ? "rows" : "even");
}

SPMVLAB_PLUGIN_DEFINE(coo, "1.1.0", SPMVLAB_DTYPES_F64_F32,
                      "coordinate format: (row, col, val) per non-zero, warp-chunk segmented reduction",
                      "W. Hwu, D. Kirk, I. El Hajj, Programming Massively Parallel Processors, "
                      "4th ed., Morgan Kaufmann 2022, ch. 14 (COO); N. Bell, M. Garland, SC'09 "
                      "(segmented COO kernel)",
                      .check_options = coo_check_options);
