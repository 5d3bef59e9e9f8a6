/*
 * tilespmv — TileSpMV (Y. Niu, Z. Lu, M. Dong, Z. Jin, W. Liu, G. Tan,
 * "TileSpMV: A Tiled Algorithm for Sparse Matrix-Vector Multiplication on
 * GPUs", IPDPS 2021).
 *
 * Format: the matrix is cut into 16 x 16 tiles; the non-empty ones are
 * indexed by a CSR over tiles (tptr[tile_rows + 1], tcol[ntiles]), and each
 * is stored in one of seven kinds chosen per tile (tilespmv_rule.c): CSR,
 * COO, ELL, HYB, dense, dense rows, dense columns, with 8-bit in-tile
 * indices. Per tile: kind and param (one byte each), voff and ioff (the
 * first value and index byte, int32). Tiles of at most defer_max entries
 * are not stored as tiles: their entries form a deferred CSR part (as the
 * paper's program moves its sparsest tiles to CSR5). A plan of chunks
 * (tilespmv_plan.c) gives each warp a bounded share of the work. Device
 * bytes (tilespmv_bytes):
 *   16 nchunks + [fused] 4 nsplit + 14 ntiles + 8 + s nvals + nidx
 *   + (ndef > 0 ? 4 (rows + 1) + (4 + s) ndef : 0)
 *   + [merge] (search != block ? 8 (mtiles + 1) : 0) + (4 + s) mtiles,
 * s = 8 (f64), 4 (f32), nvals and nidx per kind in README.md (padding of
 * ELL, HYB and the dense kinds included), mtiles the merge pass's tiles.
 *
 * Options: tile_format (auto, or one kind for every tile), the rule's
 * thresholds dense_fill, coo_max, ell_variation and hyb_variation (the
 * paper's values by default), defer_max (32: measured, README.md),
 * deferred (fused, merge or auto: tilespmv_defer.c); expert: chunk_tiles,
 * defer_lanes.
 * Kernel (tilespmv.cu): a warp per chunk, each half-warp taking every
 * other tile, a lane per tile row's row; fused: a WHOLE chunk also sums its
 * rows' deferred entries and writes y once; merge: the merge-path pass
 * writes the deferred part into y first and WHOLE chunks add to it; split
 * chunks add atomically. spmv_host runs the same lanes.
 * Limits: dtypes f64 and f32; stored values and index bytes below 2^31.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tilespmv.h"

static spmvlab_status tilespmv_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const tilespmv_opts *o = spmvlab_opts_fields(opts);
    if (o->defer_lanes != SPMVLAB_AUTO && (o->defer_lanes & (o->defer_lanes - 1)) != 0)
        return spmvlab_bad_option(err, "tilespmv option defer_lanes = %d must be 2, 4, 8, 16 or 32", o->defer_lanes);
    return SPMVLAB_OK;
}

/* Frees every host and device array (NULL and half-built formats allowed). */
static void tilespmv_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(tilespmv_fmt, f, fmt);
    void *const dev[] = {f->d_tcol, f->d_kind, f->d_param, f->d_voff, f->d_ioff, f->d_val, f->d_idx,
                         f->d_dptr, f->d_dcol, f->d_dval, f->d_chunk, f->d_split,
                         f->mdev.coords, f->mdev.carry_row, f->mdev.carry_val};
    void *const host[] = {f->tptr, f->tcol, f->kind, f->param, f->voff, f->ioff, f->val, f->idx,
                          f->dptr, f->dcol, f->dval, f->chunk, f->split, f->s_end, f->mcoords};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* Frees the host arrays a build, the deferred path and the plan made and
 * clears f (but its services and shape) for another build. Nothing is on
 * the device yet. */
static void tilespmv_unbuild(tilespmv_fmt *f)
{
    void *const host[] = {f->tptr, f->tcol, f->kind, f->param, f->voff, f->ioff, f->val, f->idx,
                          f->dptr, f->dcol, f->dval, f->chunk, f->split, f->s_end, f->mcoords};
    for (size_t i = 0; i < SPMVLAB_COUNT(host); i++)
        free(host[i]);
    const tilespmv_fmt keep = {.ctx = f->ctx, .dtype = f->dtype, .rows = f->rows, .cols = f->cols, .nnz = f->nnz};
    *f = keep;
}

/* Builds the tiles from the CSR input and uploads them. Returns OK;
 * UNSUPPORTED for f16; LIMIT when the stored values or index bytes pass
 * 2^31 - 1; NOMEM or the core's status when an allocation fails. On failure
 * nothing is kept. */
