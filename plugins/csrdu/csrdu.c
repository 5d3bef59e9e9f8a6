/*
 * csrdu — CSR with delta-compressed column indices, laid out for warps:
 * every load coalesces and every column decodes alone, in registers,
 * without a prefix scan (after CSR-DU: Kourtis, Goumas and Koziris,
 * "Optimizing sparse matrix-vector multiplication using index and value
 * compression", CF'08; Willcock and Lumsdaine, "Accelerating sparse matrix
 * computations via data compression", ICS'06).
 *
 * Layout: row_ptr[rows + 1] and val[nnz] as in CSR. The column indices,
 * in CSR order, form chunks of 32 consecutive entries (across row ends):
 * base[chunk] is the chunk's smallest column and off[k] = col[k] - base, in
 * delta_bits (8 or 16) bits. A chunk whose span (largest - smallest column)
 * does not fit is escaped: base = ~e (e-th escaped chunk, negative), off
 * holds each column's low delta_bits and hi[32 e + k mod 32] the rest, 8
 * bits when every escaped column is below 2^(delta_bits + 8), else 16.
 * Work, kernel = stream: block tiles of whole rows (at most 1024 entries,
 * 256 rows; fewer on a small matrix: choose_stream_shape), every thread's 8 entries and the tile's row bounds loaded at
 * once, products staged in shared memory, lanes a row by the tile's rows;
 * rows longer than `long` are row pieces (one warp each); auto: 256
 * (stream_long_len).
 * Work, kernel = vector: `lanes` lanes a row, each lane
 * decoding its own columns; a lane group owns several rows and loads
 * entries of all of them before multiplying; a shuffle tree a row. Rows
 * longer than `long` are row pieces (one warp each).
 * Work, kernel = tiles: row tiles pack whole rows of at most `tile`
 * entries; the warp loads all entries at once (val, off, base, x), stages
 * products in shared memory and reduces each row with `lanes` lanes; a row
 * longer than the tile is a row piece.
 * kernel = auto (default): vector for rows of 128 and more (90th
 * percentile), else stream.
 * All: a row piece longer than `piece` is split into equal pieces whose
 * partial sums the warp finishing the row's last piece adds (stream,
 * vector; a counter a split row) or a combine kernel (tiles).
 * Device bytes: 4(rows + 1) + (s + d/8)·nnz + 4·ceil(nnz/32)
 *   + 32·h·escaped chunks + 16·tasks + 20·split rows + s'·pieces of split
 *   rows + s'·table (s: stored value bytes, or 1 or 2 for codes, 0 for a
 *   pattern; d: delta_bits, h: 1 or 2, s': run dtype).
 * Options: kernel, delta_bits, values (native|f32: f32 storage for an f64
 * run, declared to the core; indexed|pattern|auto: lossless codes into the
 * core's value table, CSR-VI's value indexing, or one value;
 * plugins/common/value_store.h), tile, lanes, batch, long, steps,
 * tile_rows, piece.
 * Limits: f64 and f32; delta_bits 8 refuses escaped columns >= 2^24;
 * values = f32 refuses values that overflow f32 or fall below its smallest
 * normal number (they would lose their precision).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

#include "csrdu_format.h"

static spmvlab_status csrdu_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const csrdu_opts *o = spmvlab_opts_fields(opts);
    if (!spmvlab_pow2_or_auto(o->lanes))
        return spmvlab_bad_option(err, "csrdu option lanes = %d must be a power of two from 1 to 32", o->lanes);
    if (o->tile_rows != SPMVLAB_AUTO && (o->tile_rows & (o->tile_rows - 1)) != 0)
        return spmvlab_bad_option(err, "csrdu option tile_rows = %d must be a power of two from 8 to 256", o->tile_rows);
    if (o->batch == 3)
        return spmvlab_bad_option(err, "csrdu option batch = 3 must be 1, 2 or 4");
    int vector = o->kernel == CSRDU_KERNEL_VECTOR || o->kernel == CSRDU_KERNEL_AUTO;
    if (vector && o->lanes == 1)
        return spmvlab_bad_option(err, "csrdu option lanes = 1 needs kernel = tiles; the vector kernel takes 2 to 32");
    if (vector && o->lanes != SPMVLAB_AUTO && o->lanes < 32 && o->batch != SPMVLAB_AUTO && o->batch > 1)
        return spmvlab_bad_option(
            err, "csrdu option batch = %d needs lanes = 32 (fewer lanes load one entry a row per batch)", o->batch);
    return SPMVLAB_OK;
}

/* The row length below which 90 % of the rows lie: what one batch of the
 * vector kernel should cover (a few longer rows take another batch or are
 * pieces). Lengths beyond 256 count as 256: no rule looks further. */
