/*
 * merge — merge-based CSR SpMV (D. Merrill, M. Garland, "Merge-based
 * parallel sparse matrix-vector multiplication", SC'16).
 *
 * Format: plain CSR (row_ptr, col_idx, val), nothing added. SpMV follows
 * the merge path of the row ends (row_ptr[1 .. rows]) with the non-zero
 * indices 0 .. nnz - 1: a path of rows + nnz items, where a step down
 * consumes a non-zero and a step right ends a row. The path is cut into
 * tiles of MERGE_THREADS * items items, one thread block each; a thread
 * takes `items` consecutive items, so every thread has the same work
 * whatever the row lengths (long rows and runs of empty rows alike). A
 * tile's start is a binary search on its diagonal (merge_path_search); the
 * tile stages its row ends and products in shared memory and each thread
 * searches its own diagonal there. The row a thread leaves open goes to
 * the next thread by a block-wide segmented scan; the row a tile leaves
 * open is its carry, added by the fix-up kernel.
 * Device bytes: 4(rows + 1) + (4 + s) nnz + 8 (tiles + 1) + (4 + s) tiles,
 *   s = 8 (f64) or 4 (f32), tiles = ceil((rows + nnz) / (128 items)).
 * Options: items (path items per thread, auto: ITEMS_F64 or ITEMS_F32);
 * search (launch: the tiles' starts searched by a kernel before every SpMV,
 * as the original; convert: once, at conversion, on the host).
 * Limits: f64 and f32; rows + nnz below 2^31 tiles of the path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge_format.h"

/* Path items per thread under auto. f64: a tile of 896 items stages about
 * 10 KB of products and row ends, so a multiprocessor holds a dozen blocks
 * while each thread still has several non-zeros in flight. f32 products
 * take half the shared memory, so a thread takes more items for as many
 * bytes in flight. */
#define MERGE_ITEMS_F64 7
#define MERGE_ITEMS_F32 10

enum merge_search_choice { MERGE_SEARCH_LAUNCH, MERGE_SEARCH_CONVERT };

typedef struct merge_opts {
    int items;  /* 4, 7, 10, 14 or SPMVLAB_AUTO */
    int search; /* enum merge_search_choice */
} merge_opts;

static const spmvlab_option merge_options[] = {
    SPMVLAB_AUTO_OPTION(merge_opts, items, 4, 14, "path items (row ends + non-zeros) a thread: 4, 7, 10 or 14; auto: 7 f64, 10 f32"),
    SPMVLAB_CHOICE_OPTION(merge_opts, search, "launch", "where the tiles' starts on the merge path are found"),
    SPMVLAB_CHOICE(search, "launch", MERGE_SEARCH_LAUNCH, "by a kernel before every SpMV, as the original"),
    SPMVLAB_CHOICE(search, "convert", MERGE_SEARCH_CONVERT, "once on the host at convert"),
    {NULL},
};

static spmvlab_status merge_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const merge_opts *o = spmvlab_opts_fields(opts);
    if (o->items != SPMVLAB_AUTO && o->items != 4 && o->items != 7 && o->items != 10 && o->items != 14)
        return spmvlab_bad_option(err, "merge option items = %d must be 4, 7, 10 or 14 (the compiled tile shapes)",
                                  o->items);
    return SPMVLAB_OK;
}

static void merge_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(merge_format, f, handle);
    void *const dev[] = {(void *)f->dev.row_ptr, (void *)f->dev.col_idx, (void *)f->dev.val, f->dev.coords,
                         f->dev.carry_row, f->dev.carry_val};
    void *const host[] = {f->row_ptr, f->col_idx, f->val, f->s_end};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Host copies of the CSR arrays and the tile scratch of spmv_host; the
 * tiles' starts when they are searched at convert (coords: tiles + 1). */
