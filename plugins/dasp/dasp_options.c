/*
 * DASP: the option table, its checks, and the auto rules that turn the
 * options into the format's settings: before the build (shapes, max_len,
 * the paths and modes, block_warps), after it (the threshold_rule rebuild,
 * rows_per_warp). The empty_rows, med_ranges and irr_gather rules are in
 * dasp_layout.c; the options are described at the top of dasp.c.
 */
#include <spmvlab/plugin.h>

#include "dasp_format.h"

/* threshold_rule = fill: the least share of real entries in the kept
 * blocks before the build is redone with threshold 1. */
#define DASP_FILL_MIN 0.9
/* rpw_rule = length: the least mean medium-row length for 8 rows a warp. */
#define DASP_RPW_LEN 16
/* rows_per_warp = auto, the paper's count rule: 8 rows a warp below
 * DASP_RPW16_MEDIUM medium rows, 16 below DASP_RPW32_MEDIUM, else 32, so
 * that large matrices launch fewer, fuller warps. */
#define DASP_RPW16_MEDIUM 59990
#define DASP_RPW32_MEDIUM 400000
/* max_len = auto, len_rule = paper: long rows from 256 entries (the
 * paper's), from DASP_MAXLEN_LARGE on matrices of DASP_LARGE_NNZ non-zeros
 * or more, where rows of 256-511 entries cost one medium warp more than the
 * long path's split (README.md, Options). len_rule = wide: dasp_format.h. */
#define DASP_MAXLEN_PAPER 256
#define DASP_MAXLEN_LARGE 512
/* block_warps = auto: blocks of DASP_BW_LARGE warps from DASP_LARGE_NNZ
 * non-zeros when the row lengths' coefficient of variation is below
 * DASP_BALANCE_CV (a block retires with its slowest warp), of 8 otherwise
 * and on the balanced path (README.md, Options); with bw_rule = spread,
 * then halved on small launches (dasp_spread_warps, dasp_format.h). */
#define DASP_BW_LARGE 2

