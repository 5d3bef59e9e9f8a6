/*
 * dia — the diagonal format (Y. Saad, "Iterative Methods for Sparse Linear
 * Systems", 2nd ed., SIAM 2003, sec. 3.4; the row-per-thread kernel of
 * N. Bell, M. Garland, "Implementing sparse matrix-vector multiplication on
 * throughput-oriented processors", SC'09).
 *
 * Format: every diagonal (offset = column - row) holding a non-zero is
 * stored from the row of its first non-zero to the row of its last, with
 * its own start in one value array: A(i, i + offset) for begin <= i < end
 * sits at val[start + i - begin]. There are no column indices, and nothing
 * is padded where a diagonal leaves the matrix or before and after its
 * first and last entry; zeros are stored only inside a diagonal's range
 * (the fill). Metadata: one {offset, begin, end, start} of 4 int32 per
 * diagonal, ascending offsets.
 * Device bytes: 16 ndiag + e n + s table, s = 8 (f64) or 4 (f32), e = s
 * for native values (n = stored), 1/2 (tables of at most 16 values;
 * option code_bits), 1 or 2 for codes into the value table (values =
 * indexed; table entries; n = slots: the coded layout keeps whole chunks
 * of 32 R rows, R the rows a thread, lane-interleaved, dia.h), 0 for a
 * pattern; on a full band e bytes per non-zero, no index at all.
 *
 * Options: max_fill (1..1e6, default 1.5) and max_diags (1..1e6, default
 * 256): convert refuses with SPMVLAB_LIMIT and the numbers, before any large
 * allocation, when stored > max_fill * nnz or the matrix has more
 * diagonals (each costs every thread of the kernel a test), and
 * min_rows_per_diag (0..1e6, default 16; 0: off) when it has fewer rows a
 * diagonal. x_reuse
 * (auto|shared|l1|shuffle): stage each thread block's x window in shared
 * memory, read x through L1, or (coded kernel only; the native one reads
 * L1) load x once per run of consecutive offsets and pass it between a
 * warp's lanes; auto takes shared when the band's span (max_off - min_off)
 * is at most the block's 256 rows, so the window is mostly used, else l1
 * (dia_choose_x_path); shuffle only when asked.
 * values (native|indexed|pattern|auto, default native): lossless storage
 * (plugins/common/value_store.h); the fill is code 0, +0.0; pattern needs
 * a band without fill; auto takes codes only where they paid
 * (dia_codes_pay); code_bits (auto|4|8): 4-bit codes, two a byte, for
 * tables of at most 16 values, or whole bytes; auto by dia_code4_pays. rows_per_thread (auto|2|4|8)
 * and batch (auto|1|2|4|8): the coded kernel's shape (dia_choose_rows,
 * dia_choose_batch).
 * Kernel: one thread per row over the diagonals (dia.cu); with codes, R
 * rows a thread and their codes as one word; spmv_host runs the same loop
 * with the same fused multiply-adds.
 * Limits: dtypes f64 and f32; stored entries up to 2^31 - 1.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dia.h"

/* Frees every host and device array (NULL and half-built formats allowed). */
static void dia_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(dia_fmt, f, fmt);
    spmvlab_free_format(f->ctx, f, (void *const[]){f->d_diags, f->d_val, f->vs.d_table}, 3,
                        (void *const[]){f->diags, f->val}, 2);
}

/* Finds the diagonals: first[o] and last[o] (offset o + rows - 1) receive
 * the rows of each diagonal's first and last entry (-1: none). Sets ndiag,
 * stored, the offsets' range and their runs of consecutive offsets. */
static void dia_scan(dia_fmt *f, const spmvlab_matrix *A, int32_t *first, int32_t *last, size_t noff)
{
    for (size_t o = 0; o < noff; o++)
        first[o] = last[o] = -1;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            size_t o = (size_t)((int64_t)A->col_idx[k] - i + A->rows - 1);
            if (first[o] < 0)
                first[o] = i;
            last[o] = i;
        }
    for (size_t o = 0; o < noff; o++)
        if (first[o] >= 0) {
            int32_t offset = (int32_t)((int64_t)o - (A->rows - 1));
            if (f->ndiag == 0 || offset != f->max_off + 1) /* max_off: the previous diagonal's offset */
                f->runs++;
            if (f->ndiag++ == 0)
                f->min_off = offset;
            f->max_off = offset;
            f->stored += (int64_t)last[o] - first[o] + 1;
        }
}

