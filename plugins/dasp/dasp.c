/*
 * dasp — sparse matrix-vector multiply on the dense MMA (tensor core) units:
 * Yuechen Lu and Weifeng Liu, "DASP: Specific Dense Matrix Multiply-
 * Accumulate Units Accelerated General Sparse Matrix-Vector Multiplication",
 * SC'23.
 *
 * The MMA trick. An MMA computes C(16 or 8 x 8) += A(. x K) B(K x 8). Put 8
 * rows' values in A (row g, K slots) and, in column g of B, x gathered at
 * those rows' columns: then C[g][g] is row g's dot product. Only the 8
 * diagonal results are used; with distinct column patterns no more than
 * N = 8 results can come out of one MMA, so rows 8-15 of the m16 shapes are
 * zero. Lane 4g+t of the warp loads VPL consecutive values and columns of
 * block row g (coalesced vector loads) and gathers x for exactly the slots
 * it holds: its A and B registers pair slot for slot, no shuffles. C[g][g]
 * lands in lane 4g + g/2, element g & 1, for every shape.
 *
 * Rows by length (one pass, then a counting sort; linear in rows + nnz):
 *   empty   (0)                 written as 0 by the tail warps, every call;
 *           with empty_runs = 1 kept as runs (start, length) of consecutive
 *           empty rows (<= DASP_RUN_MAX each), DASP_RUNS_PER_WARP runs a
 *           run warp, each run written whole (32 consecutive rows a store).
 *   short   (1..4)              packed into tiles of 8 rows x 4 slots: a
 *           length-1 row with a length-3 row, two length-2 rows, or one
 *           row of length 4 (also leftover 3s and an odd 2) per tile row.
 *           Each packing segment is one MMA with x masked to its slots
 *           (1&3: {0},{1,2,3}; 2&2: {0,1},{2,3}; 4: {0..3}), so a tile
 *           yields 16 or 8 rows. Shape: m8n8k4 (f64), m16n8k8 (f16).
 *           Leftover length-1 rows are singles: one thread, one product.
 *   medium  (5 .. max_len-1)    sorted by length (longest first, stable),
 *           8 at a time into row-blocks, each cut into 8 x BK blocks
 *           (BK = K of the shape) kept while at least `threshold` of the
 *           block's slots are real entries; larger shapes then go on with
 *           narrower levels (BK/2, ..., 4 on the same dtype's MMA) from
 *           where the wider level stopped, so rows of 5-15 entries still
 *           use the tensor cores. The rest of each row is the irregular
 *           part, CSR on the CUDA cores. A warp runs rows_per_warp / 8
 *           row-blocks together (one accumulator each, their block loads
 *           issued together); then 32 / rows_per_warp lanes per row sum
 *           the irregular entries, take the row's MMA diagonal by shuffle
 *           and store y once.
 *   long    (>= max_len)        stored whole (padded to a multiple of VPL),
 *           read as tiles of 8 x BK consecutive values, `long_chunk` values
 *           per warp segment. A row of one segment is stored by its warp; a
 *           longer row is reduced in the same launch: each warp writes its
 *           partial, the last one to finish (atomic counter per row, reset
 *           by that warp) adds the partials in a fixed order and stores y.
 *           Deterministic, balanced for power-law rows, no second kernel.
 * One launch runs all four parts (long warps first); every result goes to
 * y in the original row order. Padding slots have column -1: no x is
 * loaded, 0 is used (an Inf or NaN in x cannot leak into other rows).
 *
 * Arrays (device, and host copies for spmv_host), V = value size, Pz =
 * partial size (8 for f64, 4 for f16), NL = medium levels, Q = medium
 * block values / 32:
 *   medium  med_val/med_col: 32 Q (V + 4); rb_ptr: 4 (NL rb + 1);
 *           med_row: 4 * 8 rb; irr_ptr: 4 (8 rb + 1); irr_val/col: irr (V + 4);
 *           rb_base, rb_irr (med_rows = runs): 4 rb + 8 rb
 *   short   sh_val/sh_col: 32 tiles (V + 4); sh_row: 4 (16 t13 + 16 t22 + 8 t4)
 *   tail    single row/col/val: singles (8 + V); empty_row: 4 empty, or with
 *           empty_runs = 1 run_start/run_len: 8 runs (no empty_row)
 *   long    long_val/col: stored (V + 4); long_ptr: 8 (L + 1); long_row: 4 L;
 *           seg_ptr: 4 (L + 1); seg_row: 4 segs; partial: Pz segs; count: 4 L
 *   stage   (empty_rows = stage) stage_pos: 4 rows; stage_y: V (rows - empty), device only;
 *           the row arrays above then hold slots of stage_y, not rows
 * rb_ptr[rb * NL + l] is where level l of row-block rb starts, in units of
 * 32 values; blocks are row-major 8 x BK. An empty array is not allocated.
 *
 * Options: max_len (auto: len_rule wide, 64; len_rule paper, 256 and 512 from
 * 2^20 non-zeros), threshold (0.75), rows_per_warp (8, 16 or 32;
 * auto: 8 below 59990 medium rows, 16 below 400000, else 32, as the
 * paper's 1/2/4 row-blocks per warp), f64_shape (m8n8k4 | m16n8k4 | m16n8k8 | m16n8k16;
 * the m16 shapes are sm_90 instructions, run as 1/2/4 m8n8k4 on sm_80),
 * f16_shape (m16n8k8 | m16n8k16), long_chunk (1024 values per long warp),
 * empty_runs (0 | 1, see above), rpw_rule (count | length: with
 * rows_per_warp = auto, length takes 8 whenever the medium rows average at
 * least DASP_RPW_LEN = 16 entries, else the count rule), threshold_rule (fixed | fill:
 * when the blocks kept at `threshold` hold less than 0.9 real entries, the
 * conversion is redone with threshold 1, only full blocks).
 *
 * balance (auto | off | on): the balanced path instead of the row classes.
 * It runs every row as CSR on the CUDA cores, cut by merge path (Merrill &
 * Garland, SC'16) into warps of DASP_BAL_ITEMS rows + non-zeros each; rows
 * spanning warps are summed from per-warp pieces by the last warp to finish
 * them (dasp_balanced.c, dasp_balanced.cu; bal_kernel = merge), or cut into
 * tiles of 32 stream_k non-zeros (bal_kernel = stream, the default,
 * dasp_stream.cu). auto (the default) takes it when the coefficient of
 * variation of the row lengths is at least DASP_AUTO_BALANCE_CV, unless
 * most rows are empty or a large matrix's unevenness is a few huge rows
 * (dasp_format.h, fitted on the corpus's tune part). Its
 * device bytes: 4 (rows + 1) + nnz (V + 4) for the CSR, 8 (W + 1) + (8 + Pz) W
 * for the W warps' coordinates, crossing ids and tail pieces, (16 + Pz) X
 * for the X crossing rows (row, warps, head piece, counter); stream: the
 * CSR's nnz padded to 32 stream_k W, plus 128 W for the lanes' first rows.
 * l1 (driver | max): max sets the row-class kernels' shared-memory carveout
 * to 0, all L1, as the original program. med_rows (runs | index): runs
 * keeps only the first row of a row-block of 8 consecutive medium rows,
 * and {offset, count} of one whose rows have equal irregular counts.
 * block_warps (auto: bw_rule spread, the size rule halved while the kernel has fewer than
 * DASP_SPREAD_BLOCKS blocks; it applies to the stream kernel too).
 * empty_rows, med_ranges, irr_gather's rule: dasp_layout.c; k4_batch:
 * dasp_spmv.cu; irr_gather: dasp_rows.cuh.
 *
 * dtypes: f64 (f64 MMA) and f16 (f16 x f16 MMA with f32 accumulators, f32
 * on the CUDA cores, y rounded to binary16 once). No f32: the tensor cores'
 * f32-input mode (tf32) cannot meet the f32 error bound.
 * Limits: one spmv at a time per instance (the long-row partials and
 * counters live in the format); segments and offsets within int32.
 *
 * The option table and the auto rules are in dasp_options.c; this file
 * converts, launches, runs on the CPU and describes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

#include "dasp_format.h"

static const char *const dasp_shape_names[] = {"m8n8k4",  "m16n8k4",  "m16n8k8",
                                               "m16n8k16", "m16n8k8",  "m16n8k16", "m16n8k8/k4"};

static void dasp_destroy(void *handle)
{
    dasp_format *f = handle;
    if (!f)
        return;
    for (int i = 0; i < DASP_A_NUM; i++) {
        f->ctx->dev_free(f->ctx, f->a[i].dev);
        free(f->a[i].host);
    }
    free(f);
}

/* Copies every host array to tracked device memory (the core counts it:
 * the footprint is the core's). */