static int32_t cover_length(const spmvlab_matrix *A)
{
    enum { CAP = 256 };
    int64_t hist[CAP + 1] = {0};
    for (int32_t r = 0; r < A->rows; r++) {
        int32_t n = A->row_ptr[r + 1] - A->row_ptr[r];
        hist[n < CAP ? n : CAP]++;
    }
    int64_t want = (int64_t)ceil(0.9 * A->rows), seen = 0;
    int32_t c = 0;
    while (c < CAP && (seen += hist[c]) < want)
        c++;
    return c;
}

/* The vector kernel's shape. Lanes: the power of two at or above the
 * cover length, 2 to 32 (32 with an explicit batch above 1). Batch (32
 * lanes only): the smallest power of two U with 32 U at or above the cover
 * length, at most 4. Long rows: beyond two batches (at least 32), so a
 * warp's row groups differ by at most a batch or two. */
static void choose_vector_shape(csrdu_format *f, const csrdu_opts *o)
{
    const int32_t c = f->cover;
    int w = 2;
    while (w < 32 && w < c)
        w *= 2;
    if (o->batch != SPMVLAB_AUTO && o->batch > 1)
        w = 32;
    f->lanes = o->lanes != SPMVLAB_AUTO ? o->lanes : w;
    int u = 1;
    while (f->lanes == 32 && u < 4 && 32 * u < c)
        u *= 2;
    f->batch = f->lanes < 32 ? 1 : o->batch != SPMVLAB_AUTO ? o->batch : u;
    f->steps = o->steps;
    int32_t two = 2 * f->lanes * f->batch;
    f->long_len = o->long_len != SPMVLAB_AUTO ? o->long_len : two > 32 ? two : 32;
}

/* Entries of a stream tile of at most `rows` rows: 4 a row (a thread's
 * 8 slots hold two rows' worth), at least 256, at most CSRDU_STREAM_TILE. */
static int stream_tile_entries(int32_t rows)
{
    int32_t e = 4 * rows;
    return e < 256 ? 256 : e > CSRDU_STREAM_TILE ? CSRDU_STREAM_TILE : e;
}

/* The stream kernel's tile shape (f->tile_rows, f->tile). auto: 256 rows
 * and 1024 entries, the rows halved (the entries with them, down to 256)
 * while the matrix would give fewer than two tiles a multiprocessor, down
 * to 8 rows: a small matrix gets more blocks, and a tile of fewer rows
 * more lanes a row (csrdu_stream_lanes), so its longest row is a shorter
 * chain of additions (the csr plugin's adaptive blocks shrink the same
 * way). Without a device (CPU runs): 132 multiprocessors (H100, H200). */
static void choose_stream_shape(csrdu_format *f, const csrdu_opts *o, const spmvlab_matrix *A, int sm_count)
{
    int32_t rows = o->tile_rows != SPMVLAB_AUTO ? o->tile_rows : CSRDU_STREAM_ROWS;
    const int64_t want = 2LL * (sm_count > 0 ? sm_count : 132);
    while (o->tile_rows == SPMVLAB_AUTO && rows > 8) {
        int64_t by_rows = A->rows / rows, by_nnz = A->nnz / stream_tile_entries(rows);
        if ((by_rows > by_nnz ? by_rows : by_nnz) >= want)
            break;
        rows /= 2;
    }
    f->tile_rows = rows;
    f->tile = stream_tile_entries(rows);
}

/* The stream kernel's long-row limit: rows longer than it are row pieces
 * of one warp. auto: CSRDU_STREAM_LONG (256), at most the tile's entries.
 * A limit following the mean row (twice the mean, 32 to 256) shortens
 * the longest serial sum of a tile of uneven rows, but measured on the
 * corpus's tune part it lost on large R-MAT and power-law matrices (0.48
 * to 0.67x cuSPARSE where 256 ran 0.82 to 0.89x) and won nothing the
 * smaller tiles of small matrices (choose_stream_shape) do not already win
 * (docs/perf/2026-11-28-floors-2); it stays reachable as `long`.
 * Explicit: at most the tile's entries (`tile`, 256 to 1024). */
