/*
 * CSR5 conversion drivers: on the host (csr5_build.c's arrays uploaded) or
 * on the GPU (csr5_convert.cu's kernels, then host copies downloaded for
 * spmv_host), and the comparison of the two (verify_convert). Every device
 * array comes from spmvlab_put, so the core counts the footprint.
 */
#include <stdlib.h>
#include <time.h>

#include "csr5_format.h"
#include "csr5_tile.h"

static double csr5_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* A tracked device array of bytes (NULL for 0 bytes), counted by the core. */
static spmvlab_status csr5_dev_array(csr5_fmt *f, const void **dst, size_t bytes, spmvlab_err *err)
{
    return spmvlab_put(f->ctx, (void **)dst, NULL, bytes, err);
}

/* Allocates a device array and uploads the host array src into it. */
spmvlab_status csr5_put(csr5_fmt *f, const void **dst, const void *src, size_t bytes, spmvlab_err *err)
{
    return spmvlab_put(f->ctx, (void **)dst, src, bytes, err);
}

/* Allocates a host copy and downloads the device array src into it. */
static spmvlab_status csr5_get(csr5_fmt *f, void **dst, const void *src, size_t bytes, spmvlab_err *err)
{
    *dst = malloc(bytes ? bytes : 1);
    if (!*dst)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for a %zu-byte host copy", bytes);
    return bytes ? f->ctx->download(f->ctx, *dst, src, bytes, err) : SPMVLAB_OK;
}

/* Device scratch for crossing rows: pieces and, inline, arrival counters. */
static spmvlab_status csr5_scratch(csr5_fmt *f, spmvlab_err *err)
{
    size_t vs = spmvlab_dtype_size(f->dtype), tiles = (size_t)f->d.tiles;
    const void *p = NULL;
    spmvlab_status st = csr5_dev_array(f, &p, tiles ? (2 * tiles + 1) * vs : 0, err);
    f->d.pieces = (void *)p;
    if (st == SPMVLAB_OK && f->d.calib_inline) {
        st = csr5_dev_array(f, &p, tiles * sizeof(int32_t), err);
        f->d.arrivals = (int32_t *)p;
    }
    return st;
}

spmvlab_status csr5_cuda_fail(csr5_fmt *f, spmvlab_err *err, int rc, const char *what)
{
    return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "%s failed: %s", what, csr5_cuda_error_text(rc));
}

