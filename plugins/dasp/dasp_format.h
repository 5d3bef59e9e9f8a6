/*
 * DASP host side: the format handle, its arrays and row-class counts, shared
 * by the plugin glue (dasp.c), the options and their rules (dasp_options.c),
 * the conversion (dasp_build.c) and the CPU execution (dasp_host.c).
 */
#ifndef SPMVLAB_DASP_FORMAT_H
#define SPMVLAB_DASP_FORMAT_H

#include <spmvlab/plugin.h>

#include "dasp.h"

/* The arrays of the format; each has a host copy (spmv_host reads it) and a
 * device copy of the same bytes (the kernels read it). */
enum dasp_array_id {
    DASP_A_LONG_VAL, DASP_A_LONG_COL, DASP_A_LONG_PTR, DASP_A_LONG_ROW,
    DASP_A_SEG_PTR, DASP_A_SEG_ROW, DASP_A_PARTIAL, DASP_A_COUNT,
    DASP_A_MED_VAL, DASP_A_MED_COL, DASP_A_RB_PTR, DASP_A_MED_ROW,
    DASP_A_IRR_PTR, DASP_A_IRR_COL, DASP_A_IRR_VAL, DASP_A_RB_BASE, DASP_A_RB_IRR,
    DASP_A_SH_VAL, DASP_A_SH_COL, DASP_A_SH_ROW,
    DASP_A_SINGLE_ROW, DASP_A_SINGLE_COL, DASP_A_SINGLE_VAL, DASP_A_EMPTY_ROW,
    DASP_A_RUN_START, DASP_A_RUN_LEN, DASP_A_EMPTY_BITS,
    DASP_A_STAGE_POS, DASP_A_STAGE_Y, /* empty_rows = stage; stage_y is device scratch (no host copy) */
    /* balanced path (dasp_balanced.c) */
    DASP_A_BAL_ROW_PTR, DASP_A_BAL_COL, DASP_A_BAL_VAL, DASP_A_BAL_W_ROW, DASP_A_BAL_W_NZ,
    DASP_A_BAL_W_CROSS, DASP_A_BAL_X_ROW, DASP_A_BAL_X_W0, DASP_A_BAL_X_W1,
    DASP_A_BAL_TAIL, DASP_A_BAL_HEAD, DASP_A_BAL_COUNT, DASP_A_BAL_LANE_ROW,
    DASP_A_NUM
};

typedef struct dasp_array {
    void *host;   /* malloc'd copy, owned */
    void *dev;    /* from ctx->dev_alloc, NULL when bytes == 0 */
    size_t bytes; /* size of both copies */
} dasp_array;

/* What the conversion found; describe() prints it. */
typedef struct dasp_counts {
    int64_t empty;        /* rows of length 0 */
    int64_t staged;       /* empty_rows = stage: rows with entries, each a slot of the staging buffer */
    int64_t runs;         /* runs of consecutive empty rows (empty_runs = 1), each <= DASP_RUN_MAX */
    int64_t short_len[5]; /* short rows by length 1..4 (index 0 unused) */
    int64_t medium;       /* rows of length 5 .. max_len - 1 */
    int64_t long_rows;    /* rows of length >= max_len */
    int64_t rb;           /* medium row-blocks of 8 sorted rows */
    int64_t rb_runs;      /* of them, row-blocks of 8 consecutive rows (med_rows = runs) */
    int64_t rb_even;      /* of them, row-blocks whose rows have equal irregular counts (med_rows = runs) */
    int64_t blocks;       /* MMA blocks of the medium part, all levels */
    int64_t level_blocks[DASP_MAX_LEVELS]; /* of them, blocks of each level */
    int64_t block_slots;  /* slots of those blocks (8 x BK each) */
    int64_t block_nnz;    /* real entries in those blocks */
    int64_t irr;          /* medium entries left to the CUDA cores */
    int64_t tiles13, tiles22, tiles4; /* short tiles of each packing */
    int64_t rows4;        /* rows in 4-tiles (length 4, leftover 3s, an odd 2) */
    int64_t singles;      /* rows of length 1 left to the CUDA cores */
    int64_t segs;         /* long segments (one warp each) */
    int64_t long_nnz;     /* entries of the long rows */
    int64_t long_stored;  /* stored long values (each row padded to VPL) */
} dasp_counts;