const spmvlab_option dasp_options[] = {
    SPMVLAB_OPTION(dasp_opts, max_len, SPMVLAB_OPT_INT_AUTO, "auto", "5..1073741824", "rows with at least this many entries are long rows (split over warps); auto: see README.md"),
    SPMVLAB_OPTION(dasp_opts, threshold, SPMVLAB_OPT_FLOAT, "0.75", "0..1", "minimum share of real entries in a kept 8 x K MMA block of medium rows"),
    SPMVLAB_OPTION(dasp_opts, rows_per_warp, SPMVLAB_OPT_INT_AUTO, "auto", "8..32", "medium rows per warp: 8, 16 or 32 (1, 2, 4 row-blocks); auto: see README.md"),
    SPMVLAB_OPTION(dasp_opts, f64_shape, SPMVLAB_OPT_ENUM, "m8n8k4", "", "f64 MMA of medium blocks and long rows"),
    SPMVLAB_CHOICE(dasp_opts, f64_shape, DASP_F64_M8N8K4, "m8n8k4", "", "the paper's shape, sm_80 and newer"),
    SPMVLAB_CHOICE(dasp_opts, f64_shape, DASP_F64_M16N8K4, "m16n8k4", "", "sm_90: 8 x 4 blocks, half the rows zero"),
    SPMVLAB_CHOICE(dasp_opts, f64_shape, DASP_F64_M16N8K8, "m16n8k8", "", "sm_90: 8 x 8 blocks"),
    SPMVLAB_CHOICE(dasp_opts, f64_shape, DASP_F64_M16N8K16, "m16n8k16", "", "sm_90: 8 x 16 blocks"),
    SPMVLAB_OPTION(dasp_opts, f16_shape, SPMVLAB_OPT_ENUM, "m16n8k8", "", "f16 MMA (f32 accumulators) of medium blocks and long rows"),
    SPMVLAB_CHOICE(dasp_opts, f16_shape, DASP_F16_M16N8K16, "m16n8k16", "", "8 x 16 blocks"),
    SPMVLAB_CHOICE(dasp_opts, f16_shape, DASP_F16_M16N8K8, "m16n8k8", "", "8 x 8 blocks"),
    SPMVLAB_EXPERT(dasp_opts, long_chunk, SPMVLAB_OPT_INT_AUTO, "auto", "128..16777216", "values of a long row per warp, a multiple of 128; auto: 256 below 2^22 non-zeros, else 1024"),
    SPMVLAB_EXPERT(dasp_opts, empty_runs, SPMVLAB_OPT_INT, "0", "0..1", "1: empty rows as runs of consecutive rows, each run zeroed by one warp (overrides empty_rows)"),
    SPMVLAB_EXPERT(dasp_opts, rpw_rule, SPMVLAB_OPT_ENUM, "length", "", "the rule of rows_per_warp = auto"),
    SPMVLAB_CHOICE(dasp_opts, rpw_rule, DASP_RPW_COUNT, "count", "", "by the medium-row count (the paper)"),
    SPMVLAB_CHOICE(dasp_opts, rpw_rule, DASP_RPW_LENGTH, "length", "", "8 when medium rows average >= 16 entries, else count"),
    SPMVLAB_EXPERT(dasp_opts, threshold_rule, SPMVLAB_OPT_ENUM, "fill", "", "the rule of the kept blocks' threshold"),
    SPMVLAB_CHOICE(dasp_opts, threshold_rule, DASP_THR_FIXED, "fixed", "", "threshold as set (the paper)"),
    SPMVLAB_CHOICE(dasp_opts, threshold_rule, DASP_THR_FILL, "fill", "", "threshold 1 when kept blocks are under 0.9 real entries"),
    SPMVLAB_OPTION(dasp_opts, balance, SPMVLAB_OPT_ENUM, "off", "", "every row on the balanced path (CUDA cores) instead of the row classes"),
    SPMVLAB_CHOICE(dasp_opts, balance, DASP_BAL_AUTO, "auto", "", "on for uneven rows (CV >= 1.2), unless mostly empty or a few huge rows (measured slower)"),
    SPMVLAB_CHOICE(dasp_opts, balance, DASP_BAL_OFF, "off", "", "the row classes on the tensor cores (default)"),
    SPMVLAB_CHOICE(dasp_opts, balance, DASP_BAL_ON, "on", "", "the balanced path"),
    SPMVLAB_EXPERT(dasp_opts, l1, SPMVLAB_OPT_ENUM, "driver", "", "row-class kernels' shared-memory carveout"),
    SPMVLAB_CHOICE(dasp_opts, l1, DASP_L1_DRIVER, "driver", "", "the driver's choice"),
    SPMVLAB_CHOICE(dasp_opts, l1, DASP_L1_MAX, "max", "", "all of it L1 for the x gathers (as the original program)"),
    SPMVLAB_EXPERT(dasp_opts, med_rows, SPMVLAB_OPT_ENUM, "runs", "", "medium rows' per-row data"),
    SPMVLAB_CHOICE(dasp_opts, med_rows, DASP_MR_RUNS, "runs", "", "first row of a row-block, offset and count of equal runs"),
    SPMVLAB_CHOICE(dasp_opts, med_rows, DASP_MR_INDEX, "index", "", "a row index and irregular offset per row"),
    SPMVLAB_EXPERT(dasp_opts, bal_kernel, SPMVLAB_OPT_ENUM, "stream", "", "balanced path's kernel"),
    SPMVLAB_CHOICE(dasp_opts, bal_kernel, DASP_BK_STREAM, "stream", "", "non-zero tiles in load order, stream_k a lane, one scan"),
    SPMVLAB_CHOICE(dasp_opts, bal_kernel, DASP_BK_MERGE, "merge", "", "merge path, 224 rows + non-zeros a warp"),
    SPMVLAB_EXPERT(dasp_opts, stream_k, SPMVLAB_OPT_INT, "8", "8..16", "stream kernel: non-zeros a lane, 8 or 16 (256 or 512 a warp)"),
    SPMVLAB_OPTION(dasp_opts, empty_rows, SPMVLAB_OPT_ENUM, "auto", "", "how empty rows get their zero"),
    SPMVLAB_CHOICE(dasp_opts, empty_rows, DASP_ER_AUTO, "auto", "", "stage, bitmap or list by the share of empty rows"),
    SPMVLAB_CHOICE(dasp_opts, empty_rows, DASP_ER_LIST, "list", "", "an index each, zeroed by tail warps"),
    SPMVLAB_CHOICE(dasp_opts, empty_rows, DASP_ER_BITMAP, "bitmap", "", "a bit a row, zeroed in row order"),
    SPMVLAB_CHOICE(dasp_opts, empty_rows, DASP_ER_MEMSET, "memset", "", "y zeroed before the kernel"),
    SPMVLAB_CHOICE(dasp_opts, empty_rows, DASP_ER_STAGE, "stage", "", "rows staged in class order, one pass writes y"),
    SPMVLAB_EXPERT(dasp_opts, med_ranges, SPMVLAB_OPT_ENUM, "on", "", "runs of equally shaped medium row-blocks"),
    SPMVLAB_CHOICE(dasp_opts, med_ranges, DASP_RANGES_ON, "on", "", "in the kernel parameters, not loaded"),
    SPMVLAB_CHOICE(dasp_opts, med_ranges, DASP_RANGES_OFF, "off", "", "loaded from device memory"),
    SPMVLAB_EXPERT(dasp_opts, k4_batch, SPMVLAB_OPT_ENUM, "4", "", "f64 m8n8k4: 8 x 4 blocks a warp loads before its MMAs"),
    SPMVLAB_CHOICE(dasp_opts, k4_batch, DASP_K4_BATCH_4, "4", "", "four blocks a step"),
    SPMVLAB_CHOICE(dasp_opts, k4_batch, DASP_K4_BATCH_8, "8", "", "eight blocks a step, 80 registers"),
    SPMVLAB_OPTION(dasp_opts, block_warps, SPMVLAB_OPT_INT_AUTO, "auto", "1..8", "warps a block of the row-class and stream kernels, 1, 2, 4 or 8; auto: see README.md"),
    SPMVLAB_EXPERT(dasp_opts, bw_rule, SPMVLAB_OPT_ENUM, "spread", "", "the rule of block_warps = auto"),
    SPMVLAB_CHOICE(dasp_opts, bw_rule, DASP_BW_SIZE, "size", "", "row classes 2 from 2^20 non-zeros at CV < 2, else 8; stream kernel 8"),
    SPMVLAB_CHOICE(dasp_opts, bw_rule, DASP_BW_SPREAD, "spread", "", "size, then halved while the kernel has fewer than 264 blocks"),
    SPMVLAB_EXPERT(dasp_opts, len_rule, SPMVLAB_OPT_ENUM, "wide", "", "the rule of max_len = auto"),
    SPMVLAB_CHOICE(dasp_opts, len_rule, DASP_LEN_PAPER, "paper", "", "256, 512 from 2^20 non-zeros"),
    SPMVLAB_CHOICE(dasp_opts, len_rule, DASP_LEN_WIDE, "wide", "", "64 at every size"),
    SPMVLAB_EXPERT(dasp_opts, irr_gather, SPMVLAB_OPT_ENUM, "auto", "", "when medium rows gather their first irregular x"),
    SPMVLAB_CHOICE(dasp_opts, irr_gather, DASP_IRR_AUTO, "auto", "", "early when medium rows average < 6 entries"),
    SPMVLAB_CHOICE(dasp_opts, irr_gather, DASP_IRR_EARLY, "early", "", "with the first block gathers (f64 m8n8k4 and f16)"),
    SPMVLAB_CHOICE(dasp_opts, irr_gather, DASP_IRR_LATE, "late", "", "after the last MMA"),
    {NULL},
};

