/*
 * vbr — variable block row in its 1D-VBL form (Pinar and Heath, SC'99;
 * VBR: Saad, "SPARSKIT", 1994) with a CSR remainder.
 *
 * Format: the rows are cut into block rows, runs of consecutive rows with
 * one column pattern. A block row of at least min_height rows (and rows of
 * at most the long-row threshold, max(64, 4 x the mean row length)) goes to
 * the block part; its blocks are the maximal runs of consecutive columns of
 * its pattern, one start column (int32) and one width (uint8, runs cut at
 * 255) per block, h x w dense values each. The block part's rows form
 * slices of 32, a lane per row, values step by step (vbr.h). Every other
 * row is a CSR remainder row. Device bytes, s the stored value size:
 *   [4 nq] + 4(nq + 1) + 4 nq + 5 nblocks + s blocked      block part, nq rows
 *   [4 nr] + 4(nr + 1) + (4 + s) rem                       remainder, vector
 *   4(rows + 1) + (4 + s) rem + merge scratch              remainder, merge
 * (the bracketed row maps only when a part holds some of the rows, not all;
 * the scratch (merge_scratch_bytes): 8 (mtiles + 1) unless the tile blocks
 * search, + (4 + S) mtiles, S the run's value size, mtiles the pass's tiles).
 * Rule: convert refuses (limit) unless these bytes per non-zero are at
 * most max_bytes_ratio (0.9) times CSR's in the run's dtype, value size +
 * 4 + 4 (rows + 1) / nnz: SpMV moves bytes, and runs of width 1 (random
 * columns) cost more than CSR. Decided from the counts, before any
 * allocation. Options: max_bytes_ratio (0..4; 4 takes every matrix);
 * values (native|f32|indexed|pattern|auto: the lossless ones code the
 * block values, plugins/common/value_store.h; the remainder stays native);
 * remainder (auto|vector|merge: vbr_rem.c). Expert:
 * min_height (1..1024, 1: pure 1D-VBL),
 * rem_lanes (auto: from the remainder's mean row length), steps (2, 4, 8; 4).
 * Kernels (vbr.cu): a warp per slice, lane i walking row i's blocks, the
 * loads of a step consecutive words; the remainder a vector CSR kernel, or
 * the shared merge-path pass first and the block kernel adding to y.
 * spmv_host runs the same lanes in the same order.
 * Limits: dtypes f64 and f32; values = f32 refuses a value f32 cannot hold
 * (status limit).
 */
#include <stdio.h>
#include <stdlib.h>

#include "vbr.h"

static spmvlab_status vbr_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const vbr_opts *o = spmvlab_opts_fields(opts);
    if (!spmvlab_pow2_or_auto(o->rem_lanes))
        return spmvlab_bad_option(err, "vbr option rem_lanes = %d must be a power of two from 1 to 32", o->rem_lanes);
    if (o->steps != 2 && o->steps != 4 && o->steps != 8)
        return spmvlab_bad_option(err, "vbr option steps = %d must be 2, 4 or 8 (the compiled kernels)", o->steps);
    return SPMVLAB_OK;
}

/* Frees every host and device array (NULL and half-built formats allowed). */
static void vbr_destroy(void *fmt)
{
    SPMVLAB_DESTROY_BEGIN(vbr_fmt, f, fmt);
    void *const dev[] = {f->d_qrow, f->d_qptr,  f->d_qblk,        f->d_bcol,          f->d_bwid,
                         f->d_bval, f->d_rrow,  f->d_rptr,        f->d_rcol,          f->d_rval,
                         f->mdev.coords, f->mdev.carry_row, f->mdev.carry_val, f->vs.d_table};
    void *const host[] = {f->qrow, f->qptr, f->qblk, f->bcol, f->bwid, f->bval,
                          f->rrow, f->rptr, f->rcol, f->rval, f->s_end, f->mcoords};
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

/* LIMIT naming the first value f32 storage cannot hold, else OK. */
static spmvlab_status vbr_check_f32(spmvlab_ctx *ctx, const spmvlab_matrix *A, spmvlab_err *err)
{
    int64_t k = vbr_f32_unsafe(A);
    if (k < 0)
        return SPMVLAB_OK;
    int32_t r = 0;
    while (A->row_ptr[r + 1] <= k)
        r++;
    double v = ((const double *)A->val)[k];
    return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                     "values = f32 cannot store the value %.17g at row %d, column %d: it %s; use values = native", v,
                     r, A->col_idx[k], v > 1 || v < -1 ? "overflows f32" : "falls below the smallest normal f32");
}

/* LIMIT naming vbr's and CSR's bytes per non-zero when vbr's are more than
 * max_bytes_ratio times CSR's in the run's dtype (a matrix without entries
 * always converts), else OK. From the counts only: nothing is allocated. */