static int copy_host(merge_format *f, const spmvlab_matrix *A, size_t vs, merge_coord **coords, int search_now)
{
    size_t nnz = (size_t)A->nnz;
    f->row_ptr = malloc(((size_t)A->rows + 1) * 4);
    f->col_idx = malloc((nnz ? nnz : 1) * 4);
    f->val = malloc((nnz ? nnz : 1) * vs);
    f->s_end = malloc(((size_t)merge_tile_items(f->dev.items) + 1) * 4);
    if (!f->row_ptr || !f->col_idx || !f->val || !f->s_end)
        return -1;
    memcpy(f->row_ptr, A->row_ptr, ((size_t)A->rows + 1) * 4);
    memcpy(f->col_idx, A->col_idx, nnz * 4);
    memcpy(f->val, A->val, nnz * vs);
    if (!search_now)
        return 0;
    *coords = malloc(((size_t)f->dev.tiles + 1) * sizeof **coords);
    if (!*coords)
        return -1;
    int64_t length = (int64_t)A->rows + A->nnz;
    for (int32_t t = 0; t <= f->dev.tiles; t++) {
        int64_t d = (int64_t)t * merge_tile_items(f->dev.items);
        (*coords)[t] = merge_path_search(d < length ? d : length, A->row_ptr + 1, A->rows, 0, A->nnz);
    }
    return 0;
}

static spmvlab_status merge_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                    spmvlab_err *err)
{
    const merge_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(merge_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    const size_t vs = spmvlab_dtype_size(A->dtype);
    merge_dev *d = &f->dev;
    d->items = o->items != SPMVLAB_AUTO ? o->items : A->dtype == SPMVLAB_F64 ? MERGE_ITEMS_F64 : MERGE_ITEMS_F32;
    d->search_per_call = o->search == MERGE_SEARCH_LAUNCH;
    d->dtype = A->dtype;
    d->rows = A->rows;
    d->cols = A->cols;
    d->nnz = A->nnz;
    d->tiles = merge_tiles((int64_t)A->rows + A->nnz, d->items);
    merge_coord *coords = NULL;
    spmvlab_status st = SPMVLAB_OK;
    if (copy_host(f, A, vs, &coords, !d->search_per_call) != 0)
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d rows and %d non-zeros", A->rows, A->nnz);
    if (st == SPMVLAB_OK) {
        const size_t tiles = (size_t)d->tiles;
        const spmvlab_array arrays[] = {
            {(void **)&d->row_ptr, A->row_ptr, ((size_t)A->rows + 1) * 4},
            {(void **)&d->col_idx, A->col_idx, (size_t)A->nnz * 4},
            {(void **)&d->val, A->val, (size_t)A->nnz * vs},
            {(void **)&d->coords, coords, (tiles + 1) * sizeof(merge_coord)},
            /* scratch the tiles write and the fix-up reads */
            {(void **)&d->carry_row, NULL, tiles * 4},
            {(void **)&d->carry_val, NULL, tiles * vs},
        };
        st = spmvlab_dev_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), &f->dev_bytes, err);
    }
    free(coords);
    return spmvlab_converted(st, f, merge_destroy, out);
}

SPMVLAB_SPMV_BY_LAUNCHER(merge, merge_format, &f->dev)

SPMVLAB_SPMV_HOST_F64_F32(merge, merge_format, dtype)

/* The tile shape, where the search runs, the tiles and the bytes a non-zero. */
static void merge_describe(const void *handle, char *buf, size_t len)
{
    const merge_format *f = handle;
    snprintf(buf, len, "items=%d tile=%d search=%s tiles=%d bytes_per_nnz=%.3f", f->dev.items,
             merge_tile_items(f->dev.items), f->dev.search_per_call ? "launch" : "convert", f->dev.tiles,
             (double)f->dev_bytes / (f->nnz ? f->nnz : 1));
}

SPMVLAB_PLUGIN_DEFINE(merge, "1.0.0", SPMVLAB_DTYPES_F64_F32,
                      "merge-based CSR: equal shares of the merge path of row ends and non-zeros per thread, carries fixed up",
                      "Merrill, Garland, Merge-based parallel sparse matrix-vector multiplication, SC'16",
                      .check_options = merge_check_options);