spmvlab_status dasp_check_options(const spmvlab_opts *opts, spmvlab_err *err)
{
    const dasp_opts *o = spmvlab_opts_fields(opts);
    if (o->rows_per_warp != SPMVLAB_AUTO && o->rows_per_warp != 8 && o->rows_per_warp != 16 &&
        o->rows_per_warp != 32)
        return spmvlab_bad_option(err, "dasp option rows_per_warp = %d must be 8, 16 or 32", o->rows_per_warp);
    if (o->stream_k != 8 && o->stream_k != 16)
        return spmvlab_bad_option(err, "dasp option stream_k = %d must be 8 or 16", o->stream_k);
    if (o->long_chunk != SPMVLAB_AUTO && o->long_chunk % 128)
        return spmvlab_bad_option(err, "dasp option long_chunk = %d must be a multiple of 128", o->long_chunk);
    if (!spmvlab_pow2_or_auto(o->block_warps))
        return spmvlab_bad_option(err, "dasp option block_warps = %d must be 1, 2, 4 or 8", o->block_warps);
    return SPMVLAB_OK;
}

/* max_len = auto: with len_rule = wide, long rows from DASP_MAXLEN_WIDE
 * entries (dasp_format.h); with len_rule = paper, the paper's 256, or
 * DASP_MAXLEN_LARGE from DASP_LARGE_NNZ non-zeros. */