static spmvlab_status vbr_check_bytes(spmvlab_ctx *ctx, const spmvlab_matrix *A, const vbr_opts *o,
                                      const vbr_count *c, int store_f32, spmvlab_err *err)
{
    if (A->nnz == 0)
        return SPMVLAB_OK;
    const double run = (double)spmvlab_dtype_size(A->dtype), s = store_f32 ? 4 : run;
    const double vbr = vbr_count_bytes(c, A->rows, s) / A->nnz;
    const double csr = run + 4 + 4.0 * ((double)A->rows + 1) / A->nnz;
    if (vbr <= o->max_bytes_ratio * csr)
        return SPMVLAB_OK;
    return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                     "vbr would move %.2f bytes per non-zero, CSR %.2f: more than max_bytes_ratio = %g times CSR's, "
                     "too small a saving for its index work (%d blocks of %.2f entries on average hold %.1f%% of the "
                     "entries, %d rows are CSR remainder)",
                     vbr, csr, o->max_bytes_ratio, c->nblocks,
                     c->nblocks > 0 ? (double)c->blocked_nnz / c->nblocks : 0.0, 100.0 * c->blocked_nnz / A->nnz, c->nr);
}

/* LIMIT naming the structure when the block part is too thin to pay: fewer
 * block rows than min_block_rows (one warp's slice of rows each, too few to
 * fill the device) or blocks of at most min_block_entries entries on
 * average (column runs, not dense blocks). Below either, vbr ran under 0.8x
 * cuSPARSE on the corpus (measured on the corpus tune part, README.md "When
 * vbr refuses", docs/perf/2026-11-28-corpus-tune). max_bytes_ratio = 4
 * (never refuse) turns it off too. */
static spmvlab_status vbr_check_structure(spmvlab_ctx *ctx, const spmvlab_matrix *A, const vbr_opts *o,
                                          const vbr_count *c, spmvlab_err *err)
{
    if (A->nnz == 0 || o->max_bytes_ratio >= 4)
        return SPMVLAB_OK;
    const double mean = c->nblocks > 0 ? (double)c->blocked_nnz / c->nblocks : 0.0;
    if (c->nbr < o->min_block_rows)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "few block rows: %d block rows (of %d rows) are fewer than min_block_rows = %d, too few "
                         "to fill the device",
                         c->nbr, A->rows, o->min_block_rows);
    if (o->min_block_entries > 0 && mean <= o->min_block_entries)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "no dense blocks: %d blocks of %.2f entries on average, at most min_block_entries = %g",
                         c->nblocks, mean, o->min_block_entries);
    return SPMVLAB_OK;
}

/* The remainder's lanes per row: the option, or the smallest power of two
 * at least the remainder's mean row length (1 .. 32). */
static int vbr_rem_lanes(const vbr_opts *o, const vbr_count *c)
{
    if (o->rem_lanes != SPMVLAB_AUTO)
        return o->rem_lanes;
    const double mean = c->nr > 0 ? (double)c->rem_nnz / c->nr : 0;
    int w = 1;
    while (w < VBR_WARP && w < mean)
        w *= 2;
    return w;
}

/* Finds the block rows, refuses a format that saves too few bytes, builds
 * both parts and uploads them. Returns OK; UNSUPPORTED for f16; LIMIT for
 * values = f32 with a value f32 cannot hold or bytes over max_bytes_ratio
 * times CSR's; NOMEM or the core's status when an allocation fails. On
 * failure nothing is kept. */
