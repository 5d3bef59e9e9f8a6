/* The csr plugin's kernel launchers (csr.cu, csr_adaptive.cu), callable
 * from C, and the shape constants of the adaptive path that the host
 * conversion and spmv_host share with the kernel. */
#ifndef CSR_KERNELS_H
#define CSR_KERNELS_H

#include <stdint.h>

#include "../common/value_store.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CSR_AD_BLOCK 128 /* threads of an adaptive block */
#define CSR_AD_ROWS 1024 /* most rows of a row block (option block_rows = auto) */
#define CSR_AD_CAP 1024  /* most non-zeros of a row block, staged in shared memory */
#define CSR_AD_LONG 256  /* rows longer than this are split into pieces instead */
#define CSR_AD_PIECE 2048 /* non-zeros per piece (block) of a long row */

/* The adaptive plan on the device: row blocks, then long-row pieces. */
typedef struct csr_adaptive_dev {
    int32_t blocks;            /* row blocks; block b holds rows [blk_row[b], blk_row[b+1]),
                                  its trailing rows longer than CSR_AD_LONG left to pieces */
    int32_t pieces;            /* blocks that each sum CSR_AD_PIECE entries of a long row */
    const int32_t *blk_row;    /* blocks + 1 row boundaries */
    const int32_t *piece_row;  /* row of each piece */
    const int32_t *piece_first; /* first piece of that row (its ticket and partials start) */
    void *partial;             /* pieces sums of the value type, written per call */
    int32_t *ticket;           /* pieces counters, 0 between calls (the last block resets) */
} csr_adaptive_dev;

/* y = A·x with `width` lanes per row (1 = scalar). f64 when is_f64, else
 * f32; val holds values, codes or nothing as vs says (value_store.h).
 * Asynchronous on stream. Returns 0 or a cudaError_t code. */
int csr_launch(int is_f64, int width, int32_t rows, const int32_t *row_ptr, const int32_t *col_idx,
               const spmvlab_value_store *vs, const void *val, const void *x, void *y, void *stream);
/* y = A·x by the adaptive plan a (one launch). Returns 0 or a cudaError_t code. */
int csr_launch_adaptive(int is_f64, const csr_adaptive_dev *a, const int32_t *row_ptr,
                        const int32_t *col_idx, const spmvlab_value_store *vs, const void *val, const void *x,
                        void *y, void *stream);
const char *csr_error_string(int code);

#ifdef __cplusplus
}
#endif
#endif