typedef struct dasp_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;     /* f64 or f16 */
    int32_t rows, cols, nnz;
    dasp_shape shape;        /* top MMA shape: long tiles, first medium level */
    int vpl;                 /* values per lane of that shape */
    int bk;                  /* slots per block row of that shape: 4 * vpl */
    int nlev;                /* medium levels (block widths bk, bk/2, ..., 4) */
    dasp_shape lev[DASP_MAX_LEVELS]; /* their shapes */
    int32_t max_len;         /* rows at least this long are long rows */
    double threshold;        /* minimum fill of a kept MMA block */
    int rows_per_warp;       /* medium rows per warp (8 per row-block) */
    int rows_per_warp_auto;  /* rows_per_warp came from the medium-row count */
    int32_t long_chunk;      /* values of one long segment */
    int empty_runs;          /* empty rows stored as runs (start, length), not one index each */
    int rpw_rule;            /* rows_per_warp = auto: 0 by medium-row count, 1 by mean length too */
    int l1_max;              /* l1 = max: kernels with carveout 0 */
    int med_runs;            /* med_rows = runs: row-blocks of consecutive rows keep their first row only */
    int empty_mode;          /* how empty rows are written: DASP_ER_LIST, _BITMAP, _MEMSET or _STAGE
                                (resolved in dasp_build once the rows are counted) */
    int empty_auto;          /* empty_mode came from the empty-share rule (empty_rows = auto) */
    int med_ranges;          /* med_ranges = on: runs of equally shaped row-blocks in the kernel parameters */
    int k4_batch8;           /* k4_batch = 8: m8n8k4 kernels loading 8 blocks a step */
    int block_warps;         /* warps a block of the row-class or stream kernel: 1, 2, 4 or 8 */
    int bw_spread;           /* block_warps = auto with bw_rule = spread: halved after the build
                                while the kernel has fewer than DASP_SPREAD_BLOCKS blocks */
    int irr_early;           /* medium kernels with the early irregular gather (resolved, shape allowing) */
    int irr_auto;            /* irr_early came from dasp_irr_rule (irr_gather = auto) */
    int irr_no_shape;        /* early asked or picked, but the shape has no early kernels: late */
    int n_ranges;            /* of them, kept (<= DASP_MAX_RANGES) */
    dasp_range ranges[DASP_MAX_RANGES];
    int balanced;            /* 1: every row on the balanced (merge-path) path, no row classes */
    int balance_auto;        /* balanced came from the row-length rule (balance = auto) */
    int bal_stream;          /* balanced path: 1 the stream kernel (tiles by non-zeros), 0 merge path */
    int str_k;               /* stream kernel: non-zeros a lane (8 or 16) */
    double row_cv;           /* coefficient of variation of the row lengths (the rule's input) */
    int64_t bal_warps;       /* balanced path: merge-path pieces (one warp each) */
    int64_t bal_cross;       /* balanced path: rows spanning several warps */
    dasp_counts n;
    dasp_array a[DASP_A_NUM];
    dasp_launch launch;      /* device pointers and warp ranges */
    dasp_bal_launch bal;     /* the balanced path's device pointers */
} dasp_format;