static spmvlab_status dasp_upload(dasp_format *f, spmvlab_err *err)
{
    for (int i = 0; i < DASP_A_NUM; i++) {
        spmvlab_status st = spmvlab_put(f->ctx, &f->a[i].dev, f->a[i].host, f->a[i].bytes, err);
        if (st != SPMVLAB_OK)
            return st;
    }
    return SPMVLAB_OK;
}

/* The balanced path's kernel view. */
static void dasp_fill_bal(dasp_format *f)
{
    dasp_bal_launch *L = &f->bal;
#define DEV(id) (f->a[id].dev)
    L->f16 = f->dtype == SPMVLAB_F16;
    L->stream = f->bal_stream;
    L->nnz = f->nnz;
    L->str_k = f->str_k;
    L->lane_row = DEV(DASP_A_BAL_LANE_ROW);
    L->row_ptr = DEV(DASP_A_BAL_ROW_PTR);
    L->col = DEV(DASP_A_BAL_COL);
    L->val = DEV(DASP_A_BAL_VAL);
    L->w_row = DEV(DASP_A_BAL_W_ROW);
    L->w_nz = DEV(DASP_A_BAL_W_NZ);
    L->w_cross = DEV(DASP_A_BAL_W_CROSS);
    L->x_row = DEV(DASP_A_BAL_X_ROW);
    L->x_w0 = DEV(DASP_A_BAL_X_W0);
    L->x_w1 = DEV(DASP_A_BAL_X_W1);
    L->tail = DEV(DASP_A_BAL_TAIL);
    L->head = DEV(DASP_A_BAL_HEAD);
    L->count = DEV(DASP_A_BAL_COUNT);
    L->rows = f->rows;
    L->warps = f->bal_warps;
    /* the merge kernel's shared stage is sized for DASP_BLOCK_THREADS */
    if (f->balanced && f->bal_stream && f->bw_spread)
        f->block_warps = dasp_spread_warps(f->block_warps, f->bal_warps);
    L->block_warps = f->bal_stream ? f->block_warps : DASP_BLOCK_THREADS / 32;
#undef DEV
}

