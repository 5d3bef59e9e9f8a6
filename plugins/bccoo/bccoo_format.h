/*
 * bccoo: the format on the host side, shared by the conversion
 * (bccoo_build.c), the plugin glue (bccoo.c), the CPU execution
 * (bccoo_host.c) and the unit test.
 */
#ifndef SPMVLAB_BCCOO_FORMAT_H
#define SPMVLAB_BCCOO_FORMAT_H

#include <stddef.h>

#include <spmvlab/plugin.h>

#include "../common/block_count.h"
#include "bccoo.h"

/* The format's host arrays (sizes in bccoo.h's chunk layout). */
typedef struct bccoo_arrays {
    int h, w;
    int32_t block_rows, blocks, chunks, segments, escaped;
    void *val;                /* chunks * BCCOO_CHUNK * h * w values */
    uint8_t *flags;           /* chunks * BCCOO_THREADS */
    int32_t *base;            /* chunks * BCCOO_THREADS */
    int16_t *delta;           /* chunks * BCCOO_CHUNK */
    int32_t *esc;             /* escaped * BCCOO_PER_THREAD */
    int32_t *seg0;            /* chunks */
    int32_t *brow;            /* segments, or NULL when no block row is empty */
} bccoo_arrays;

/* Builds the arrays of A (0-based CSR, vs-byte values) in h x w blocks.
 * Returns 0, or -1 when out of host memory (a is then freed). */
int bccoo_build(bccoo_arrays *a, const spmvlab_matrix *A, size_t vs, int h, int w);
void bccoo_arrays_free(bccoo_arrays *a);
/* Device bytes of the arrays plus the carries. */
size_t bccoo_bytes(const bccoo_arrays *a, size_t vs);
/* Block column of slot i of thread t of chunk c. */
int32_t bccoo_block_col(const bccoo_arrays *a, int64_t c, int t, int i);

typedef struct bccoo_format {
    spmvlab_ctx *ctx;
    spmvlab_dtype dtype;
    int32_t rows, cols, nnz;
    int shape_auto;           /* 1 when the rule chose h or w */
    bccoo_arrays a;           /* host arrays, for spmv_host */
    void *carry_val;          /* spmv_host: a chunk's open sums (h values) */
    bccoo_dev dev;
    size_t dev_bytes;
} bccoo_format;

SPMVLAB_HOST_DECLS_F64_F32(bccoo, bccoo_format)

typedef struct bccoo_opts {
    int height; /* 1, 2, 4 or SPMVLAB_AUTO */
    int width;  /* 1, 2, 4 or SPMVLAB_AUTO */
    int min_chunks; /* auto: a shape of fewer chunks gives way to 1x1; 0: off */
} bccoo_opts;

/* The option table (bccoo_options.c). */
extern const spmvlab_option bccoo_options[];

#endif
