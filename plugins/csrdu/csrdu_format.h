/*
 * csrdu host side: the compressed column index, the warp tasks and the
 * format handle, shared by the glue (csrdu.c), the conversion
 * (csrdu_build.c), the CPU execution (csrdu_host.c) and the unit tests.
 */
#ifndef SPMVLAB_CSRDU_FORMAT_H
#define SPMVLAB_CSRDU_FORMAT_H

#include <spmvlab/plugin.h>

#include "csrdu.h"

/* The column index of nnz entries, compressed chunk by chunk. */
typedef struct csrdu_index {
    int delta_bits;   /* 8 or 16: bits of one stored offset */
    int hi_bytes;     /* 1 or 2: bytes of one escaped entry's high bits (0 without escapes) */
    int64_t nnz;
    int64_t nchunks;  /* ceil(nnz / 32) */
    int64_t nesc;     /* escaped chunks: span >= 2^delta_bits */
    int32_t *base;    /* nchunks: smallest column of the chunk, or ~ordinal when escaped */
    void *off;        /* nnz offsets (uint8 or uint16): column - base, or its low bits */
    void *hi;         /* nesc * 32 high bits (uint8 or uint16): column >> delta_bits */
} csrdu_index;

/* Compresses col[0..nnz) with delta_bits-bit offsets. Returns 0, -1 when
 * out of memory, or -2 when an escaped column does not fit 16 high bits
 * (delta_bits 8 and a column >= 2^24); *bad_col then holds that column. */
int csrdu_index_build(csrdu_index *ix, const int32_t *col, int64_t nnz, int delta_bits, int32_t *bad_col);
/* The absolute column of entry k. */
int32_t csrdu_index_col(const csrdu_index *ix, int64_t k);
/* Bytes of base, off and hi together. */
size_t csrdu_index_bytes(const csrdu_index *ix);
void csrdu_index_free(csrdu_index *ix);

/* The warp tasks of a matrix: row pieces first (longest work first), then
 * row tiles; and the rows split over several pieces. */
typedef struct csrdu_plan {
    csrdu_task *tasks;
    int32_t ntasks;
    int32_t npieces;  /* tasks [0, npieces) are row pieces */
    csrdu_split *splits;
    int32_t nsplits;
    int32_t nslots;   /* partial sums of the split rows */
} csrdu_plan;

/* A row longer than long_len is one piece when at most `piece` long,
 * else split into equal pieces of at most `piece`. With tile > 0 the other
 * rows form tiles of at most `tile` entries and tile_rows rows (the tiles
 * kernel: long_len = tile_rows = tile; the stream kernel: the
 * CSRDU_STREAM_* shape); with tile = 0 (the vector kernel) they get no
 * task. Returns 0 or -1 (out of memory). */
int csrdu_plan_build(csrdu_plan *p, const int32_t *row_ptr, int32_t rows, int32_t long_len, int tile, int tile_rows,
                     int piece);
void csrdu_plan_free(csrdu_plan *p);

/* The first value of val[0..nnz) that f32 storage would not keep honestly:
 * a finite value overflowing f32, or a non-zero one falling below the
 * smallest normal f32 (subnormal or zero after rounding). Returns its index,
 * or -1 when every value is safe. */
int64_t csrdu_f32_unsafe(const double *val, int64_t nnz);

typedef struct csrdu_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;      /* the run's dtype: x, y and arithmetic */
    csrdu_vmode vmode;
    csrdu_kernel kernel;
    int32_t rows, cols, nnz;
    int tile, lanes, piece;   /* the options as resolved */
    int32_t tile_rows;        /* stream kernel: most rows of a tile (tile: most entries) */
    int batch, steps;         /* vector kernel: entries a lane a row per batch, row groups a warp */
    int32_t long_len;         /* vector kernel: longer rows are row pieces */
    int32_t cover;            /* vector kernel: the row length the auto shape covers (90th percentile) */
    int32_t *row_ptr;         /* host copies, for spmv_host */
    void *val;                /* nnz values, f64 or f32, or their codes (vs) */
    spmvlab_value_store vs;   /* native, codes into the core's table, or one pattern value */
    csrdu_index ix;
    csrdu_plan plan;
    csrdu_dev dev;            /* device copies */
    size_t dev_bytes;         /* what the device copies take, for describe() */
    void *host_partial;       /* nslots accumulators of spmv_host, made by convert */
} csrdu_format;

/* y = A*x on the CPU from the host arrays, in the kernels' order. */
SPMVLAB_HOST_DECLS_F64_F32(csrdu, csrdu_format)

typedef struct csrdu_opts {
    int kernel;     /* enum csrdu_kernel_choice */
    int delta_bits; /* 8 or 16 */
    int values;     /* enum csrdu_values_choice */
    int tile;       /* entries of a row tile: 128, 256 or 512 */
    int lanes;      /* 1..32 power of two, or SPMVLAB_AUTO */
    int batch;      /* 1, 2, 4, or SPMVLAB_AUTO */
    int long_len;   /* rows longer than this are pieces (vector), or SPMVLAB_AUTO */
    int steps;      /* row groups a warp runs in turn (vector) */
    int piece;      /* entries of one piece of a split row */
    int tile_rows;  /* stream kernel: most rows of a tile, 8..256 power of two, or SPMVLAB_AUTO */
} csrdu_opts;

enum csrdu_values_choice { CSRDU_VALUES_NATIVE, CSRDU_VALUES_F32 };
/* Choices that are numbers: each constant is the number itself. */
enum { CSRDU_DELTA_BITS_8 = 8, CSRDU_DELTA_BITS_16 = 16 };
enum { CSRDU_TILE_128 = 128, CSRDU_TILE_256 = 256, CSRDU_TILE_512 = 512 };
enum csrdu_kernel_choice { CSRDU_KERNEL_AUTO, CSRDU_KERNEL_STREAM, CSRDU_KERNEL_VECTOR, CSRDU_KERNEL_TILES };
/* kernel = auto streams a matrix of fewer non-zeros than this whatever its
 * rows: the stream kernel ran the tune part's long-row members under 6.2e4
 * non-zeros at 1.4-2.1x the vector kernel's speed (README.md). */
#define CSRDU_VECTOR_MIN_NNZ (1 << 17)
/* The option table (csrdu_options.c). */
extern const spmvlab_option csrdu_options[];

#endif