/* Places the diagonals: diags from first[] and last[], each diagonal's
 * start in val (whole chunks in the coded layout), slots the entries of
 * val; first[] becomes the diagonal number of each offset. */
static void dia_place(dia_fmt *f, const spmvlab_matrix *A, int32_t *first, const int32_t *last, size_t noff)
{
    int32_t d = 0;
    int64_t at = 0;
    for (size_t o = 0; o < noff; o++) {
        if (first[o] < 0)
            continue;
        dia_diag *g = &f->diags[d];
        g->offset = (int32_t)((int64_t)o - (A->rows - 1));
        g->begin = first[o];
        g->end = last[o] + 1;
        if (f->coded) { /* chunks q0 .. q1 - 1, chunk 0 at `start` */
            const int32_t chunk = dia_chunk(f);
            int64_t q0 = g->begin / chunk, q1 = (g->end - 1) / chunk + 1;
            g->start = (int32_t)(at - q0 * chunk);
            at += (q1 - q0) * chunk;
        } else {
            g->start = (int32_t)at;
            at += g->end - g->begin;
        }
        first[o] = d++;
    }
    f->slots = at;
}

/* Copies A's stored entries (values or codes) into val at their
 * diagonals' positions; entries outside the real ones stay zero. */
static void dia_fill(dia_fmt *f, const spmvlab_matrix *A, const int32_t *first)
{
    size_t vs = f->vs.elem; /* values or codes: the same copy */
    const char *src = f->vs.src;
    char *val = f->val;
    if (!vs)
        return;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            const dia_diag *g = &f->diags[first[(size_t)((int64_t)A->col_idx[k] - i + A->rows - 1)]];
            memcpy(val + (size_t)dia_pos(f, g, i) * vs, src + (size_t)k * vs, vs);
        }
}

/* Applies the guards to the scanned counts. Returns OK or LIMIT with the
 * numbers. */
static spmvlab_status dia_guard(const dia_fmt *f, const dia_opts *o, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    double fill = f->nnz > 0 ? (double)f->stored / f->nnz : 0.0;
    if (f->ndiag > o->max_diags)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "dia needs %d diagonals, more than max_diags %d (%lld stored entries for %d non-zeros, "
                         "fill %.3f)", f->ndiag, o->max_diags, (long long)f->stored, f->nnz, fill);
    if ((double)f->stored > o->max_fill * (double)f->nnz)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "dia's %d diagonals store %lld entries for %d non-zeros, fill %.3f exceeds max_fill %.2f",
                         f->ndiag, (long long)f->stored, f->nnz, fill, o->max_fill);
    if ((int64_t)f->rows < (int64_t)o->min_rows_per_diag * f->ndiag)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "dia's %d diagonals for %d rows: a thread per row walks every diagonal, and with fewer "
                         "than min_rows_per_diag %d rows a diagonal that walk, not the bytes, sets the time",
                         f->ndiag, f->rows, o->min_rows_per_diag);
    if (f->stored > INT32_MAX)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT, "dia's %lld stored entries exceed 32-bit positions",
                         (long long)f->stored);
    return SPMVLAB_OK;
}

/* The shared memory of the x window: a thread block's rows plus the
 * offsets' span, and beside it the coded kernel's table of 1-byte codes. */
static size_t dia_window(const dia_fmt *f)
{
    size_t rows = f->coded ? (size_t)DIA_BLOCK * f->coded_rows : DIA_BLOCK;
    size_t table = f->vs.kind == SPMVLAB_STORE_CODES8 || f->vs.kind == SPMVLAB_STORE_CODES4 ? DIA_TABLE8_MAX : 0;
    return (rows + table + (size_t)(f->max_off - f->min_off)) * spmvlab_dtype_size(f->dtype);
}

/* Chooses how x is read (option x_reuse), then the coded kernel's rows a
 * thread and batch, which size its window. Returns OK, or LIMIT when
 * x_reuse = shared asks for a window over DIA_SMEM_MAX. */
static spmvlab_status dia_choose_reuse(dia_fmt *f, const dia_opts *o, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    f->x_path = dia_choose_x_path(o->x_reuse, f->coded, f->max_off - f->min_off);
    f->x_auto = o->x_reuse == DIA_REUSE_AUTO;
    f->coded_rows = dia_choose_rows(o->rows_per_thread, f->x_path, f->ndiag, f->rows);
    f->batch = dia_choose_batch(o->batch, f->ndiag, f->x_path, f->coded_rows);
    size_t window = dia_window(f);
    if (o->x_reuse == DIA_REUSE_SHARED && window > DIA_SMEM_MAX)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "dia's x window of %zu bytes (offsets %d to %d) exceeds the %d bytes of shared memory "
                         "x_reuse = shared may use", window, f->min_off, f->max_off, DIA_SMEM_MAX);
    return SPMVLAB_OK;
}