static int32_t stream_long_len(const csrdu_opts *o, int tile)
{
    int32_t l = o->long_len != SPMVLAB_AUTO ? o->long_len : CSRDU_STREAM_LONG;
    return l < tile ? l : tile;
}

/* auto: the vector kernel when the cover length is 128 or more (rows long
 * enough for 32 lanes and a full batch of 4: no lane idles and a warp keeps
 * 128 entries of one row in flight) on a matrix of CSRDU_VECTOR_MIN_NNZ
 * non-zeros or more; the stream kernel otherwise, whose 1024 staged
 * entries a block keep short and uneven rows streaming, and whose small
 * tiles spread a small matrix over more blocks (README.md). */
static csrdu_kernel choose_kernel(const csrdu_opts *o, int32_t cover, int32_t nnz)
{
    switch (o->kernel) {
    case CSRDU_KERNEL_STREAM: return CSRDU_K_STREAM;
    case CSRDU_KERNEL_VECTOR: return CSRDU_K_VECTOR;
    case CSRDU_KERNEL_TILES: return CSRDU_K_TILES;
    default: return cover >= 128 && nnz >= CSRDU_VECTOR_MIN_NNZ ? CSRDU_K_VECTOR : CSRDU_K_STREAM;
    }
}

/* Lanes per row of a tile's reduction: a lane per 4 entries of the mean
 * row, a power of two from 1 to 32 (short rows: a lane a row). */
static int choose_lanes(const csrdu_opts *o, const spmvlab_matrix *A)
{
    if (o->lanes != SPMVLAB_AUTO)
        return o->lanes;
    double per_lane = A->rows ? (double)A->nnz / A->rows / 4 : 0;
    int w = 1;
    while (w < 32 && w < per_lane)
        w *= 2;
    return w;
}

static void csrdu_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(csrdu_format, f, handle);
    void *const dev[] = {(void *)f->dev.row_ptr, (void *)f->dev.val, (void *)f->dev.off, (void *)f->dev.base,
                         (void *)f->dev.hi, (void *)f->dev.tasks, (void *)f->dev.splits, (void *)f->dev.partial,
                         f->vs.d_table, f->dev.count};
    void *const host[] = {f->row_ptr, f->val, f->host_partial};
    csrdu_index_free(&f->ix);
    csrdu_plan_free(&f->plan);
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Uploads the format's arrays and counts their bytes for describe(). */
static spmvlab_status upload_all(csrdu_format *f, spmvlab_err *err)
{
    const csrdu_index *ix = &f->ix;
    const csrdu_plan *p = &f->plan;
    size_t vs = f->vmode == CSRDU_V_F32_F64 ? 4 : f->vs.elem, as = spmvlab_dtype_size(f->dtype);
    int32_t *zeros = calloc((size_t)p->nsplits + 1, sizeof(int32_t));
    if (!zeros)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %d split rows", p->nsplits);
    const spmvlab_array arrays[] = {
        {(void **)&f->dev.row_ptr, f->row_ptr, ((size_t)f->rows + 1) * 4},
        {(void **)&f->dev.val, f->val, (size_t)f->nnz * vs},
        {(void **)&f->dev.off, ix->off, (size_t)f->nnz * (size_t)(ix->delta_bits / 8)},
        {(void **)&f->dev.base, ix->base, (size_t)ix->nchunks * 4},
        {(void **)&f->dev.hi, ix->hi, (size_t)ix->nesc * CSRDU_CHUNK * (size_t)ix->hi_bytes},
        {(void **)&f->dev.tasks, p->tasks, (size_t)p->ntasks * sizeof(csrdu_task)},
        {(void **)&f->dev.splits, p->splits, (size_t)p->nsplits * sizeof(csrdu_split)},
        /* scratch the kernel writes before the combine reads it */
        {(void **)&f->dev.partial, NULL, (size_t)p->nslots * as},
        /* finished pieces of each split row (stream, vector), 0 between launches */
        {(void **)&f->dev.count, zeros, (size_t)p->nsplits * sizeof(int32_t)},
    };
    spmvlab_status st = spmvlab_dev_put_all(f->ctx, arrays, SPMVLAB_COUNT(arrays), &f->dev_bytes, err);
    free(zeros);
    return st != SPMVLAB_OK ? st : spmvlab_value_store_upload(f->ctx, &f->vs, &f->dev_bytes, err);
}

