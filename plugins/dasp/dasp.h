/*
 * DASP: what the conversion (dasp_build.c, dasp_balanced.c), the CPU
 * execution (dasp_host.c), the plugin glue (dasp.c) and the kernels
 * (dasp_spmv.cu, dasp_balanced.cu) share. The layout is described at the
 * top of dasp.c.
 */
#ifndef SPMVLAB_DASP_H
#define SPMVLAB_DASP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rows of a row-block, a short tile and a long tile: the N of every MMA
 * shape used (8), since only the diagonal of the 8 columns is a result. */
#define DASP_BM 8
/* Slots of one row of a short tile (a 1&3, 2&2 or 4 packing). */
#define DASP_SHORT_K 4
/* Values of one short tile: 8 rows x 4 slots. */
#define DASP_SHORT_TILE 32
/* Row ids kept per short tile: two results per tile row for 1&3 and 2&2
 * tiles, one for 4-tiles. */
#define DASP_SHORT_IDS2 16
#define DASP_SHORT_IDS1 8
/* Short tiles one warp handles. */
#define DASP_SHORT_TILES_PER_WARP 4
/* Leftover length-1 rows and empty rows one tail warp handles (4 a lane). */
#define DASP_TAIL_PER_WARP 128
/* Runs of consecutive empty rows one run warp zeroes (one a lane to load;
 * the warp then writes each run whole, 32 consecutive rows a store). */
#define DASP_RUNS_PER_WARP 32
/* Longest run kept whole; a longer one is split into runs of this length. */
#define DASP_RUN_MAX 1024
/* empty_rows = bitmap: rows one zero warp covers, in row order (a bit a
 * row, one 32-bit word a lane; then 32 stores of 32 consecutive rows). */
#define DASP_ZERO_ROWS_PER_WARP 1024
/* med_ranges = on: most runs of equally shaped row-blocks kept in the
 * kernel parameters (dasp_range). */
#define DASP_MAX_RANGES 8
/* Most threads a block of the kernels (8 warps; the row-class and stream
 * kernels take block_warps of them, the merge kernel all). */
#define DASP_BLOCK_THREADS 256
/* Column index of a padding slot: the kernels and the host load no x for it
 * and use 0, so a padding slot never turns an Inf or NaN of x into a NaN. */
#define DASP_PAD_COL (-1)

/* The MMA shapes. A block is 8 rows by BK slots; lane 4g+t of a warp holds
 * VPL consecutive values of block row g (entries t*VPL .. t*VPL+VPL-1 of
 * that row in the block); blocks are stored row-major, 8 x BK. The shape
 * option picks the top shape: long tiles and the first medium level. */
typedef enum dasp_shape {
    DASP_F64_M8N8K4 = 0,   /* sm_80+: the paper's shape; BK 4, VPL 1 */
    DASP_F64_M16N8K4 = 1,  /* sm_90 (m8n8k4 below): BK 4, VPL 1, rows 8-15 of A zero */
    DASP_F64_M16N8K8 = 2,  /* sm_90 (2 x m8n8k4 below): BK 8, VPL 2 */
    DASP_F64_M16N8K16 = 3, /* sm_90 (4 x m8n8k4 below): BK 16, VPL 4 */
    DASP_F16_M16N8K8 = 4,  /* f16 x f16 + f32: BK 8, VPL 2 */
    DASP_F16_M16N8K16 = 5, /* f16 x f16 + f32: BK 16, VPL 4 */
    DASP_F16_M16N8K8_K4 = 6/* m16n8k8 on 8 x 4 blocks: lanes t < 2 hold 2 values, t >= 2 zero */
} dasp_shape;

/* Values per lane of one MMA of a shape (1, 2 or 4). */
static inline int dasp_shape_vpl(dasp_shape s)
{
    if (s == DASP_F64_M16N8K16 || s == DASP_F16_M16N8K16)
        return 4;
    return s == DASP_F64_M8N8K4 || s == DASP_F64_M16N8K4 ? 1 : 2;
}