/* auto: the shared window when the offsets span at most a block's rows (it
 * is then mostly used), else L1. shuffle is taken only when asked: on an
 * H200 it ran the few-valued stencils and bands at 0.57-0.85 of the L1
 * path's speed (README.md). It needs the coded kernel: native values and a
 * pattern (the native kernel) read x through L1. */
int dia_choose_x_path(int x_reuse, int coded, int32_t span)
{
    if (x_reuse == DIA_REUSE_SHUFFLE)
        return coded ? DIA_REUSE_SHUFFLE : DIA_REUSE_L1;
    if (x_reuse != DIA_REUSE_AUTO)
        return x_reuse;
    return span <= DIA_BLOCK ? DIA_REUSE_SHARED : DIA_REUSE_L1;
}

int dia_codes_pay(spmvlab_dtype dtype, int32_t rows, int32_t nnz)
{
    return nnz >= DIA_CODES_MIN_NNZ && (dtype != SPMVLAB_F32 || rows >= DIA_CODES_F32_MIN_ROWS);
}

int dia_code4_pays(int x_path, int rows)
{
    return x_path != DIA_REUSE_SHARED || rows == DIA_ROWS_8;
}

int dia_choose_rows(int rows_per_thread, int x_path, int32_t ndiag, int32_t rows)
{
    if (x_path == DIA_REUSE_SHUFFLE)
        return DIA_ROWS_4;
    if (rows_per_thread != DIA_ROWS_AUTO)
        return rows_per_thread;
    if (rows < DIA_ROWS8_MIN_ROWS || (x_path == DIA_REUSE_SHARED && ndiag > DIA_BATCH_MANY))
        return DIA_ROWS_4;
    return DIA_ROWS_8;
}

int dia_choose_batch(int batch, int32_t ndiag, int x_path, int rows)
{
    if (batch != DIA_BATCH_AUTO)
        return batch;
    if (x_path == DIA_REUSE_SHUFFLE)
        return DIA_BATCH_2;
    if (ndiag > DIA_BATCH_MANY)
        return x_path == DIA_REUSE_SHARED || rows == DIA_ROWS_8 ? DIA_BATCH_4 : DIA_BATCH_2;
    if (x_path == DIA_REUSE_SHARED)
        return DIA_BATCH_2;
    return rows == DIA_ROWS_8 ? DIA_BATCH_1 : rows == DIA_ROWS_2 ? DIA_BATCH_4 : DIA_BATCH_2; /* 8 x loads a batch */
}

/* Builds DIA from the CSR input. Returns OK; UNSUPPORTED for f16; LIMIT
 * from the guards (checked before the value array is allocated); NOMEM or
 * the core's status when an allocation fails. On failure nothing is kept. */
