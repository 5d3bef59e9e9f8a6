/*
 * bccoo — blocked COO with row-end bit flags and compressed column indices
 * (S. Yan, C. Li, Y. Zhang, H. Zhou, "yaSpMV: yet another SpMV framework
 * on GPUs", PPoPP'14).
 *
 * Format: the matrix in h x w blocks (aligned to multiples of h and w),
 * only the non-empty ones stored, in COO order of blocks (block rows in
 * turn, block columns ascending within one). No row index: one bit a block
 * marks the last block of its block row, so the k-th set bit ends the k-th
 * non-empty block row (a map of those block rows is kept only when some
 * block row is empty). Column indices are block columns, compressed to
 * 16-bit differences from the previous block of the same thread's group of
 * BCCOO_PER_THREAD blocks, from a 32-bit base a group; a group whose
 * differences do not fit 16 bits stores its columns in full (escape).
 * Blocks are laid out in chunks of BCCOO_CHUNK (one thread block), slot-
 * major within a chunk so a warp's loads are consecutive; the last chunk
 * is padded with zero blocks.
 * Kernel (bccoo.cu): each thread adds its BCCOO_PER_THREAD blocks into h
 * sums and writes a segment at each set flag; a block-wide segmented scan
 * passes the open segment to the next thread and the chunk's to a fix-up.
 * Device bytes: slots·h·w·s + slots·2 + threads·5 + escaped·32 + chunks·4
 *   + [4·segments] + chunks·(4 + h·s), slots = 1024·chunks,
 *   threads = 128·chunks, chunks = ceil(blocks / 1024), s = 8 or 4.
 * Options: height, width (1, 2 or 4, auto: the shape of fewest bytes).
 * Limits: f64 and f32.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bccoo_format.h"

static spmvlab_status bccoo_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const bccoo_opts *o = spmvlab_opts_fields(opts);
    if (o->height == 3)
        return spmvlab_bad_option(err, "bccoo option height = 3 must be 1, 2 or 4 (the compiled block shapes)");
    if (o->width == 3)
        return spmvlab_bad_option(err, "bccoo option width = 3 must be 1, 2 or 4 (the compiled block shapes)");
    return SPMVLAB_OK;
}

/* Bytes a stored block costs besides its values: a 16-bit delta, a flag
 * bit and its share of the group's base and flags byte. */
#define BCCOO_INDEX_BYTES_PER_BLOCK (2.0 + 5.0 / BCCOO_PER_THREAD)

/* The shape of fewest device bytes among h, w in {1, 2, 4} (a fixed option
 * keeps its value); ties go to the smaller block, which wastes no padding.
 * A shape whose blocks fill fewer than min_chunks chunks gives way to 1x1
 * (when 1x1 is a candidate): there the device is short of thread blocks,
 * not of bytes (banded and clustered members of 6e4 to 6e5 non-zeros in
 * 4x4 or 1x4 blocks ran below 0.8x cuSPARSE, and 1x1 members of the same
 * sizes at 0.9x to 1.3x; measured on the corpus tune part, README.md,
 * docs/perf/2026-11-28-corpus-tune). Returns 0, or -1 when out of host
 * memory. */
static int choose_shape(const spmvlab_matrix *A, const bccoo_opts *o, size_t vs, int *h, int *w)
{
    int64_t best_blocks = 0, unit_blocks = -1;
    double best = -1;
    for (int hh = 1; hh <= 4; hh *= 2)
        for (int ww = 1; ww <= 4; ww *= 2) {
            if ((o->height != SPMVLAB_AUTO && o->height != hh) || (o->width != SPMVLAB_AUTO && o->width != ww))
                continue;
            int64_t blocks = block_count(A, hh, ww);
            if (blocks < 0)
                return -1;
            if (hh * ww == 1)
                unit_blocks = blocks;
            double bytes = (double)blocks * ((double)(hh * ww) * (double)vs + BCCOO_INDEX_BYTES_PER_BLOCK);
            if (best < 0 || bytes < best || (bytes == best && hh * ww < *h * *w)) {
                best = bytes;
                best_blocks = blocks;
                *h = hh;
                *w = ww;
            }
        }
    if (unit_blocks > best_blocks && best_blocks < (int64_t)o->min_chunks * BCCOO_CHUNK)
        *h = *w = 1;
    return 0;
}