static spmvlab_status vbr_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                  spmvlab_err *err)
{
    const vbr_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(vbr_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    f->store_f32 = A->dtype == SPMVLAB_F64 && o->values == VBR_VALUES_F32;
    f->steps = o->steps;
    spmvlab_status st = f->store_f32 ? vbr_check_f32(ctx, A, err) : SPMVLAB_OK;
    vbr_count c;
    uint8_t *in_block = malloc((size_t)A->rows + 1);
    if (st == SPMVLAB_OK && !in_block)
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the vbr row partition");
    if (st == SPMVLAB_OK) {
        vbr_count_blocks(A, o, in_block, &c);
        f->rem_lanes = vbr_rem_lanes(o, &c);
        vbr_rem_path(f, A, in_block, o, &c);
        st = vbr_check_bytes(ctx, A, o, &c, f->store_f32, err);
        if (st == SPMVLAB_OK)
            st = vbr_check_structure(ctx, A, o, &c, err);
    }
    if (st == SPMVLAB_OK && !f->store_f32) /* the blocks hold no padding; the remainder stays native */
        st = spmvlab_value_store_choose(ctx, A, o->values, 1, 0, &f->vs, err);
    if (st == SPMVLAB_OK)
        st = vbr_build(f, A, in_block, &c, err);
    free(in_block);
    if (st == SPMVLAB_OK)
        st = vbr_rem_finish(f, err);
    const size_t run = spmvlab_dtype_size(f->dtype), vs = f->store_f32 ? 4 : run, i4 = sizeof(int32_t);
    const size_t nq = f->qptr ? (size_t)f->nq : 0, nr = f->rptr ? (size_t)f->nr : 0;
    /* merge: rptr over all rows; the pass's tile starts and carries (in the run's dtype) */
    const size_t nptr = f->rem_merge ? (size_t)f->rows : nr;
    const size_t mtiles = (size_t)f->mdev.tiles; /* 0 on the vector path */
    /* a part without rows, or a row map of all rows, has no arrays: 0 bytes */
    const spmvlab_array arrays[] = {
        {(void **)&f->d_qrow, f->qrow, f->qrow ? nq * i4 : 0},
        {(void **)&f->d_qptr, f->qptr, nq ? (nq + 1) * i4 : 0},
        {(void **)&f->d_qblk, f->qblk, nq * i4},
        {(void **)&f->d_bcol, f->bcol, nq ? (size_t)f->nblocks * i4 : 0},
        {(void **)&f->d_bwid, f->bwid, nq ? (size_t)f->nblocks : 0},
        {&f->d_bval, f->bval, nq ? (size_t)f->blocked_nnz * (f->vs.kind == SPMVLAB_STORE_NATIVE ? vs : f->vs.elem) : 0},
        {(void **)&f->d_rrow, f->rrow, f->rrow ? nr * i4 : 0},
        {(void **)&f->d_rptr, f->rptr, nr ? (nptr + 1) * i4 : 0},
        {(void **)&f->d_rcol, f->rcol, nr ? (size_t)f->rem_nnz * i4 : 0},
        {&f->d_rval, f->rval, nr ? (size_t)f->rem_nnz * vs : 0},
        {(void **)&f->mdev.coords, f->mcoords,
         mtiles && f->mdev.search != MERGE_SEARCH_BLOCK ? (mtiles + 1) * sizeof(merge_coord) : 0},
        {(void **)&f->mdev.carry_row, NULL, mtiles * i4},
        {&f->mdev.carry_val, NULL, mtiles * run},
    };
    size_t unused = 0;
    if (st == SPMVLAB_OK)
        st = spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err);
    if (st == SPMVLAB_OK)
        st = spmvlab_value_store_upload(ctx, &f->vs, &unused, err);
    f->mdev.row_ptr = f->d_rptr;
    f->mdev.col_idx = f->d_rcol;
    f->mdev.val = f->d_rval;
    if (st == SPMVLAB_OK && f->store_f32)
        ctx->declare_storage(ctx, SPMVLAB_F32);
    if (st == SPMVLAB_OK)
        ctx->log(ctx, "vbr: %d block rows (%d rows) with %d blocks, %d remainder rows with %d entries (%s)", f->nbr,
                 f->nq, f->nblocks, f->nr, f->rem_nnz, f->rem_merge ? "merge pass" : "vector");
    return spmvlab_converted(st, f, vbr_destroy, out);
}

/* y = A x on the device: the block part's and the remainder's launches
 * (merge: the merge pass first, the block kernel adding).
 * Returns CUDA_ERROR with the runtime's text when a launch failed. */
SPMVLAB_SPMV_BY_LAUNCHER(vbr, vbr_fmt, f)

SPMVLAB_SPMV_HOST_F64_F32(vbr, vbr_fmt, dtype)

static size_t vbr_footprint(const void *fmt) { return (size_t)vbr_bytes(fmt); }

/* Facts for reports: the block rows and their mean height, the blocks and
 * their mean entries, the share of entries in blocks, the remainder and its
 * lanes, the device bytes per non-zero, the storage, the remainder path
 * with its rows' variation and the merge pass's shape (none on the vector
 * path) and tiles. */
static void vbr_describe(const void *fmt, char *buf, size_t len)
{
    static const char *const kinds[] = {"staged", "direct"}, *const places[] = {"block", "launch", "convert"};
    const vbr_fmt *f = fmt;
    char pass[64] = "none";
    if (f->rem_merge)
        snprintf(pass, sizeof pass, "%s/%d/%s", kinds[f->mdev.products], f->mdev.items, places[f->mdev.search]);
    snprintf(buf, len,
             "block_rows=%d mean_height=%.2f blocks=%d mean_block=%.2f blocked=%.3f rem_rows=%d rem_nnz=%d "
             "rem_lanes=%d steps=%d bytes_per_nnz=%.2f values=%s remainder=%s rem_cv=%.3f merge_pass=%s "
             "merge_tiles=%d",
             f->nbr, f->nbr > 0 ? (double)f->nq / f->nbr : 0.0, f->nblocks,
             f->nblocks > 0 ? (double)f->blocked_nnz / f->nblocks : 0.0,
             f->nnz > 0 ? (double)f->blocked_nnz / f->nnz : 0.0, f->nr, f->rem_nnz, f->rem_lanes, f->steps,
             f->nnz > 0 ? vbr_bytes(f) / f->nnz : 0.0, f->store_f32 ? "f32" : spmvlab_value_store_name(&f->vs),
             f->rem_merge ? "merge" : "vector", f->rem_cv, pass, f->mdev.tiles);
}

SPMVLAB_PLUGIN_DEFINE(vbr, "2.2.0", SPMVLAB_DTYPES_F64_F32,
                      "variable block row (1D-VBL): dense blocks from runs of rows with one pattern, CSR remainder",
                      "A. Pinar, M. T. Heath, Improving performance of sparse matrix-vector multiplication, SC'99 "
                      "(1D-VBL); Y. Saad, SPARSKIT: a basic tool kit for sparse matrix computations, 1994 (VBR)",
                      .check_options = vbr_check_options, .footprint = vbr_footprint);