/* The options, filled by the core from the table in dasp_options.c. */
typedef struct dasp_opts {
    int max_len;        /* rows at least this long are long rows */
    double threshold;   /* minimum fill of a kept MMA block */
    int rows_per_warp;  /* 8, 16, 32 or SPMVLAB_AUTO */
    int f64_shape;      /* dasp_shape: DASP_F64_* */
    int f16_shape;      /* dasp_shape: DASP_F16_M16N8K16 or DASP_F16_M16N8K8 */
    int long_chunk;     /* values of a long row per warp */
    int empty_runs;     /* 0 or 1 */
    int rpw_rule;       /* DASP_RPW_COUNT or DASP_RPW_LENGTH */
    int threshold_rule; /* DASP_THR_FIXED or DASP_THR_FILL */
    int balance;        /* DASP_BAL_AUTO, DASP_BAL_OFF or DASP_BAL_ON */
    int l1;             /* DASP_L1_DRIVER or DASP_L1_MAX */
    int bal_kernel;     /* DASP_BK_STREAM or DASP_BK_MERGE */
    int med_rows;       /* DASP_MR_RUNS or DASP_MR_INDEX */
    int stream_k;       /* 8 or 16 */
    int empty_rows;     /* DASP_ER_AUTO, DASP_ER_LIST, DASP_ER_BITMAP, DASP_ER_MEMSET or DASP_ER_STAGE */
    int med_ranges;     /* DASP_RANGES_ON or DASP_RANGES_OFF */
    int k4_batch;       /* blocks a step: DASP_K4_BATCH_4 or _8 */
    int block_warps;    /* warps a block of the row-class and stream kernels */
    int irr_gather;     /* DASP_IRR_AUTO, DASP_IRR_EARLY or DASP_IRR_LATE */
    int len_rule;       /* max_len = auto's rule: DASP_LEN_PAPER or DASP_LEN_WIDE */
    int bw_rule;        /* block_warps = auto's rule: DASP_BW_SIZE or DASP_BW_SPREAD */
} dasp_opts;

enum { DASP_RPW_COUNT, DASP_RPW_LENGTH };
enum { DASP_THR_FIXED, DASP_THR_FILL };
enum { DASP_BAL_AUTO, DASP_BAL_OFF, DASP_BAL_ON };
enum { DASP_L1_DRIVER, DASP_L1_MAX };
enum { DASP_BK_STREAM, DASP_BK_MERGE };
enum { DASP_MR_RUNS, DASP_MR_INDEX };
enum { DASP_ER_AUTO, DASP_ER_LIST, DASP_ER_BITMAP, DASP_ER_MEMSET, DASP_ER_STAGE };
enum { DASP_RANGES_ON, DASP_RANGES_OFF };
enum { DASP_IRR_AUTO, DASP_IRR_EARLY, DASP_IRR_LATE };
enum { DASP_LEN_PAPER, DASP_LEN_WIDE };
enum { DASP_BW_SIZE, DASP_BW_SPREAD };
enum { DASP_K4_BATCH_4 = 4, DASP_K4_BATCH_8 = 8 }; /* each the number of blocks itself */

/* The option table and its checks (dasp_options.c). */
extern const spmvlab_option dasp_options[];
spmvlab_status dasp_check_options(const spmvlab_opts *opts, spmvlab_err *err);

/* Sets what the options o give f before the build for A: the shapes, max_len,
 * the path, the modes and block_warps, each auto rule resolved. */
void dasp_settings(dasp_format *f, const spmvlab_matrix *A, const dasp_opts *o);

/* 1 when threshold_rule = fill asks for the build of f to be redone with
 * threshold 1 (the kept blocks hold too few real entries). */
int dasp_fill_rule(const dasp_format *f, const dasp_opts *o);

/* bw_rule = spread: block_warps halved (down to 1) while a kernel of warps
 * warps would have fewer than DASP_SPREAD_BLOCKS blocks. A block runs on
 * one SM, so 60 warps in blocks of 8 keep 8 of an H200's 132 SMs busy, each
 * with 8 warps' gathers in its one L1 and load queue, while blocks of 1
 * spread them over 60 SMs; 264 is two blocks an SM of an H100 or H200
 * (README.md, "Warps a block on small launches"). */
#define DASP_SPREAD_BLOCKS 264
int dasp_spread_warps(int block_warps, int64_t warps);

/* Sets f->rows_per_warp after the build: the option, or its auto rule from
 * the medium rows' count (and with rpw_rule = length, their mean length). */