/* Slots per block row of a shape (4, 8 or 16). */
static inline int dasp_shape_bk(dasp_shape s) { return s == DASP_F16_M16N8K8_K4 ? 4 : 4 * dasp_shape_vpl(s); }

/* 1 when top shape s has medium kernels with the early irregular gather
 * (irr_gather = early; either k4_batch for m8n8k4): the f64 m16 shapes
 * would spill and gather late only. A macro so that kIrrEarly in
 * dasp_rows.cuh, a constant expression, is the same list. */
#define DASP_SHAPE_IRR_EARLY(s) ((s) == DASP_F64_M8N8K4 || (s) == DASP_F16_M16N8K8 || (s) == DASP_F16_M16N8K16)
static inline int dasp_shape_irr_early(dasp_shape s) { return DASP_SHAPE_IRR_EARLY(s); }

/* Most medium levels of any top shape. */
#define DASP_MAX_LEVELS 3

/* The medium levels of a top shape: blocks of BK slots, then BK/2, ...,
 * down to 4, each kept while filled enough. Writes them to lv and returns
 * how many there are. */
static inline int dasp_shape_levels(dasp_shape top, dasp_shape lv[DASP_MAX_LEVELS])
{
    switch (top) {
    case DASP_F64_M16N8K8: lv[0] = top, lv[1] = DASP_F64_M16N8K4; return 2;
    case DASP_F64_M16N8K16: lv[0] = top, lv[1] = DASP_F64_M16N8K8, lv[2] = DASP_F64_M16N8K4; return 3;
    case DASP_F16_M16N8K8: lv[0] = top, lv[1] = DASP_F16_M16N8K8_K4; return 2;
    case DASP_F16_M16N8K16: lv[0] = top, lv[1] = DASP_F16_M16N8K8, lv[2] = DASP_F16_M16N8K8_K4; return 3;
    default: lv[0] = top; return 1;
    }
}

/* A run of consecutive medium row-blocks [rb0, rb1) of one shape: equal
 * block counts on every level and equal irregular counts on all 8 rows.
 * Row-block rb's level l starts at q0 + (rb - rb0) qrb + off[l] (units of
 * 32 values; off[0] = 0, off[levels] = qrb) and its row g's irregular
 * entries at i0 + ((rb - rb0) 8 + g) cnt, so its warp reads no rb_ptr,
 * rb_irr or irr_ptr before its first block load. */
typedef struct dasp_range {
    int32_t rb0, rb1, q0, qrb, i0, cnt;
    int32_t off[DASP_MAX_LEVELS + 1];
} dasp_range;

/* Everything one launch reads, device pointers and the warp ranges of the
 * four parts; the kernel receives it by value. Warps are numbered long
 * segments first, then medium, short, tail and run warps. */
