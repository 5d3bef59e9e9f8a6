/*
 * csr5 — CSR5 (Weifeng Liu, Brian Vinter, "CSR5: An Efficient Storage Format
 * for Cross-Platform Sparse Matrix-Vector Multiplication", ICS 2015).
 *
 * Format: the non-zeros, in CSR order, are cut into tiles of omega x sigma
 * entries (omega = 32 lanes, one warp per tile); lane l of tile t owns the
 * sigma consecutive entries t*32*sigma + l*sigma + j. Inside a tile col and
 * val are stored column-major (entry (l, j) at t*32*sigma + j*32 + l), so at
 * step j a warp reads 32 consecutive words. The nnz mod 32*sigma entries
 * after the last full tile (the tail) stay in CSR order and are processed
 * row by row. Per tile: tile_ptr (row of its first entry; bit 31 set when
 * empty rows lie between the rows it holds) and one descriptor of W = 1 or
 * 2 words per lane packing the row-start bit flags (sigma bits), seg_offset
 * (5 bits) and y_offset (csr5_ybits bits); layout in csr5_tile.h. Tiles with
 * bit 31 map their row slots through empty_offset (from eo_ptr[t]); empty
 * rows are listed in empty_rows and zeroed by the kernel. row_ptr is kept
 * for the tail and for rows that cross tiles. No padding. With empty =
 * compress (A has empty and non-empty rows) all of this is built over the
 * non-empty rows only (rows' of them; no tile is flagged), row_map gives
 * A's row of each stored row for every store of y, and run_start/run_len
 * list the runs of empty rows (<= CSR5_RUN_MAX rows each) the kernel zeroes.
 *
 * Device bytes, s = sizeof(value), F = 1 when some tile spans empty rows:
 *   4 (rows + 1) + (4 + s) nnz + 4 (tiles + 1) + 128 W tiles + 4 F tiles
 *   + 4 n_empty_offset + 4 n_empty_rows + s (2 tiles + 1) [tiles > 0]
 *   + 4 tiles [calibrate = inline]
 *   + 4 rows' + 8 n_runs [empty = compress; rows' replaces rows above and
 *     F = n_empty_offset = n_empty_rows = 0]
 * the last two being scratch for the partial sums of crossing rows.
 *
 * Conversion: on the GPU when one is present (tile_ptr by binary search,
 * descriptors one thread per tile, the transpose one thread per entry,
 * csr5_convert.cu), else on the host with the same per-tile code
 * (csr5_build.c); host copies of all arrays are kept for spmv_host.
 *
 * Options: sigma (auto or 1..32; auto: 4 for mean row length <= 4, the
 * rounded mean up to 32, 32 above; 4 again where that fills fewer than
 * min_tiles tiles), min_tiles, calibrate (kernel, default: a second
 * launch finishes the crossing rows; inline: the last tile to finish a
 * crossing row writes it, one launch), launch (overlap: the calibration as
 * a programmatic dependent launch on sm_90+; serial), arrive (inline:
 * release-only arrival increments with strong loads of the pieces, or
 * acq_rel, which invalidates the SM's L1 each time), occupancy (3 | 4:
 * blocks per SM the f64 kernel for sigma >= 12 is compiled for), stores
 * (direct: each lane stores its rows; staged: through a shared-memory stage
 * as consecutive rows; auto: staged for sigma <= 12 without empty rows),
 * empty (offsets: the paper's flagged tiles; compress: tiles over the
 * non-empty rows, a row map and zeroed runs), sigma_mean (all | stored:
 * sigma = auto under compress from the mean over all rows or over the
 * non-empty ones), verify_convert (compare a GPU conversion with the host
 * one).
 *
 * Limits: f64 and f32. One spmv at a time per converted matrix (the partial
 * sums and counters are scratch inside the format). int32 indices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csr5_format.h"
#include "csr5_tile.h"

#undef CSR5_OPT

/* The paper's rule for GPUs, from the mean row length. */
static int csr5_mean_sigma(const spmvlab_matrix *A)
{
    double mean = A->rows ? (double)A->nnz / A->rows : 0.0;
    if (mean <= 4.0)
        return CSR5_SMALL_SIGMA;
    if (mean >= 32.0)
        return 32;
    return (int)(mean + 0.5);
}