/* The kernel's view: device pointers, the warps of each part, the empty-row
 * mode's fields and the medium ranges; the one place the launch is computed. */
static void dasp_fill_launch(dasp_format *f)
{
    dasp_launch *L = &f->launch;
#define DEV(id) (f->a[id].dev)
    L->shape = (int32_t)f->shape;
    L->rb_per_warp = f->rows_per_warp / DASP_BM;
    L->l1_max = f->l1_max;
    L->seg_tiles = f->long_chunk / (DASP_BM * f->bk);
    L->w_long = f->n.segs;
    L->w_med = (f->n.rb + L->rb_per_warp - 1) / L->rb_per_warp;
    L->n_tiles13 = f->n.tiles13;
    L->n_tiles22 = f->n.tiles22;
    L->n_tiles4 = f->n.tiles4;
    int64_t tiles = f->n.tiles13 + f->n.tiles22 + f->n.tiles4;
    L->w_short = (tiles + DASP_SHORT_TILES_PER_WARP - 1) / DASP_SHORT_TILES_PER_WARP;
    L->n_single = f->n.singles;
    L->n_empty = dasp_empty_listed(f) ? f->n.empty : 0;
    L->w_tail = (f->n.singles + L->n_empty + DASP_TAIL_PER_WARP - 1) / DASP_TAIL_PER_WARP;
    L->n_runs = f->n.runs;
    L->w_runs = (f->n.runs + DASP_RUNS_PER_WARP - 1) / DASP_RUNS_PER_WARP;
    L->w_zero = f->empty_mode == DASP_ER_BITMAP
                    ? ((int64_t)f->rows + DASP_ZERO_ROWS_PER_WARP - 1) / DASP_ZERO_ROWS_PER_WARP
                    : 0;
    L->n_bit_words = ((int64_t)f->rows + 31) / 32;
    L->y_zero_bytes = f->empty_mode == DASP_ER_MEMSET ? (int64_t)f->rows * (int64_t)spmvlab_dtype_size(f->dtype) : 0;
    L->stage_rows = dasp_staged(f) ? f->rows : 0;
    L->stage_y = L->stage_rows ? DEV(DASP_A_STAGE_Y) : NULL;
    L->stage_pos = L->stage_rows ? DEV(DASP_A_STAGE_POS) : NULL;
    L->k4_batch8 = f->k4_batch8;
    if (!f->balanced && f->bw_spread)
        f->block_warps = dasp_spread_warps(
            f->block_warps, L->w_long + L->w_med + L->w_short + L->w_tail + L->w_runs + L->w_zero);
    L->block_warps = f->block_warps;
    L->irr_early = f->irr_early;
    L->n_ranges = f->n_ranges;
    memcpy(L->ranges, f->ranges, sizeof L->ranges);
    L->long_val = DEV(DASP_A_LONG_VAL);
    L->long_col = DEV(DASP_A_LONG_COL);
    L->long_ptr = DEV(DASP_A_LONG_PTR);
    L->long_row = DEV(DASP_A_LONG_ROW);
    L->seg_ptr = DEV(DASP_A_SEG_PTR);
    L->seg_row = DEV(DASP_A_SEG_ROW);
    L->partial = DEV(DASP_A_PARTIAL);
    L->count = DEV(DASP_A_COUNT);
    L->n_rb = f->n.rb;
    L->med_val = DEV(DASP_A_MED_VAL);
    L->med_col = DEV(DASP_A_MED_COL);
    L->rb_ptr = DEV(DASP_A_RB_PTR);
    L->med_row = DEV(DASP_A_MED_ROW);
    L->rb_base = DEV(DASP_A_RB_BASE);
    L->rb_irr = DEV(DASP_A_RB_IRR);
    L->irr_ptr = DEV(DASP_A_IRR_PTR);
    L->irr_col = DEV(DASP_A_IRR_COL);
    L->irr_val = DEV(DASP_A_IRR_VAL);
    L->sh_val = DEV(DASP_A_SH_VAL);
    L->sh_col = DEV(DASP_A_SH_COL);
    L->sh_row = DEV(DASP_A_SH_ROW);
    L->single_row = DEV(DASP_A_SINGLE_ROW);
    L->single_col = DEV(DASP_A_SINGLE_COL);
    L->single_val = DEV(DASP_A_SINGLE_VAL);
    L->empty_row = DEV(DASP_A_EMPTY_ROW);
    L->run_start = DEV(DASP_A_RUN_START);
    L->run_len = DEV(DASP_A_RUN_LEN);
    L->empty_bits = DEV(DASP_A_EMPTY_BITS);
#undef DEV
}