typedef struct dasp_launch {
    int32_t shape;           /* dasp_shape; also says the dtype (f16 >= 4) */
    int32_t rb_per_warp;     /* medium row-blocks per warp: 1, 2 or 4 (rows_per_warp / 8) */
    int32_t seg_tiles;       /* long tiles (8 x BK values) per long segment */
    int32_t l1_max;          /* 1: the kernels whose carveout dasp_prefer_l1 set to 0 (l1 = max) */
    int32_t k4_batch8;       /* 1: m8n8k4 kernels loading 8 blocks (medium) or tiles (long) a step, not 4 */
    int32_t block_warps;     /* warps a block (1, 2, 4 or 8): a block retires with its slowest warp */
    int32_t irr_early;       /* 1: medium warps gather their first irregular x with the first blocks
                                (irr_gather = early; the shapes of dasp_shape_irr_early only) */
    int64_t w_long;          /* warps of the long part = long segments */
    int64_t w_med;           /* warps of the medium part */
    int64_t w_short;         /* warps of the short tiles */
    int64_t w_tail;          /* warps of singles and empty rows (DASP_TAIL_PER_WARP each) */
    int64_t w_runs;          /* warps of the empty runs (DASP_RUNS_PER_WARP each); 0 unless empty_runs */
    int64_t w_zero;          /* warps of the empty-row bitmap (DASP_ZERO_ROWS_PER_WARP rows each); 0 unless
                                empty_rows = bitmap */
    int64_t y_zero_bytes;    /* empty_rows = memset: bytes of y zeroed before the kernel; else 0 */
    /* empty_rows = stage: the parts store into stage_y at the slots their row
     * arrays hold; then y[r] = stage_y[stage_pos[r]], 0 where stage_pos[r] < 0 */
    void *stage_y;           /* NULL: the parts store into y */
    const int32_t *stage_pos;
    int32_t stage_rows;      /* rows of y */
    /* long part */
    const void *long_val;    /* values of the long rows, each padded to VPL */
    const int32_t *long_col; /* their columns, DASP_PAD_COL for padding */
    const int64_t *long_ptr; /* start of each long row in long_val, n_long + 1 */
    const int32_t *long_row; /* original row of each long row */
    const int32_t *seg_ptr;  /* first segment of each long row, n_long + 1 */
    const int32_t *seg_row;  /* long row of each segment */
    void *partial;           /* one partial sum per segment (f64 or f32), scratch */
    int32_t *count;          /* segments done per long row, back to 0 after each call */
    /* medium part */
    int64_t n_rb;            /* row-blocks */
    const void *med_val;     /* MMA blocks, 8 x BK values each, row-major */
    const int32_t *med_col;  /* their columns, DASP_PAD_COL for padding */
    const int32_t *rb_ptr;   /* start of level l of row-block rb at [rb * levels + l], in
                                units of 32 values; n_rb * levels + 1 */
    const int32_t *med_row;  /* original row of each sorted medium row, -1 = none; 8 n_rb */
    const int32_t *rb_base;  /* med_rows = runs: first row of each row-block whose 8 rows are consecutive
                                (row g is rb_base + g, med_row not read), else -1; n_rb. NULL: med_row */
    const int32_t *rb_irr;   /* med_rows = runs: per row-block {first irregular offset, count a row} when its
                                8 rows have equal irregular counts (irr_ptr not read), else {0, -1}; 2 n_rb */
    const int32_t *irr_ptr;  /* irregular (CUDA-core) entries of each sorted row, 8 n_rb + 1 */
    const int32_t *irr_col;
    const void *irr_val;
    int32_t n_ranges;        /* med_ranges = on: runs of equally shaped row-blocks (0: off) */
    dasp_range ranges[DASP_MAX_RANGES]; /* ascending, disjoint */
    /* short part */
    int64_t n_tiles13, n_tiles22, n_tiles4; /* short tiles of each packing, in that order */
    const void *sh_val;      /* 32 values per tile, row-major 8 x 4 */
    const int32_t *sh_col;   /* their columns, DASP_PAD_COL for padding */
    const int32_t *sh_row;   /* result rows: 16 per 1&3 / 2&2 tile, then 8 per 4-tile; -1 = none */
    /* tail: leftover rows of one entry, then empty rows (n_empty 0 with empty_runs) */
    int64_t n_single, n_empty;
    const int32_t *single_row, *single_col;
    const void *single_val;
    const int32_t *empty_row;
    /* empty_runs = 1: runs of consecutive empty rows, first row and length */
    int64_t n_runs;
    const int32_t *run_start, *run_len;
    /* empty_rows = bitmap: bit r % 32 of word r / 32 set when row r is empty */
    int64_t n_bit_words;
    const uint32_t *empty_bits;
} dasp_launch;

/* The balanced (merge-path) path: every row, CSR on the CUDA cores, the
 * merge of row ends and non-zeros (rows + nnz items) cut into equal pieces
 * of DASP_BAL_ITEMS, one warp each (DASP_BAL_K consecutive items a lane).
 * A row spanning warps is a crossing row: each of its warps leaves a piece
 * and the last to finish (an atomic counter per crossing row, reset by that
 * warp) adds the pieces in warp order and stores y. */