/* sigma = auto: the mean rule, unless its tiles number fewer than
 * min_tiles; then CSR5_SMALL_SIGMA, whose smaller tiles spread a small
 * matrix over more of the GPU, or, for a matrix that would fill fewer
 * than 3 such tiles, CSR5_TAIL_SIGMA: no tile, the tail alone. Fitted on
 * the corpus's tune part, where sigma 4 lifted the small matrices of long
 * rows from 0.63x cuSPARSE and lost past about 512 tiles (README.md,
 * "sigma = auto"; docs/perf/2026-11-28-corpus-tune, "Round 2"). */
static int csr5_auto_sigma(const spmvlab_matrix *A, int min_tiles)
{
    if (min_tiles > 0 && A->nnz < CSR5_TAIL_ONLY_NNZ)
        return CSR5_TAIL_SIGMA;
    int sigma = csr5_mean_sigma(A);
    return A->nnz / ((int64_t)CSR5_OMEGA * sigma) < min_tiles ? CSR5_SMALL_SIGMA : sigma;
}

static void csr5_destroy(void *handle)
{
    SPMVLAB_DESTROY_BEGIN(csr5_fmt, f, handle);
    void *const dev[] = {(void *)f->d.row_ptr,      (void *)f->d.col,        (void *)f->d.val,
                         (void *)f->d.tile_ptr,     (void *)f->d.desc,       (void *)f->d.eo_ptr,
                         (void *)f->d.empty_offset, (void *)f->d.empty_rows, f->d.pieces,
                         f->d.arrivals,             (void *)f->d.row_map,    (void *)f->d.run_start,
                         (void *)f->d.run_len};
    spmvlab_free_all(f->ctx, dev, SPMVLAB_COUNT(dev));
    csr5_arrays_free(&f->h);
    free(f->h_pieces);
    free(f);
}

/* sigma and what follows from it: descriptor words and full tiles. */
static void csr5_set_sigma(csr5_fmt *f, int sigma)
{
    f->sigma = sigma;
    f->W = csr5_desc_words(sigma);
    f->d.sigma = sigma;
    f->d.tiles = (int32_t)(f->nnz / ((int64_t)CSR5_OMEGA * sigma));
}

static spmvlab_status csr5_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                   spmvlab_err *err)
{
    SPMVLAB_CONVERT_BEGIN(csr5_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err);
    f->rows_all = A->rows;
    const csr5_opts *o = spmvlab_opts_fields(opts);
    f->sigma_auto = o->sigma == SPMVLAB_AUTO;
    csr5_set_sigma(f, f->sigma_auto ? csr5_auto_sigma(A, o->min_tiles) : o->sigma);
    f->d.rows = A->rows;
    f->d.calib_inline = o->calibrate == CSR5_CAL_INLINE;
    f->d.arrive_release = o->arrive == CSR5_ARRIVE_RELEASE;
    f->d.occ4 = o->occupancy == CSR5_OCCUPANCY_4;
    f->d.pdl = ctx->device->present && ctx->device->cc_major >= 9 && o->launch == CSR5_LAUNCH_OVERLAP;
    f->d.is_f64 = A->dtype == SPMVLAB_F64;
    f->on_gpu = ctx->device->present && A->d_row_ptr && (A->nnz == 0 || (A->d_col_idx && A->d_val));
    const int want_compress = o->empty == CSR5_EMPTY_COMPRESS;
    for (int32_t r = 0; want_compress && r < A->rows; r++) /* offsets counts them while converting */
        f->n_empty_all += A->row_ptr[r + 1] == A->row_ptr[r];
    /* empty = compress: the format is built over Ac, A without its empty
     * rows (same col/val order); without empty rows, or with nothing but
     * empty rows, it is the same as offsets. */
    spmvlab_matrix Ac = *A;
    csr5_arrays map = {0};
    int32_t *crp = NULL;
    const void *d_crp = NULL;
    spmvlab_status st = SPMVLAB_OK;
    if (want_compress && f->n_empty_all > 0 && f->n_empty_all < A->rows) {
        if (csr5_compress_rows(A, &crp, &Ac.rows, &map)) {
            free(f);
            return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the compressed row pointer");
        }
        f->compress = 1;
        f->rows = Ac.rows;
        f->d.rows = Ac.rows;
        Ac.row_ptr = crp;
        if (f->on_gpu) {
            st = csr5_put(f, &d_crp, crp, ((size_t)Ac.rows + 1) * 4, err);
            Ac.d_row_ptr = d_crp;
        }
    }
    if (f->compress && f->sigma_auto && o->sigma_mean == CSR5_MEAN_STORED) {
        /* The paper's rule over the rows the tiles hold. */
        csr5_set_sigma(f, csr5_auto_sigma(&Ac, o->min_tiles));
    }
    if (st == SPMVLAB_OK)
        st = f->on_gpu ? csr5_convert_gpu(f, &Ac, err) : csr5_convert_host(f, &Ac, err);
    if (st == SPMVLAB_OK && f->on_gpu && o->verify_convert)
        st = csr5_verify_gpu(f, &Ac, err);
    if (d_crp) {
        ctx->dev_free(ctx, (void *)d_crp);
    }
    free(crp);
    if (f->compress) {
        /* The host build starts from cleared arrays: attach the map after it. */
        f->h.row_map = map.row_map;
        f->h.run_start = map.run_start;
        f->h.run_len = map.run_len;
        f->h.n_runs = map.n_runs;
        f->d.n_runs = map.n_runs;
        const spmvlab_array arrays[] = {
            {(void **)&f->d.row_map, map.row_map, (size_t)f->rows * 4},
            {(void **)&f->d.run_start, map.run_start, (size_t)map.n_runs * 4},
            {(void **)&f->d.run_len, map.run_len, (size_t)map.n_runs * 4},
        };
        if (st == SPMVLAB_OK)
            st = spmvlab_put_all(ctx, arrays, SPMVLAB_COUNT(arrays), err);
    }
    if (st != SPMVLAB_OK) {
        csr5_destroy(f);
        return st;
    }
    f->h_pieces = malloc((2 * (size_t)f->d.tiles + 1) * spmvlab_dtype_size(f->dtype));
    if (!f->h_pieces) {
        csr5_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d partial sums", 2 * f->d.tiles + 1);
    }
    if (!f->compress)
        f->n_empty_all = f->h.n_empty;
    /* stores = auto: the stage pays where tiles hold many short rows and
     * lose to it where rows are long or empty rows intervene (README). */
    f->stores_auto = o->stores == CSR5_STORES_AUTO;
    f->d.staged = f->stores_auto ? f->sigma <= CSR5_STAGE_SIGMA_MAX && f->n_empty_all == 0
                                 : o->stores == CSR5_STORES_STAGED;
    csr5_layout_scalars(f);
    ctx->log(ctx, "csr5: sigma %d, %d tiles, tail from %d, %d crossing rows, converted on the %s", f->sigma,
             f->d.tiles, f->d.tail_start, f->d.n_cross, f->on_gpu ? "GPU" : "host");
    *out = f;
    return SPMVLAB_OK;
}