static spmvlab_status dasp_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A, const spmvlab_opts *opts, void **out,
                                   spmvlab_err *err)
{
    *out = NULL;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F16)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED,
                         "dasp supports f64 and f16 only (no tensor-core f32 mode meets the f32 error bound)");
    if (ctx->device->present && ctx->device->cc_major < 8)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED,
                         "dasp needs compute capability 8.0 or newer, the device has %d.%d", ctx->device->cc_major,
                         ctx->device->cc_minor);
    dasp_format *f = malloc(sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory");
    *f = (dasp_format){.ctx = ctx, .dtype = A->dtype, .rows = A->rows, .cols = A->cols, .nnz = A->nnz};
    const dasp_opts *o = spmvlab_opts_fields(opts);
    dasp_settings(f, A, o);
    spmvlab_status st = f->balanced ? dasp_bal_build(f, A, err) : dasp_build(f, A, err);
    /* threshold_rule = fill: rebuilt with full blocks only (dasp_fill_rule) */
    if (st == SPMVLAB_OK && !f->balanced && dasp_fill_rule(f, o)) {
        for (int i = 0; i < DASP_A_NUM; i++) {
            free(f->a[i].host);
            f->a[i].host = NULL;
            f->a[i].bytes = 0;
        }
        memset(&f->n, 0, sizeof f->n);
        f->threshold = 1.0;
        st = dasp_build(f, A, err);
    }
    if (st == SPMVLAB_OK) {
        dasp_rows_per_warp_rule(f, o);
        f->irr_auto = o->irr_gather == DASP_IRR_AUTO;
        const int early = f->irr_auto ? dasp_irr_rule(&f->n) : o->irr_gather == DASP_IRR_EARLY;
        f->irr_no_shape = early && !dasp_shape_irr_early(f->shape);
        f->irr_early = early && !f->irr_no_shape;
        st = dasp_upload(f, err);
    }
    /* l1 = max: the carveout is an attribute of a kernel function, so these
     * instances launch copies of the kernels of their own. */
    f->l1_max = o->l1 == DASP_L1_MAX;
    if (st == SPMVLAB_OK && f->l1_max && ctx->device->present) {
        int rc = dasp_prefer_l1();
        if (rc)
            st = ctx->fail(ctx, err, SPMVLAB_CUDA_ERROR, "setting the L1 carveout failed: %s",
                           dasp_cuda_error_text(rc));
    }
    if (st == SPMVLAB_OK) {
        dasp_fill_launch(f);
        dasp_fill_bal(f);
    }
    return spmvlab_converted(st, f, dasp_destroy, out);
}