static spmvlab_status dia_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    const dia_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(dia_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    size_t noff = A->nnz > 0 ? (size_t)A->rows + (size_t)A->cols - 1 : 0;
    int32_t *first = malloc(noff * sizeof *first + 1), *last = malloc(noff * sizeof *last + 1);
    spmvlab_status st = SPMVLAB_OK;
    if (!first || !last)
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %zu dia offsets", noff);
    if (st == SPMVLAB_OK) {
        dia_scan(f, A, first, last, noff);
        st = dia_guard(f, o, err);
    }
    /* auto takes codes only where they paid (dia_codes_pay, README.md) */
    int values = o->values == SPMVLAB_VALUES_AUTO && !dia_codes_pay(A->dtype, A->rows, A->nnz)
                     ? SPMVLAB_VALUES_AUTO_NO_CODES
                     : o->values;
    if (st == SPMVLAB_OK) /* fill entries are code 0, +0.0; pattern only without fill */
        st = spmvlab_value_store_choose(ctx, A, values, f->stored == f->nnz, f->stored - f->nnz, &f->vs, err);
    size_t vs = f->vs.elem;
    f->coded = spmvlab_value_store_coded(&f->vs);
    if (st == SPMVLAB_OK)
        st = dia_choose_reuse(f, o, err);
    if (st == SPMVLAB_OK) /* 4-bit codes take the same places in the layout, two a byte */
        st = spmvlab_value_store_code_bits(ctx, &f->vs, o->code_bits, dia_code4_pays(f->x_path, f->coded_rows), err);
    if (st == SPMVLAB_OK) {
        /* one extra byte each so that NULL means failure even for 0 bytes */
        f->diags = malloc((size_t)f->ndiag * sizeof *f->diags + 1);
        if (!f->diags)
            st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d dia diagonals", f->ndiag);
    }
    if (st == SPMVLAB_OK) {
        dia_place(f, A, first, last, noff);
        if (f->slots > INT32_MAX)
            st = ctx->fail(ctx, err, SPMVLAB_LIMIT, "dia's %lld coded slots exceed 32-bit positions",
                           (long long)f->slots);
    }
    if (st == SPMVLAB_OK) {
        f->val = calloc((size_t)f->slots * vs + 1, 1); /* zeros inside the band: all-zero bits, +0.0 or code 0 */
        if (!f->val)
            st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %lld dia entries", (long long)f->slots);
    }
    if (st == SPMVLAB_OK) {
        dia_fill(f, A, first);
        if (f->vs.kind == SPMVLAB_STORE_CODES4) /* placed a byte each, then packed: slots is a multiple of 64 */
            spmvlab_value_store_pack4(f->val, (size_t)f->slots);
        const spmvlab_array arrays[] = {
            {(void **)&f->d_diags, f->diags, (size_t)f->ndiag * sizeof *f->diags},
            {&f->d_val, f->val, spmvlab_value_store_bytes(&f->vs, (size_t)f->slots)},
        };
        st = spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err);
    }
    size_t unused = 0;
    if (st == SPMVLAB_OK)
        st = spmvlab_value_store_upload(ctx, &f->vs, &unused, err);
    free(first);
    free(last);
    return spmvlab_converted(st, f, dia_destroy, out);
}

/* y = A x on the device in one launch. Returns CUDA_ERROR with the
 * runtime's text when the launch failed. */
SPMVLAB_SPMV_BY_LAUNCHER(dia, dia_fmt, f)

/* The kernel's loop on the CPU: per row, the diagonals in ascending offset
 * that cover it, one fused multiply-add each. */
#define DIA_HOST(T, FMA, SUFFIX)                                                                      \
    static void dia_host_##SUFFIX(const dia_fmt *f, const T *x, T *y)                                 \
    {                                                                                                 \
        for (int32_t i = 0; i < f->rows; i++) {                                                       \
            T sum = 0;                                                                                \
            for (int32_t d = 0; d < f->ndiag; d++) {                                                  \
                const dia_diag *g = &f->diags[d];                                                     \
                if (i >= g->begin && i < g->end)                                                      \
                    sum = FMA(SPMVLAB_VALUE_HOST(T, &f->vs, f->val, (size_t)dia_pos(f, g, i)),                     \
                              x[(int64_t)i + g->offset], sum);                                                         \
            }                                                                                         \
            y[i] = sum;                                                                               \
        }                                                                                             \
    }
SPMVLAB_SPMV_HOST_FMA_F64_F32(dia, dia_fmt, DIA_HOST)

/* Facts for reports: diagonals, their offsets' range, stored entries, fill,
 * how x is read (the path taken, "(auto)" when auto chose it) and the runs
 * of consecutive offsets. */
static void dia_describe(const void *fmt, char *buf, size_t len)
{
    const dia_fmt *f = fmt;
    const char *path = f->x_path == DIA_REUSE_SHARED ? "shared" : f->x_path == DIA_REUSE_SHUFFLE ? "shuffle" : "l1";
    int n = snprintf(buf, len,
                     "diagonals=%d offsets=%d..%d stored=%lld fill=%.3f x_reuse=%s%s runs=%d values=%s table=%d",
                     f->ndiag, f->min_off, f->max_off, (long long)f->stored,
                     f->nnz > 0 ? (double)f->stored / f->nnz : 0.0, path, f->x_auto ? "(auto)" : "", f->runs,
                     spmvlab_value_store_name(&f->vs), f->vs.count);
    if (f->coded && n > 0 && (size_t)n < len) /* the coded layout's whole chunks, the kernel's batch and rows */
        snprintf(buf + n, len - (size_t)n, " slots=%lld batch=%d rows_per_thread=%d", (long long)f->slots, f->batch,
                 f->coded_rows);
}

SPMVLAB_PLUGIN_DEFINE(dia, "1.1.0", SPMVLAB_DTYPES_F64_F32,
                      "diagonals with their own start and length, fill guard, x window in shared memory",
                      "Y. Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., SIAM 2003, sec. 3.4; "
                      "N. Bell, M. Garland, SC'09 (the DIA kernel)");