static spmvlab_status tilespmv_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts,
                                       void **out, spmvlab_err *err)
{
    const tilespmv_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(tilespmv_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    spmvlab_status st = tilespmv_build(f, A, o, err);
    if (st == SPMVLAB_OK)
        st = tilespmv_defer(f, o, err);
    tilespmv_opts whole = *o; /* every tile deferred, summed by the merge pass */
    whole.defer_max = TILE * TILE;
    whole.deferred = TILESPMV_DEFER_MERGE;
    if (st == SPMVLAB_OK && o->deferred == TILESPMV_DEFER_AUTO && o->tile_format == TILESPMV_FORMAT_AUTO && o->whole_merge &&
        tilespmv_whole_merge(f, A)) {
        tilespmv_unbuild(f);
        o = &whole;
        st = tilespmv_build(f, A, o, err);
        if (st == SPMVLAB_OK)
            st = tilespmv_defer(f, o, err);
    }
    if (st == SPMVLAB_OK)
        st = tilespmv_plan(f, o, err);
    const size_t i4 = sizeof(int32_t), nt = (size_t)f->ntiles, vs = spmvlab_dtype_size(f->dtype);
    const size_t ndef = (size_t)f->ndef, dptr = ndef > 0 ? ((size_t)f->rows + 1) * i4 : 0;
    const int fused = f->path == TILESPMV_DEFER_FUSED;
    const size_t mtiles = (size_t)f->mdev.tiles; /* 0 when fused */
    const spmvlab_array arrays[] = {
        {(void **)&f->d_chunk, f->chunk, (size_t)f->nchunks * CHUNK_INTS * i4},
        {(void **)&f->d_split, f->split, fused ? (size_t)f->nsplit * i4 : 0}, /* merge zeroes nothing */
        {(void **)&f->d_tcol, f->tcol, nt * i4},
        {(void **)&f->d_kind, f->kind, nt},
        {(void **)&f->d_param, f->param, nt},
        {(void **)&f->d_voff, f->voff, (nt + 1) * i4},
        {(void **)&f->d_ioff, f->ioff, (nt + 1) * i4},
        {&f->d_val, f->val, (size_t)f->nvals * vs},
        {(void **)&f->d_idx, f->idx, (size_t)f->nidx},
        {(void **)&f->d_dptr, f->dptr, dptr}, /* without deferred entries the kernel reads none of it */
        {(void **)&f->d_dcol, f->dcol, ndef * i4},
        {&f->d_dval, f->dval, ndef * vs},
        /* merge: the tiles' starts (found at convert, or the search kernel's), the tiles' carries */
        {(void **)&f->mdev.coords, f->mcoords, f->mdev.search != MERGE_SEARCH_BLOCK ? (mtiles + 1) * sizeof(merge_coord) : 0},
        {(void **)&f->mdev.carry_row, NULL, mtiles * i4},
        {&f->mdev.carry_val, NULL, mtiles * vs},
    };
    if (st == SPMVLAB_OK)
        st = spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err);
    f->mdev.row_ptr = f->d_dptr;
    f->mdev.col_idx = f->d_dcol;
    f->mdev.val = f->d_dval;
    if (st == SPMVLAB_OK)
        ctx->log(ctx, "tilespmv: %d tiles, %lld stored values, %d deferred entries for %d non-zeros; %d chunks; %s",
                 f->ntiles, (long long)f->nvals, f->ndef, f->nnz, f->nchunks,
                 fused ? "deferred part fused" : "deferred part by a merge pass");
    return spmvlab_converted(st, f, tilespmv_destroy, out);
}

/* y = A x on the device: the chunk kernel, after zeroing the split tile
 * rows when there are any (fused) or after the merge pass (merge). Returns
 * CUDA_ERROR with the runtime's text when a launch failed. */
SPMVLAB_SPMV_BY_LAUNCHER(tilespmv, tilespmv_fmt, f)

SPMVLAB_SPMV_HOST_F64_F32(tilespmv, tilespmv_fmt, dtype)

static size_t tilespmv_footprint(const void *fmt)
{
    return tilespmv_bytes(fmt);
}

/* Facts for reports: tiles, their kinds, the deferred part, the plan, the
 * deferred path with its rows' variation and the merge pass's shape
 * (products/items/search, none when fused) and tiles, stored values per
 * non-zero and device bytes per non-zero. */
static void tilespmv_describe(const void *fmt, char *buf, size_t len)
{
    static const char *const kinds[] = {"staged", "direct"}, *const places[] = {"block", "launch", "convert"};
    const tilespmv_fmt *f = fmt;
    const int32_t *c = f->counts;
    const int merge = f->path == TILESPMV_DEFER_MERGE;
    double bytes = (double)tilespmv_bytes(f);
    char pass[64] = "none";
    if (merge)
        snprintf(pass, sizeof pass, "%s/%d/%s", kinds[f->mdev.products], f->mdev.items, places[f->mdev.search]);
    snprintf(buf, len,
             "tiles=%d csr=%d coo=%d ell=%d hyb=%d dense=%d dense_row=%d dense_col=%d deferred=%d "
             "deferred_tiles=%d deferred_share=%.3f lanes=%d chunks=%d split=%d deferred_path=%s defer_cv=%.3f "
             "idle_rows=%.3f merge_pass=%s merge_tiles=%d stored_per_nnz=%.3f bytes_per_nnz=%.2f",
             f->ntiles, c[TILE_CSR], c[TILE_COO], c[TILE_ELL], c[TILE_HYB], c[TILE_DENSE], c[TILE_DNSROW],
             c[TILE_DNSCOL], f->ndef, f->ndef_tiles, f->nnz > 0 ? (double)f->ndef / f->nnz : 0.0, f->lanes,
             f->nchunks, f->nsplit, merge ? "merge" : "fused", f->defer_cv, f->idle_share, pass, f->mdev.tiles,
             f->nnz > 0 ? (double)(f->nvals + f->ndef) / f->nnz : 0.0, f->nnz > 0 ? bytes / f->nnz : 0.0);
}

SPMVLAB_PLUGIN_DEFINE(tilespmv, "1.1.0", SPMVLAB_DTYPES_F64_F32,
                      "TileSpMV: 16x16 tiles, each stored as CSR, COO, ELL, HYB, dense, dense rows or dense columns",
                      "Y. Niu, Z. Lu, M. Dong, Z. Jin, W. Liu, G. Tan, TileSpMV: A Tiled Algorithm for Sparse "
                      "Matrix-Vector Multiplication on GPUs, IPDPS 2021",
                      .check_options = tilespmv_check_options, .footprint = tilespmv_footprint);