/* Copies the values in their storage type; f32 storage of an f64 run only
 * when every value survives the rounding honestly (csrdu_f32_unsafe). */
static spmvlab_status copy_values(csrdu_format *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    if (f->vmode == CSRDU_V_F32_F64) {
        int64_t k = csrdu_f32_unsafe(A->val, A->nnz);
        if (k >= 0) {
            int32_t r = 0;
            while (A->row_ptr[r + 1] <= k)
                r++;
            double v = ((const double *)A->val)[k];
            const char *why = fabs(v) > 1 ? "overflows f32 (largest 3.4028235e+38)"
                                          : "falls below the smallest normal f32 (1.1754944e-38) and would lose its precision";
            return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                             "values = f32 cannot store the value %.17g at row %d, column %d: it %s; use values = native",
                             v, r, A->col_idx[k], why);
        }
    }
    size_t vs = f->vmode == CSRDU_V_F32_F64 ? 4 : f->vs.elem; /* values, codes, or none for a pattern */
    f->val = malloc((size_t)A->nnz * vs + 1);
    if (!f->val)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d values", A->nnz);
    if (f->vmode == CSRDU_V_F32_F64)
        for (int64_t k = 0; k < A->nnz; k++)
            ((float *)f->val)[k] = (float)((const double *)A->val)[k];
    else if (vs)
        memcpy(f->val, f->vs.src, (size_t)A->nnz * vs); /* CSR order: entry k's code is the table's code k */
    return SPMVLAB_OK;
}

static spmvlab_status csrdu_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                    spmvlab_err *err)
{
    const csrdu_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(csrdu_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    f->vmode = A->dtype == SPMVLAB_F32 ? CSRDU_V_F32 : o->values == CSRDU_VALUES_F32 ? CSRDU_V_F32_F64 : CSRDU_V_F64;
    f->cover = cover_length(A);
    f->kernel = choose_kernel(o, f->cover, A->nnz);
    f->tile = o->tile;
    f->piece = o->piece;
    if (f->kernel == CSRDU_K_TILES) {
        f->lanes = choose_lanes(o, A);
        f->long_len = f->tile;
    } else if (f->kernel == CSRDU_K_STREAM) {
        choose_stream_shape(f, o, A, ctx->device->present ? ctx->device->sm_count : 0);
        f->long_len = stream_long_len(o, f->tile);
    } else {
        choose_vector_shape(f, o);
    }
    /* values = f32 keeps native here and narrows in copy_values; CSR has no padding */
    /* auto takes no codes: this kernel ran them slower than native values
     * on every few-valued matrix measured (README, Values) */
    int values = o->values == SPMVLAB_VALUES_AUTO ? SPMVLAB_VALUES_AUTO_NO_CODES : o->values;
    spmvlab_status st = spmvlab_value_store_choose(ctx, A, values, 1, 0, &f->vs, err);
    if (st == SPMVLAB_OK)
        st = copy_values(f, A, err);
    int32_t bad_col = 0;
    int rc = 0;
    if (st == SPMVLAB_OK && (f->row_ptr = malloc(((size_t)A->rows + 1) * 4)) != NULL) {
        memcpy(f->row_ptr, A->row_ptr, ((size_t)A->rows + 1) * 4);
        rc = csrdu_index_build(&f->ix, A->col_idx, A->nnz, o->delta_bits, &bad_col);
        if (rc == 0)
            rc = csrdu_plan_build(&f->plan, A->row_ptr, A->rows, f->long_len, f->kernel == CSRDU_K_VECTOR ? 0 : f->tile,
                                  f->kernel == CSRDU_K_STREAM ? f->tile_rows : f->tile, f->piece);
        if (rc == 0 && !(f->host_partial = malloc((size_t)(f->plan.nslots + 1) * 8)))
            rc = -1;
    } else if (st == SPMVLAB_OK) {
        rc = -1;
    }
    if (st == SPMVLAB_OK && rc == -2)
        st = ctx->fail(ctx, err, SPMVLAB_LIMIT,
                       "delta_bits = 8 stores at most 16 high bits of an escaped column, but column %d needs more; use delta_bits = 16",
                       bad_col);
    else if (st == SPMVLAB_OK && rc)
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d non-zeros", A->nnz);
    if (st == SPMVLAB_OK) {
        f->dev.ntasks = f->plan.ntasks;
        f->dev.npieces = f->plan.npieces;
        f->dev.nsplits = f->plan.nsplits;
        f->dev.vmode = f->vmode;
        f->dev.vs = &f->vs;
        f->dev.off_bytes = f->ix.delta_bits / 8;
        f->dev.hi_bytes = f->ix.hi_bytes;
        f->dev.kernel = f->kernel;
        f->dev.tile = f->tile;
        f->dev.lanes = f->lanes;
        f->dev.batch = f->batch;
        f->dev.steps = f->steps;
        f->dev.rows = f->rows;
        f->dev.long_len = f->long_len;
        st = upload_all(f, err);
    }
    if (st == SPMVLAB_OK && f->vmode == CSRDU_V_F32_F64)
        ctx->declare_storage(ctx, SPMVLAB_F32);
    return spmvlab_converted(st, f, csrdu_destroy, out);
}

static spmvlab_status csrdu_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    csrdu_format *f = handle;
    return spmvlab_launched(f->ctx, err, csrdu_launch(&f->dev, x, y, stream), csrdu_error_string, "kernel launch");
}