/* Conversion without a GPU: build on the host, upload (emulated). */
spmvlab_status csr5_convert_host(csr5_fmt *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    csr5_arrays *h = &f->h;
    if (csr5_host_build(A, f->sigma, h))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory building %d tiles", f->d.tiles);
    size_t vs = spmvlab_dtype_size(f->dtype), tiles = (size_t)f->d.tiles;
    spmvlab_status st = csr5_put(f, (const void **)&f->d.row_ptr, h->row_ptr, ((size_t)f->rows + 1) * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_put(f, (const void **)&f->d.col, h->col, (size_t)f->nnz * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_put(f, &f->d.val, h->val, (size_t)f->nnz * vs, err);
    if (st == SPMVLAB_OK)
        st = csr5_put(f, (const void **)&f->d.tile_ptr, h->tile_ptr, (tiles + 1) * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_put(f, (const void **)&f->d.desc, h->desc, tiles * CSR5_OMEGA * f->W * 4, err);
    if (st == SPMVLAB_OK && h->eo_ptr)
        st = csr5_put(f, (const void **)&f->d.eo_ptr, h->eo_ptr, tiles * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_put(f, (const void **)&f->d.empty_offset, h->empty_offset, (size_t)h->n_eo * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_put(f, (const void **)&f->d.empty_rows, h->empty_rows, (size_t)h->n_empty * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_scratch(f, err);
    if (st == SPMVLAB_OK && f->d.arrivals && tiles) {
        int32_t *zero = calloc(tiles, sizeof *zero);
        if (!zero)
            return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for %zu counters", tiles);
        st = f->ctx->upload(f->ctx, f->d.arrivals, zero, tiles * 4, err);
        free(zero);
    }
    return st;
}

/* Sizes empty_offset and empty_rows from the per-tile and per-chunk counts
 * of step 1, allocates them and uploads the start positions. */
static spmvlab_status csr5_place_lists(csr5_fmt *f, csr5_gpu_build *b, int64_t nchunks, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    size_t tiles = (size_t)f->d.tiles;
    int32_t *slots = malloc(tiles ? tiles * 4 : 1), *first = malloc(nchunks ? (size_t)nchunks * 4 : 1);
    spmvlab_status st = SPMVLAB_OK;
    if (!slots || !first)
        st = ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %zu tile counts", tiles);
    if (st == SPMVLAB_OK)
        st = ctx->download(ctx, slots, b->tile_slots, tiles * 4, err);
    if (st == SPMVLAB_OK)
        st = ctx->download(ctx, first, b->empty_count, (size_t)nchunks * 4, err);
    if (st == SPMVLAB_OK) {
        for (size_t t = 0; t < tiles; t++)
            f->h.n_flagged += slots[t] > 0;
        int64_t n_eo = csr5_exclusive_sum(slots, (int64_t)tiles), n_empty = csr5_exclusive_sum(first, nchunks);
        if (n_eo < 0 || n_empty < 0)
            st = ctx->fail(ctx, err, SPMVLAB_INTERNAL, "slot or empty-row counts exceed int32");
        f->h.n_eo = (int32_t)n_eo;
        f->h.n_empty = (int32_t)n_empty;
    }
    if (st == SPMVLAB_OK && f->h.n_flagged)
        st = csr5_put(f, (const void **)&f->d.eo_ptr, slots, tiles * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, (const void **)&f->d.empty_offset, (size_t)f->h.n_eo * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, (const void **)&f->d.empty_rows, (size_t)f->h.n_empty * 4, err);
    if (st == SPMVLAB_OK && nchunks)
        st = ctx->upload(ctx, b->empty_count, first, (size_t)nchunks * 4, err);
    b->eo_ptr = (int32_t *)f->d.eo_ptr;
    b->empty_offset = (int32_t *)f->d.empty_offset;
    b->empty_first = b->empty_count;
    b->empty_rows = (int32_t *)f->d.empty_rows;
    free(slots);
    free(first);
    return st;
}

/* Downloads every array of the format into host copies. */
static spmvlab_status csr5_download_all(csr5_fmt *f, spmvlab_err *err)
{
    csr5_arrays *h = &f->h;
    size_t vs = spmvlab_dtype_size(f->dtype), tiles = (size_t)f->d.tiles;
    spmvlab_status st = csr5_get(f, (void **)&h->row_ptr, f->d.row_ptr, ((size_t)f->rows + 1) * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_get(f, (void **)&h->col, f->d.col, (size_t)f->nnz * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_get(f, &h->val, f->d.val, (size_t)f->nnz * vs, err);
    if (st == SPMVLAB_OK)
        st = csr5_get(f, (void **)&h->tile_ptr, f->d.tile_ptr, (tiles + 1) * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_get(f, (void **)&h->desc, f->d.desc, tiles * CSR5_OMEGA * f->W * 4, err);
    if (st == SPMVLAB_OK && f->d.eo_ptr)
        st = csr5_get(f, (void **)&h->eo_ptr, f->d.eo_ptr, tiles * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_get(f, (void **)&h->empty_offset, f->d.empty_offset, (size_t)h->n_eo * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_get(f, (void **)&h->empty_rows, f->d.empty_rows, (size_t)h->n_empty * 4, err);
    return st;
}

/* Conversion on the GPU from the core's device CSR; see csr5_convert.cu. */
spmvlab_status csr5_convert_gpu(csr5_fmt *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    spmvlab_ctx *ctx = f->ctx;
    size_t vs = spmvlab_dtype_size(f->dtype), tiles = (size_t)f->d.tiles;
    int64_t nchunks = ((int64_t)f->rows + CSR5_EMPTY_CHUNK - 1) / CSR5_EMPTY_CHUNK;
    double t0 = csr5_now_ms();
    csr5_gpu_build b = {.rows = f->rows, .nnz = f->nnz, .sigma = f->sigma, .tiles = f->d.tiles,
                        .value_size = vs, .src_row_ptr = A->d_row_ptr, .src_col = A->d_col_idx,
                        .src_val = A->d_val};
    const void *slots = NULL, *counts = NULL;
    int rc = 0;
    spmvlab_status st = csr5_dev_array(f, (const void **)&f->d.row_ptr, ((size_t)f->rows + 1) * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, (const void **)&f->d.col, (size_t)f->nnz * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, &f->d.val, (size_t)f->nnz * vs, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, (const void **)&f->d.tile_ptr, (tiles + 1) * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, (const void **)&f->d.desc, tiles * CSR5_OMEGA * f->W * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_scratch(f, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, &slots, tiles * 4, err);
    if (st == SPMVLAB_OK)
        st = csr5_dev_array(f, &counts, (size_t)nchunks * 4, err);
    if (st != SPMVLAB_OK)
        goto out;
    b.row_ptr = (int32_t *)f->d.row_ptr;
    b.col = (int32_t *)f->d.col;
    b.val = (void *)f->d.val;
    b.tile_ptr = (uint32_t *)f->d.tile_ptr;
    b.desc = (uint32_t *)f->d.desc;
    b.tile_slots = (int32_t *)slots;
    b.empty_count = (int32_t *)counts;
    b.arrivals = f->d.arrivals;
    /* A is on the device already (the core's uploads wait for their copies);
     * each step is waited for on the stream so that a failing kernel is
     * reported by its step. */
    if ((rc = csr5_gpu_build_tiles(&b, ctx->stream)) || (rc = csr5_gpu_wait(ctx->stream))) {
        st = csr5_cuda_fail(f, err, rc, "GPU conversion (tiles and transpose)");
        goto out;
    }
    st = csr5_place_lists(f, &b, nchunks, err);
    if (st != SPMVLAB_OK)
        goto out;
    if ((rc = csr5_gpu_build_lists(&b, ctx->stream)) || (rc = csr5_gpu_wait(ctx->stream))) {
        st = csr5_cuda_fail(f, err, rc, "GPU conversion (empty rows)");
        goto out;
    }
    f->gpu_ms = csr5_now_ms() - t0;
    st = csr5_download_all(f, err);
out:
    /* The temporaries are freed on every path; the format keeps the rest. */
    ctx->dev_free(ctx, (void *)slots);
    ctx->dev_free(ctx, (void *)counts);
    return st;
}

/* verify_convert: the host conversion must give the same arrays. */
spmvlab_status csr5_verify_gpu(csr5_fmt *f, const spmvlab_matrix *A, spmvlab_err *err)
{
    csr5_arrays ref;
    const char *which = "";
    if (csr5_host_build(A, f->sigma, &ref))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the verifying host conversion");
    int same = csr5_arrays_equal(&f->h, &ref, f->rows, f->nnz, f->sigma, spmvlab_dtype_size(f->dtype), &which);
    csr5_arrays_free(&ref);
    if (!same)
        return f->ctx->fail(f->ctx, err, SPMVLAB_INTERNAL, "the GPU conversion differs from the host conversion in %s",
                            which);
    return SPMVLAB_OK;
}
