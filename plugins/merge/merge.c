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
 * tile's start is a search on its diagonal (merge_path_search); the tile
 * stages its row ends in shared memory, each thread searches its own
 * diagonal there and loads its products (directly, or from the tile's
 * products staged in shared memory). The row a thread leaves open goes to
 * the next thread by a block-wide segmented scan; the row a tile leaves
 * open is its carry, added by the fix-up kernel.
 * Device bytes: 4(rows + 1) + (4 + s) nnz + [8 (tiles + 1)] + (4 + s) tiles,
 *   s = 8 (f64) or 4 (f32), tiles = ceil((rows + nnz) / (128 items)); the
 *   tile starts are kept only when searched by a kernel or at convert.
 * Options: items (path items per thread); search (block: every tile
 * block searches its own ends; launch: a search kernel before every SpMV;
 * convert: once, on the host; auto: convert, fitted on the corpus's tune
 * part); products (expert: staged or direct). Under auto, direct products
 * with 4 items in f64 and 6 in f32, 10 from 2^20 non-zeros where the
 * columns are local: the share of non-zeros whose x load starts a new
 * 32-byte sector in its row (merge_gather_share) below 0.34 (f64) or 0.5
 * (f32); the share is reported.
 * Each option set overrides its part alone.
 * Limits: f64 and f32; rows + nnz below 2^31 tiles of the path.
 * The kernels, their launch, the auto rules and the CPU replay are shared
 * with tilespmv's deferred part: ../common/merge_path.h, merge_path.cuh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge_format.h"

static spmvlab_status merge_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const merge_opts *o = spmvlab_opts_fields(opts);
    if (o->items != SPMVLAB_AUTO && o->items != 4 && o->items != 6 && o->items != 7 && o->items != 10 &&
        o->items != 14)
        return spmvlab_bad_option(err, "merge option items = %d must be 4, 6, 7, 10 or 14 (the compiled tile shapes)",
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

/* Host copies of the CSR arrays and the tile scratch of spmv_host. */
static int copy_host(merge_format *f, const spmvlab_matrix *A, size_t vs)
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
    return 0;
}

/* The resolved place of the search: the option's, or auto's (convert). */
static int search_place(int choice)
{
    return choice != MERGE_SEARCH_AUTO ? choice : merge_auto_search();
}

static spmvlab_status merge_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                    spmvlab_err *err)
{
    const merge_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(merge_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    const size_t vs = spmvlab_dtype_size(A->dtype);
    const int f64 = A->dtype == SPMVLAB_F64;
    merge_dev *d = &f->dev;
    f->gather_share = merge_gather_share(A->rows, A->row_ptr, A->col_idx, NULL, f64 ? 4 : 8);
    merge_auto_choice(f64, f->gather_share, A->nnz, &f->auto_products, &f->auto_items);
    d->items = o->items != SPMVLAB_AUTO ? o->items : f->auto_items;
    d->products = o->products != MERGE_PRODUCTS_AUTO ? o->products : f->auto_products;
    d->dtype = A->dtype;
    d->rows = A->rows;
    d->cols = A->cols;
    d->nnz = A->nnz;
    d->tiles = merge_tiles((int64_t)A->rows + A->nnz, d->items);
    d->search = search_place(o->search);
    const int keep_coords = d->search != MERGE_SEARCH_BLOCK;
    merge_coord *coords = NULL;
    spmvlab_status st = SPMVLAB_OK;
    if (copy_host(f, A, vs) != 0 || merge_plan_tiles(d, A->row_ptr, &coords) != 0)
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d rows and %d non-zeros", A->rows, A->nnz);
    if (st == SPMVLAB_OK) {
        const size_t tiles = (size_t)d->tiles;
        const spmvlab_array arrays[] = {
            {(void **)&d->row_ptr, A->row_ptr, ((size_t)A->rows + 1) * 4},
            {(void **)&d->col_idx, A->col_idx, (size_t)A->nnz * 4},
            {(void **)&d->val, A->val, (size_t)A->nnz * vs},
            /* tile starts: searched at convert, or scratch of the search kernel */
            {(void **)&d->coords, coords, keep_coords ? (tiles + 1) * sizeof(merge_coord) : 0},
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

/* The tile shape, where the search runs, how the products are made, the
 * measured share of new x sectors and what auto picks for it (products/items,
 * whether or not the options took it), the tiles, whether the fix-up runs
 * and the bytes a non-zero. */
static void merge_describe(const void *handle, char *buf, size_t len)
{
    static const char *const places[] = {"block", "launch", "convert"};
    static const char *const kinds[] = {"staged", "direct"};
    const merge_format *f = handle;
    snprintf(buf, len,
             "items=%d tile=%d search=%s products=%s new_sector_share=%.3f auto=%s/%d tiles=%d fixup=%d "
             "bytes_per_nnz=%.3f",
             f->dev.items, merge_tile_items(f->dev.items), places[f->dev.search], kinds[f->dev.products],
             f->gather_share, kinds[f->auto_products], f->auto_items, f->dev.tiles, f->dev.fixup,
             (double)f->dev_bytes / (f->nnz ? f->nnz : 1));
}

SPMVLAB_PLUGIN_DEFINE(merge, "1.2.0", SPMVLAB_DTYPES_F64_F32,
                      "merge-based CSR: equal shares of the merge path of row ends and non-zeros per thread, carries fixed up",
                      "Merrill, Garland, Merge-based parallel sparse matrix-vector multiplication, SC'16",
                      .check_options = merge_check_options);