static spmvlab_status dasp_spmv(void *handle, const void *x, void *y, void *stream, spmvlab_err *err)
{
    dasp_format *f = handle;
    int rc = !f->balanced    ? dasp_spmv_launch(&f->launch, x, y, stream)
             : f->bal_stream ? dasp_str_spmv_launch(&f->bal, x, y, stream)
                             : dasp_bal_spmv_launch(&f->bal, x, y, stream);
    return spmvlab_launched(f->ctx, err, rc, dasp_cuda_error_text, "kernel launch");
}

static spmvlab_status dasp_spmv_host(const void *handle, const void *x, void *y, spmvlab_err *err)
{
    const dasp_format *f = handle;
    /* empty_rows = stage: the parts store into a buffer at their slots, as
     * the kernels do, then y takes every row from its slot, 0 for none. */
    const int staged = dasp_staged(f);
    const size_t es = spmvlab_dtype_size(f->dtype);
    void *out = y;
    if (staged && !(out = calloc(f->n.staged ? (size_t)f->n.staged : 1, es)))
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the staging of %lld rows",
                            (long long)f->n.staged);
    if (f->dtype == SPMVLAB_F64)
        dasp_host_f64(f, x, out);
    else
        dasp_host_f16(f, x, out);
    if (staged) {
        const int32_t *pos = f->a[DASP_A_STAGE_POS].host;
        for (int32_t r = 0; r < f->rows; r++) {
            if (pos[r] >= 0)
                memcpy((char *)y + (size_t)r * es, (const char *)out + (size_t)pos[r] * es, es);
            else
                memset((char *)y + (size_t)r * es, 0, es);
        }
        free(out);
    }
    return SPMVLAB_OK;
}