static int max_len_rule(const spmvlab_matrix *A, const dasp_opts *o)
{
    if (o->max_len != SPMVLAB_AUTO)
        return o->max_len;
    if (o->len_rule == DASP_LEN_WIDE)
        return DASP_MAXLEN_WIDE;
    return A->nnz >= DASP_LARGE_NNZ ? DASP_MAXLEN_LARGE : DASP_MAXLEN_PAPER;
}

/* long_chunk = auto: DASP_CHUNK_SMALL values a long warp below
 * DASP_WIDE_NNZ non-zeros (a short launch spreads a long row over more
 * warps), else DASP_CHUNK_LARGE (dasp_format.h). */
static int long_chunk_rule(const spmvlab_matrix *A, const dasp_opts *o)
{
    if (o->long_chunk != SPMVLAB_AUTO)
        return o->long_chunk;
    return A->nnz < DASP_WIDE_NNZ ? DASP_CHUNK_SMALL : DASP_CHUNK_LARGE;
}

void dasp_settings(dasp_format *f, const spmvlab_matrix *A, const dasp_opts *o)
{
    f->shape = (dasp_shape)(A->dtype == SPMVLAB_F64 ? o->f64_shape : o->f16_shape);
    f->vpl = dasp_shape_vpl(f->shape);
    f->bk = dasp_shape_bk(f->shape);
    f->nlev = dasp_shape_levels(f->shape, f->lev);
    f->max_len = max_len_rule(A, o);
    f->threshold = o->threshold;
    f->long_chunk = long_chunk_rule(A, o);
    f->empty_runs = o->empty_runs;
    f->rpw_rule = o->rpw_rule;
    f->row_cv = dasp_row_cv(A);
    f->balance_auto = o->balance == DASP_BAL_AUTO;
    f->balanced = f->balance_auto ? dasp_balance_rule(A) : o->balance == DASP_BAL_ON;
    f->bal_stream = o->bal_kernel == DASP_BK_STREAM;
    f->str_k = o->stream_k;
    f->med_runs = o->med_rows == DASP_MR_RUNS;
    f->empty_auto = o->empty_rows == DASP_ER_AUTO && !o->empty_runs;
    f->empty_mode = o->empty_runs || f->empty_auto ? DASP_ER_LIST : o->empty_rows; /* auto: dasp_build */
    f->med_ranges = o->med_ranges == DASP_RANGES_ON;
    f->k4_batch8 = o->k4_batch == DASP_K4_BATCH_8;
    f->block_warps = o->block_warps != SPMVLAB_AUTO ? o->block_warps
                     : !f->balanced && A->nnz >= DASP_LARGE_NNZ && f->row_cv < DASP_BALANCE_CV ? DASP_BW_LARGE
                                                                                                : 8;
    f->bw_spread = o->block_warps == SPMVLAB_AUTO && o->bw_rule == DASP_BW_SPREAD;
}

int dasp_spread_warps(int block_warps, int64_t warps)
{
    while (block_warps > 1 && (warps + block_warps - 1) / block_warps < DASP_SPREAD_BLOCKS)
        block_warps /= 2;
    return block_warps;
}

/* Blocks kept with more than a tenth padding (e.g. 7-entry rows: 4 + 3 of
 * 8 slots at 0.75) cost more in padded loads than their MMA saves
 * (README.md). */
int dasp_fill_rule(const dasp_format *f, const dasp_opts *o)
{
    return o->threshold_rule == DASP_THR_FILL && f->threshold < 1.0 && f->n.block_slots &&
           (double)f->n.block_nnz < DASP_FILL_MIN * (double)f->n.block_slots;
}

void dasp_rows_per_warp_rule(dasp_format *f, const dasp_opts *o)
{
    f->rows_per_warp_auto = o->rows_per_warp == SPMVLAB_AUTO;
    f->rows_per_warp = f->rows_per_warp_auto ? (f->n.medium < DASP_RPW16_MEDIUM   ? 8
                                              : f->n.medium < DASP_RPW32_MEDIUM ? 16
                                                                                 : 32)
                                             : o->rows_per_warp;
    /* rpw_rule = length: long medium rows (mean >= DASP_RPW_LEN entries)
     * keep 8 rows a warp whatever their count (measured in README.md). */
    int64_t med_nnz = f->n.block_nnz + f->n.irr;
    if (f->rows_per_warp_auto && f->rpw_rule == DASP_RPW_LENGTH && f->n.medium &&
        med_nnz >= DASP_RPW_LEN * f->n.medium)
        f->rows_per_warp = 8;
}