#define DASP_BAL_K 7 /* odd: the walk's shared-memory reads (stride about K) avoid bank conflicts */
#define DASP_BAL_ITEMS (32 * DASP_BAL_K)

/* bal_kernel = stream: the balanced path cut by non-zeros instead of merge
 * path. Warp w takes non-zeros [w S, (w + 1) S), S = 32 K (K = stream_k,
 * 8 or 16), stored tile by tile so that lane l holds K consecutive ones
 * (l K .. l K + K - 1 of the tile) and loads them with 16-byte coalesced
 * loads: in a tile, 16-byte chunk c of lane l is at byte 512 c + 16 l
 * (dasp_str_index). Each lane starts at its stored first row and walks its
 * K items against the row ends, closing rows as it goes; then one
 * segmented scan over the lanes. The crossing rows are those of the
 * balanced path. */

/* Position in a stream tile of item k of lane l, for elements of es bytes
 * (16-byte chunks interleaved over the lanes). */
static inline int dasp_str_index(int l, int k, int es)
{
    const int g = 16 / es;
    return ((k / g) * 32 + l) * g + k % g;
}

typedef struct dasp_bal_launch {
    int32_t f16;             /* 1: binary16 values, x, y (f32 accumulation); 0: f64 */
    int32_t stream;          /* 1: bal_kernel = stream (tiles by non-zeros); 0: merge */
    int32_t nnz;             /* non-zeros of A (stream: items past it are padding) */
    int32_t str_k;           /* stream: non-zeros a lane (8 or 16), 32 str_k a warp */
    const int32_t *lane_row; /* stream: row each lane starts in, 32 a warp */
    int32_t rows;            /* rows of A */
    int64_t warps;           /* merge-path pieces, one warp each */
    const int32_t *row_ptr;  /* CSR of A: rows + 1 */
    const int32_t *col;      /* nnz */
    const void *val;         /* nnz */
    const int32_t *w_row;    /* merge coordinate (row) where each warp starts, warps + 1 */
    const int32_t *w_nz;     /* merge coordinate (non-zero) where each warp starts, warps + 1 */
    const int32_t *w_cross;  /* per warp: crossing row of its last, unfinished row (tail
                                piece) and of its first row begun earlier (head), -1 none; 2 warps */
    const int32_t *x_row;    /* row of each crossing row */
    const int32_t *x_w0;     /* first warp holding a piece of it */
    const int32_t *x_w1;     /* the warp that ends it (its head piece) */
    void *tail;              /* scratch: tail piece of each warp (f64 or f32) */
    void *head;              /* scratch: head piece of each crossing row */
    int32_t *count;          /* scratch: pieces written per crossing row, 0 between calls */
    int32_t block_warps;     /* warps a block: 1, 2, 4 or 8 (stream); 8 (merge: its stage is 8 warps) */
} dasp_bal_launch;

/* Launches the balanced path on stream; nothing without warps. Returns the
 * cudaError_t of the launch as an int. */
int dasp_bal_spmv_launch(const dasp_bal_launch *L, const void *x, void *y, void *stream);

/* The same with the stream kernel (L->stream). */
int dasp_str_spmv_launch(const dasp_bal_launch *L, const void *x, void *y, void *stream);

/* Sets the preferred shared-memory carveout of the l1 = max copies of the
 * row-class kernels to 0 (the most L1 for the x gathers, as the original
 * program does); the kernels of l1 = driver instances are not touched.
 * Returns a cudaError_t as an int. */
int dasp_prefer_l1(void);

/* Launches y = A*x on stream (a cudaStream_t); nothing when every warp
 * range is empty. Returns the cudaError_t of the launch as an int. */
int dasp_spmv_launch(const dasp_launch *L, const void *x, void *y, void *stream);

/* The text of a CUDA error code returned by dasp_spmv_launch. */
const char *dasp_cuda_error_text(int code);

#ifdef __cplusplus
}
#endif
#endif /* SPMVLAB_DASP_H */
