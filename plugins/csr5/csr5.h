/*
 * CSR5: what the host side (csr5.c, csr5_build.c, csr5_host.c) and the CUDA
 * side (csr5_convert.cu, csr5_spmv.cu) share: the device view of a converted
 * matrix and the launchers, callable from C.
 */
#ifndef SPMVLAB_CSR5_H
#define SPMVLAB_CSR5_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The device arrays of one CSR5 matrix, as the kernels read them. */
typedef struct csr5_dev {
    int32_t rows;               /* rows of A */
    int32_t sigma;              /* entries per lane of a tile, 1..32 */
    int32_t tiles;              /* full tiles: nnz / (32 sigma) */
    int32_t tail_start;         /* first entry of the tail: tiles * 32 sigma */
    int32_t tail_row0;          /* first row the tail kernel part handles */
    int32_t tail_rows;          /* rows it handles (tail_row0 ..), 0 without a tail */
    int32_t n_empty;            /* empty rows, zeroed from empty_rows */
    int32_t n_cross;            /* rows whose entries span several tiles */
    int32_t calib_inline;       /* 1: the last tile to finish a crossing row writes it */
    int32_t arrive_release;     /* inline: 1 release-only arrival increments, 0 acq_rel */
    int32_t occ4;               /* f64, sigma >= 12: the main kernel compiled for 4 blocks per SM */
    int32_t staged;             /* 1: rows complete in a tile leave through a shared-memory stage */
    int32_t pdl;                /* 1: the calibration is a programmatic dependent launch (sm_90+) */
    int32_t is_f64;             /* values, x and y are double (else float) */
    const int32_t *row_ptr;     /* rows + 1, the CSR row pointer */
    const int32_t *col;         /* nnz columns, tiles transposed, tail in CSR order */
    const void *val;            /* nnz values, same order as col */
    const uint32_t *tile_ptr;   /* tiles + 1: row of each tile's first entry | CSR5_EMPTY_FLAG */
    const uint32_t *desc;       /* tiles * 32 * W lane descriptors */
    const int32_t *eo_ptr;      /* tiles: empty_offset index of slot 0 (flagged tiles); NULL if none */
    const int32_t *empty_offset;/* row of each slot of the flagged tiles */
    const int32_t *empty_rows;  /* n_empty rows without entries */
    void *pieces;               /* scratch, 2 tiles + 1 values: out pieces, then head pieces */
    int32_t *arrivals;          /* scratch, tiles counters for inline calibration (zero between calls) */
    const int32_t *row_map;     /* empty = compress: original row of each stored row; NULL otherwise */
    const int32_t *run_start;   /* empty = compress: first row of each run of empty rows (original rows) */
    const int32_t *run_len;     /* rows of each run, 1..CSR5_RUN_MAX */
    int32_t n_runs;             /* entries of run_start / run_len, zeroed by the main launch */
} csr5_dev;

/* sigma = auto's smallest: short rows, and matrices too small to fill
 * min_tiles tiles at the mean's sigma. */
#define CSR5_SMALL_SIGMA 4
/* sigma = auto below CSR5_TAIL_ONLY_NNZ non-zeros (3 tiles of sigma 4): a
 * sigma whose one tile holds more than the matrix, so that the tail sums it
 * all. On the tune part's smallest members sigma 16 ran 1.3-1.8x sigma 4's
 * speed (docs/perf/2026-11-28-floors-3). */
#define CSR5_TAIL_SIGMA 16
#define CSR5_TAIL_ONLY_NNZ (3 * CSR5_OMEGA * CSR5_SMALL_SIGMA)
/* stores = auto: the largest sigma that stages the stores (no empty rows). */
#define CSR5_STAGE_SIGMA_MAX 12

/* Longest run of empty rows one thread zeroes (longer runs are split). */
#define CSR5_RUN_MAX 32

/* Launches y = A*x on stream (a cudaStream_t): the tile/tail/zero kernel and,
 * unless calibration is inline, the calibration kernel. Returns a
 * cudaError_t as int (0 = success). */
int csr5_spmv_launch(const csr5_dev *d, const void *x, void *y, void *stream);

/* Inputs of the GPU conversion. */
typedef struct csr5_gpu_build {
    int32_t rows, nnz, sigma, tiles;
    size_t value_size;          /* 8 or 4 */
    const int32_t *src_row_ptr; /* the core's device CSR (read only) */
    const int32_t *src_col;
    const void *src_val;
    int32_t *row_ptr;           /* outputs (device, allocated by the caller) */
    int32_t *col;
    void *val;
    uint32_t *tile_ptr;
    uint32_t *desc;
    int32_t *tile_slots;        /* tiles: starts of flagged tiles, 0 for others */
    int32_t *empty_count;       /* empty rows per chunk of CSR5_EMPTY_CHUNK rows */
    int32_t *arrivals;          /* zeroed; NULL when calibration uses a kernel */
    int32_t *eo_ptr;            /* second step: empty_offset starts of each tile (uploaded) */
    int32_t *empty_offset;
    int32_t *empty_first;       /* second step: first list index of each chunk (uploaded) */
    int32_t *empty_rows;
} csr5_gpu_build;

/* Step 1 on stream: row_ptr copy, tile_ptr, descriptors, slot counts of the
 * flagged tiles, the transpose, empty rows per chunk, zeroed counters. */
int csr5_gpu_build_tiles(const csr5_gpu_build *b, void *stream);
/* Step 2 on stream, after eo_ptr and empty_first were uploaded: the slot
 * rows of the flagged tiles (eo_ptr adjusted for the head slot) and the
 * list of empty rows. */
int csr5_gpu_build_lists(const csr5_gpu_build *b, void *stream);
/* Waits for the work queued on stream, so that a failing conversion kernel
 * is reported by its step. Returns a cudaError_t as int. */
int csr5_gpu_wait(void *stream);
/* The text of a CUDA error code returned above. */
const char *csr5_cuda_error_text(int code);

#ifdef __cplusplus
}
#endif
#endif /* SPMVLAB_CSR5_H */