static void dasp_describe(const void *handle, char *buf, size_t len)
{
    const dasp_format *f = handle;
    const dasp_counts *n = &f->n;
    const char *why = f->balance_auto ? "(auto)" : "";
    if (f->balanced) {
        snprintf(buf, len,
                 "path=balanced%s bal_kernel=%s row_cv=%.3f warps=%lld items_per_warp=%d crossing_rows=%lld "
                 "block_warps=%d",
                 why, f->bal_stream ? "stream" : "merge", f->row_cv, (long long)f->bal_warps,
                 f->bal_stream ? 32 * f->str_k : DASP_BAL_ITEMS, (long long)f->bal_cross, f->bal.block_warps);
        return;
    }
    double fill = n->block_slots ? (double)n->block_nnz / (double)n->block_slots : 0;
    double stored = (double)(n->block_slots + n->irr + n->long_stored + n->singles) +
                    (double)(n->tiles13 + n->tiles22 + n->tiles4) * DASP_SHORT_TILE;
    char levels[64] = "";
    for (int l = 0, at = 0; l < f->nlev; l++)
        at += snprintf(levels + at, sizeof levels - (size_t)at, "%s%d:%lld", l ? "," : "", dasp_shape_bk(f->lev[l]),
                       (long long)n->level_blocks[l]);
    /* irr_gather: late(shape) when early was asked or picked but the shape
     * has no early kernels. block_warps and long_chunk only when not 8 and
     * 1024: the text must fit 512 characters. */
    const char *irr = f->irr_no_shape ? "(shape)" : f->irr_auto ? "(auto)" : "";
    char bw[48] = "";
    int at = 0;
    if (f->block_warps != 8)
        at = snprintf(bw, sizeof bw, " block_warps=%d", f->block_warps);
    if (f->long_chunk != DASP_CHUNK_LARGE)
        snprintf(bw + at, sizeof bw - (size_t)at, " long_chunk=%d", f->long_chunk);
    snprintf(buf, len,
             "path=classes%s row_cv=%.3f shape=%s max_len=%d threshold=%g rows_per_warp=%d "
             "empty=%lld short1=%lld short2=%lld "
             "short3=%lld short4=%lld medium=%lld long=%lld row_blocks=%lld run_blocks=%lld even_blocks=%lld "
             "mma_blocks=%lld blocks_by_k=%s "
             "block_fill=%.3f irregular_nnz=%lld tiles13=%lld tiles22=%lld tiles4=%lld singles=%lld "
             "long_segments=%lld empty_runs=%lld stored_per_nnz=%.3f empty_rows=%s%s med_ranges=%d "
             "irr_gather=%s%s%s",
             why, f->row_cv, dasp_shape_names[f->shape], f->max_len, f->threshold, f->rows_per_warp,
             (long long)n->empty, (long long)n->short_len[1], (long long)n->short_len[2],
             (long long)n->short_len[3], (long long)n->short_len[4], (long long)n->medium,
             (long long)n->long_rows, (long long)n->rb, (long long)n->rb_runs, (long long)n->rb_even,
             (long long)n->blocks, levels, fill, (long long)n->irr,
             (long long)n->tiles13, (long long)n->tiles22, (long long)n->tiles4, (long long)n->singles,
             (long long)n->segs, (long long)n->runs, f->nnz ? stored / f->nnz : 0.0,
             f->empty_runs ? "runs" : (const char *[]){"", "list", "bitmap", "memset", "stage"}[f->empty_mode],
             f->empty_auto ? "(auto)" : "", f->n_ranges, f->irr_early ? "early" : "late", irr, bw);
}

SPMVLAB_PLUGIN_DEFINE(dasp, "1.1.0", SPMVLAB_DTYPE_BIT(SPMVLAB_F64) | SPMVLAB_DTYPE_BIT(SPMVLAB_F16),
                      "rows by length on tensor-core MMA blocks (short tiles, medium row-blocks, split long rows)",
                      "Yuechen Lu and Weifeng Liu, DASP: Specific Dense Matrix Multiply-Accumulate Units Accelerated "
                      "General Sparse Matrix-Vector Multiplication, SC'23",
                      .check_options = dasp_check_options);