SPMVLAB_SPMV_HOST_F64_F32(csrdu, csrdu_format, dtype)

/* The format's bytes and escapes, then the kernel's shape: its tiles for
 * the tiles and stream kernels; lanes, batch, long-row limit and steps for
 * the vector kernel; the cover length (auto's input), row pieces and split
 * rows. */
static void csrdu_describe(const void *handle, char *buf, size_t len)
{
    static const char *kernels[] = {"tiles", "vector", "stream"};
    const csrdu_format *f = handle;
    const csrdu_index *ix = &f->ix;
    double nnz = f->nnz ? (double)f->nnz : 1;
    int n = snprintf(buf, len,
                     "kernel=%s delta_bits=%d values=%s bytes_per_nnz=%.3f index_bytes_per_nnz=%.3f escaped_chunks=%.2f%% "
                     "hi_bytes=%d ",
                     kernels[f->kernel], ix->delta_bits,
                     f->vmode == CSRDU_V_F32_F64 ? "f32" : f->vs.kind != SPMVLAB_STORE_NATIVE ? spmvlab_value_store_name(&f->vs)
                                                 : f->vmode == CSRDU_V_F64 ? "f64" : "f32",
                     (double)f->dev_bytes / nnz, (double)csrdu_index_bytes(ix) / nnz,
                     ix->nchunks ? 100.0 * (double)ix->nesc / (double)ix->nchunks : 0.0, ix->hi_bytes);
    if (n < 0 || (size_t)n >= len)
        return;
    if (f->kernel == CSRDU_K_TILES)
        snprintf(buf + n, len - (size_t)n, "tile=%d lanes=%d tiles=%d pieces=%d split_rows=%d", f->tile, f->lanes,
                 f->plan.ntasks - f->plan.npieces, f->plan.npieces, f->plan.nsplits);
    else if (f->kernel == CSRDU_K_STREAM)
        snprintf(buf + n, len - (size_t)n, "tile=%d tile_rows=%d cover=%d long=%d tiles=%d pieces=%d split_rows=%d", f->tile,
                 f->tile_rows, f->cover, f->long_len, f->plan.ntasks - f->plan.npieces, f->plan.npieces, f->plan.nsplits);
    else
        snprintf(buf + n, len - (size_t)n, "lanes=%d batch=%d long=%d steps=%d pieces=%d split_rows=%d cover=%d", f->lanes,
                 f->batch, f->long_len, f->steps, f->plan.npieces, f->plan.nsplits, f->cover);
}

SPMVLAB_PLUGIN_DEFINE(csrdu, "1.3.0", SPMVLAB_DTYPES_F64_F32,
                      "CSR with 8/16-bit column offsets from a per-chunk base (CSR-DU style), optional f32 value storage",
                      "Kourtis, Goumas, Koziris, Optimizing sparse matrix-vector multiplication using index and value "
                      "compression, CF'08; Willcock, Lumsdaine, Accelerating sparse matrix computations via data "
                      "compression, ICS'06",
                      .check_options = csrdu_check_options);