void dasp_rows_per_warp_rule(dasp_format *f, const dasp_opts *o);

/* irr_gather = auto: the early gather when the medium rows average fewer
 * than this many entries (medium nnz = block_nnz + irr, over medium rows),
 * i.e. the typical row is at most one 8 x 4 block and an irregular entry
 * or two, whose warp waits for two round trips, not three; longer rows
 * have more gathers in flight and lose with it (README.md, "The first
 * irregular entry's x"). */
#define DASP_IRR_EARLY_MEAN 6

/* 1 when irr_gather = auto picks the early gather for the built counts n
 * (medium rows averaging fewer than DASP_IRR_EARLY_MEAN entries; 0 without
 * medium rows). */
int dasp_irr_rule(const dasp_counts *n);

/* The irregular count the 8 rows of medium row-block rb share (irr_ptr of
 * the nmed medium rows), or -1 when their counts differ or rb is the last,
 * partial row-block. */
static inline int32_t dasp_rb_even_irr(const int32_t *irr_ptr, int64_t rb, int64_t nmed)
{
    const int32_t *ip = irr_ptr + rb * DASP_BM, cnt = ip[1] - ip[0];
    if ((rb + 1) * DASP_BM > nmed)
        return -1;
    for (int g = 1; g < DASP_BM; g++)
        if (ip[g + 1] - ip[g] != cnt)
            return -1;
    return cnt;
}

/* 1 when the empty rows are stored one index each (empty_row), zeroed by
 * the tail after the singles: the list mode without empty_runs. */
static inline int dasp_empty_listed(const dasp_format *f)
{
    return !f->empty_runs && f->empty_mode == DASP_ER_LIST;
}

/* From this many non-zeros a matrix is large: its SpMV is bound by memory,
 * not by the launch, and the auto rules of max_len, block_warps and
 * empty_rows take their large-matrix choices (the large set holds 5 M and
 * more, the small and bundled ones at most 0.4 M). */
#define DASP_LARGE_NNZ (1 << 20)

/* max_len = auto with len_rule = wide (the default): long rows from
 * DASP_MAXLEN_WIDE entries at every size. A medium warp runs its 8 rows'
 * blocks one step (4 blocks) after another, two dependent round trips a
 * step, so a row-block of 8 rows of 129 entries is 8 steps long, and below
 * a few waves of warps the kernel lasts as long as its longest warp; as
 * long rows each such row is one warp of 5 tiles, all loaded at once. Fitted
 * on the corpus's tune part (README.md, "Long rows from 64 entries"): a cut
 * at 32 sent rows of 33 entries to the long path (band-bw16-6e5 0.73x
 * cuSPARSE against 1.76 at 64), the paper's 512 from 2^20 kept 6e6-entry
 * power-law rows of 64-511 entries medium (0.80 against 0.97). */
#define DASP_MAXLEN_WIDE 64
/* long_chunk = auto below and from this many non-zeros (DASP_CHUNK_*). */
#define DASP_WIDE_NNZ (INT64_C(1) << 22)
/* long_chunk = auto: a long warp's values below DASP_WIDE_NNZ non-zeros
 * and from it. Measured on the corpus's tune part (README.md, Options):
 * 256 lifted the small power-law, R-MAT and mixed members from 0.52-0.99x
 * cuSPARSE to 0.99-1.60x; on 6e6-entry power-law members it lost (0.69
 * against 0.80). */
#define DASP_CHUNK_SMALL 256
#define DASP_CHUNK_LARGE 1024

/* empty_rows = auto: the bitmap when at least this share of the rows is
 * empty, else the list: at 1/8 the bitmap reads no more than the list
 * (README.md, "Empty rows"). */
#define DASP_EMPTY_BITMAP_SHARE 0.125

/* ... and y staged when at least DASP_EMPTY_STAGE_SHARE of the rows of a
 * large matrix are empty: the parts store their rows at consecutive slots in
 * their own order, then one pass writes y in row order in whole sectors,
 * 0 for the empty rows, instead of 8-byte stores into sectors scattered
 * over y. Where rows are consecutive the extra pass is a loss, and on
 * launch-bound matrices a second launch (README.md, "Empty rows"). */