static spmvlab_status csr5_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    csr5_fmt *f = handle;
    if (f->rows == 0)
        return SPMVLAB_OK;
    return spmvlab_launched(f->ctx, err, csr5_spmv_launch(&f->d, x, y, stream), csr5_cuda_error_text, "kernel launch");
}

SPMVLAB_SPMV_HOST_F64_F32(csr5, csr5_fmt, dtype)

static void csr5_describe(const void *handle, char *buf, size_t len)
{
    const csr5_fmt *f = handle;
    int n = snprintf(buf, len,
                     "sigma=%d%s tiles=%d tail_nnz=%d empty_rows=%d empty_row_tiles=%d cross_rows=%d "
                     "desc_words=%d calibrate=%s launch=%s arrive=%s occupancy=%d stores=%s%s empty=%s zero_runs=%d "
                     "convert=%s",
                     f->sigma, f->sigma_auto ? "(auto)" : "", f->d.tiles, f->nnz - f->d.tail_start, f->n_empty_all,
                     f->h.n_flagged, f->d.n_cross, f->W, f->d.calib_inline ? "inline" : "kernel",
                     f->d.pdl ? "overlap" : "serial",
                     f->d.arrive_release ? "release" : "acq_rel", f->d.occ4 ? 4 : 3,
                     f->d.staged ? "staged" : "direct", f->stores_auto ? "(auto)" : "",
                     f->compress ? "compress" : "offsets", f->h.n_runs, f->on_gpu ? "gpu" : "host");
    if (f->on_gpu && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " gpu_convert_ms=%.3f", f->gpu_ms);
}

SPMVLAB_PLUGIN_DEFINE(csr5, "1.1.0", SPMVLAB_DTYPES_F64_F32,
                      "CSR5: 32 x sigma tiles, transposed, bit-flag descriptors, segmented sums",
                      "W. Liu, B. Vinter, CSR5: An Efficient Storage Format for Cross-Platform Sparse "
                      "Matrix-Vector Multiplication, ICS 2015");