static void bccoo_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(bccoo_format, f, handle);
    bccoo_dev *d = &f->dev;
    void *const dev[] = {(void *)d->val,  (void *)d->flags, (void *)d->base, (void *)d->delta, (void *)d->esc,
                         (void *)d->seg0, (void *)d->brow,  d->carry_key,    d->carry_val};
    void *const host[] = {f->carry_val};
    bccoo_arrays_free(&f->a);
    spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host));
}

static spmvlab_status upload(bccoo_format *f, size_t vs, spmvlab_err *err)
{
    const bccoo_arrays *a = &f->a;
    bccoo_dev *d = &f->dev;
    size_t slots = (size_t)a->chunks * BCCOO_CHUNK, threads = (size_t)a->chunks * BCCOO_THREADS;
    const spmvlab_array arrays[] = {
        {(void **)&d->val, a->val, slots * (size_t)(a->h * a->w) * vs},
        {(void **)&d->flags, a->flags, threads},
        {(void **)&d->base, a->base, threads * 4},
        {(void **)&d->delta, a->delta, slots * 2},
        {(void **)&d->esc, a->esc, (size_t)a->escaped * BCCOO_PER_THREAD * 4},
        {(void **)&d->seg0, a->seg0, (size_t)a->chunks * 4},
        {(void **)&d->brow, a->brow, a->brow ? (size_t)a->segments * 4 : 0},
        /* scratch the chunks write and the fix-up reads */
        {(void **)&d->carry_key, NULL, (size_t)a->chunks * 4},
        {(void **)&d->carry_val, NULL, (size_t)a->chunks * (size_t)a->h * vs},
    };
    return spmvlab_dev_put_all(f->ctx, arrays, SPMVLAB_COUNT(arrays), &f->dev_bytes, err);
}

static spmvlab_status bccoo_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                    spmvlab_err *err)
{
    const bccoo_opts *o = spmvlab_opts_fields(opts);
    SPMVLAB_CONVERT_BEGIN(bccoo_format, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    const size_t vs = spmvlab_dtype_size(A->dtype);
    int h = 1, w = 1;
    f->shape_auto = o->height == SPMVLAB_AUTO || o->width == SPMVLAB_AUTO;
    spmvlab_status st = SPMVLAB_OK;
    if (choose_shape(A, o, vs, &h, &w) != 0 || bccoo_build(&f->a, A, vs, h, w) != 0 ||
        !(f->carry_val = calloc(4, sizeof(double))))
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the blocks of %d non-zeros", A->nnz);
    if (st == SPMVLAB_OK) {
        bccoo_dev *d = &f->dev;
        d->rows = A->rows;
        d->cols = A->cols;
        d->chunks = f->a.chunks;
        d->segments = f->a.segments;
        d->block_rows = f->a.block_rows;
        d->h = h;
        d->w = w;
        d->dtype = A->dtype;
        st = upload(f, vs, err);
    }
    return spmvlab_converted(st, f, bccoo_destroy, out);
}

SPMVLAB_SPMV_BY_LAUNCHER(bccoo, bccoo_format, &f->dev)

SPMVLAB_SPMV_HOST_F64_F32(bccoo, bccoo_format, dtype)

/* The shape, the blocks and their fill, the escapes and the bytes. */
static void bccoo_describe(const void *handle, char *buf, size_t len)
{
    const bccoo_format *f = handle;
    const bccoo_arrays *a = &f->a;
    snprintf(buf, len, "shape=%dx%d(%s) blocks=%d fill=%.3f chunks=%d escaped_groups=%d row_map=%s bytes_per_nnz=%.3f",
             a->h, a->w, f->shape_auto ? "auto" : "fixed", a->blocks,
             f->nnz ? (double)a->blocks * a->h * a->w / f->nnz : 0.0, a->chunks, a->escaped, a->brow ? "yes" : "no",
             (double)f->dev_bytes / (f->nnz ? f->nnz : 1));
}

SPMVLAB_PLUGIN_DEFINE(bccoo, "1.0.0", SPMVLAB_DTYPES_F64_F32,
                      "blocked COO (yaSpMV): row-end bit flags, 16-bit column deltas, segmented sums over fixed work per thread",
                      "Yan, Li, Zhang, Zhou, yaSpMV: yet another SpMV framework on GPUs, PPoPP'14",
                      .check_options = bccoo_check_options);