#define DASP_EMPTY_STAGE_SHARE 0.5

/* The empty-row mode empty_rows = auto picks for a matrix of rows rows,
 * empty of them empty, and nnz non-zeros (DASP_ER_LIST, DASP_ER_BITMAP or
 * DASP_ER_STAGE). */
int dasp_empty_rule(int64_t empty, int32_t rows, int64_t nnz);

/* The row classes store y staged (empty_rows = stage; the balanced path
 * never does). */
static inline int dasp_staged(const dasp_format *f) { return !f->balanced && f->empty_mode == DASP_ER_STAGE; }

/* Where a part stores the result of row r: r itself, or staged its slot in
 * the staging buffer (the row's place in the row classes' order, the empty
 * rows left out), from which one pass writes y in row order. */
static inline int32_t dasp_out_row(const dasp_format *f, int32_t r)
{
    return dasp_staged(f) ? ((const int32_t *)f->a[DASP_A_STAGE_POS].host)[r] : r;
}

/* block_warps = auto: the row lengths' coefficient of variation below
 * which large matrices get blocks of DASP_BW_LARGE warps (dasp_options.c). */
#define DASP_BALANCE_CV 2.0

/* balance = auto (the default), fitted on the corpus's tune part (README.md,
 * "Two paths"; docs/perf/2026-11-28-corpus-tune, "Round 2"): the balanced
 * path takes the matrix when the coefficient of variation of its row
 * lengths is at least DASP_AUTO_BALANCE_CV (power-law and mixed rows; the
 * row classes fell to a quarter of cuSPARSE there), unless at least
 * DASP_CLASSES_EMPTY_SHARE of the rows are empty (the classes skip them,
 * the balanced path walks them) or the matrix has DASP_CLASSES_SKEW_NNZ
 * non-zeros or more with a CV of DASP_CLASSES_SKEW_CV or more (a few huge
 * rows, which the classes' long-row split serves). */
#define DASP_AUTO_BALANCE_CV 1.2
#define DASP_CLASSES_EMPTY_SHARE 0.75
#define DASP_CLASSES_SKEW_CV 16.0
#define DASP_CLASSES_SKEW_NNZ (INT64_C(1) << 22)

/* The coefficient of variation of A's row lengths over all rows (0 for a
 * matrix without rows or non-zeros). */
double dasp_row_cv(const spmvlab_matrix *A);

/* 1 when balance = auto sends A to the balanced path (the rule above). */
int dasp_balance_rule(const spmvlab_matrix *A);

/* Builds the balanced path's host arrays of f from A (f->bal_stream says
 * which kernel): the coordinates of every warp (merge path, or non-zero
 * tiles with the lanes' first rows and the tiled values and columns) and
 * the crossing rows. Returns OK, or NOMEM /
 * LIMIT with the sentence in err; arrays made so far stay in f->a. */
spmvlab_status dasp_bal_build(dasp_format *f, const spmvlab_matrix *A, spmvlab_err *err);

/* Builds the host arrays and counts of f (fields up to long_chunk set) from
 * A. Returns OK, or NOMEM / LIMIT with the sentence in err; arrays made so
 * far stay in f->a for the caller to free. */
spmvlab_status dasp_build(dasp_format *f, const spmvlab_matrix *A, spmvlab_err *err);

/* med_ranges = on: finds the runs of equally shaped row-blocks of the
 * built medium part (f->ranges, f->n_ranges). */
void dasp_build_ranges(dasp_format *f);

/* y = A*x on the CPU from the host arrays, in the kernels' order. */
void dasp_host_f64(const dasp_format *f, const double *x, double *y);
void dasp_host_f16(const dasp_format *f, const uint16_t *x, uint16_t *y);

#endif /* SPMVLAB_DASP_FORMAT_H */
