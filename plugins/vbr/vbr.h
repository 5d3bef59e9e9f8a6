/* The vbr plugin's pieces shared between its files: the format, the
 * partitions and the build (vbr_build.c), the CPU execution (vbr_host.c)
 * and the kernel launcher (vbr.cu). */
#ifndef VBR_H
#define VBR_H

#include <stddef.h>
#include <stdint.h>

#include <spmvlab/plugin.h>

#include "../common/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VBR_WARP 32 /* lanes of the warp that walks one block row; the most rows of one */

/* The values option's choice values (choice rows in vbr.c). */
enum { VBR_VALUES_NATIVE, VBR_VALUES_F32 };

/* The typed options (ABI 1.1), filled by the core from the option table. */
typedef struct vbr_opts {
    int max_height;  /* most rows of a block row (1..32) */
    int min_entries; /* a block is kept when it holds at least this many entries */
    int values;      /* VBR_VALUES_*: storage of the block and remainder values */
} vbr_opts;

/* One VBR matrix with its CSR remainder. Block row b covers rows
 * rpart[b] .. rpart[b + 1] - 1, consecutive rows with one column pattern;
 * column partition p covers columns cpart[p] .. cpart[p + 1] - 1, columns
 * that every row holds all or none of. So each block (block row x column
 * partition) is dense: its h x w values lie column-major from voff[k], and
 * the blocks of a block row, bptr[b] .. bptr[b + 1] - 1, in column order. */
typedef struct vbr_fmt {
    spmvlab_ctx *ctx;     /* the instance's services; frees device memory */
    spmvlab_dtype dtype;  /* f64 or f32: x, y and the arithmetic */
    int32_t rows, cols, nnz;
    int store_f32;        /* 1: values stored in f32 for an f64 run */
    int32_t nbr;          /* block rows */
    int32_t ncp;          /* column partitions */
    int32_t nblocks;      /* kept blocks */
    int32_t blocked_nnz;  /* entries inside kept blocks */
    int32_t rem_nnz;      /* entries of the remainder */
    int32_t max_h;        /* the tallest block row */
    int32_t *rpart;       /* host, nbr + 1: first row of each block row */
    int32_t *cpart;       /* host, ncp + 1: first column of each column partition */
    int32_t *bptr;        /* host, nbr + 1: first block of each block row */
    int32_t *bcol;        /* host, nblocks: the block's column partition */
    int32_t *voff;        /* host, nblocks + 1: first value of each block */
    void *bval;           /* host, blocked_nnz values (f32 when store_f32) */
    int32_t *rptr;        /* host, rows + 1 remainder row pointers, or NULL */
    int32_t *rcol;        /* host, rem_nnz remainder columns, or NULL */
    void *rval;           /* host, rem_nnz remainder values, or NULL */
    int32_t *d_rpart, *d_cpart, *d_bptr, *d_bcol, *d_voff, *d_rptr, *d_rcol; /* device copies */
    void *d_bval, *d_rval;
} vbr_fmt;

/* Finds the partitions and fills f's host arrays from A (values in their
 * storage type). Returns OK, or NOMEM with the sentence in err. */
spmvlab_status vbr_build(vbr_fmt *f, const spmvlab_matrix *A, const vbr_opts *o, spmvlab_err *err);

/* The position of the first value of A that f32 storage cannot hold
 * honestly (overflow, or below the smallest normal f32), or -1. */
int64_t vbr_f32_unsafe(const spmvlab_matrix *A);

/* y = A x on the CPU from f's arrays, in the kernel's lane order. */
SPMVLAB_HOST_DECLS_F64_F32(vbr, vbr_fmt)

/* Launches the warp-per-block-row kernel (vbr.cu) on stream; returns 0 or
 * the cudaError_t code of the launch. */
SPMVLAB_LAUNCHER_DECLS(vbr, vbr_fmt)

#ifdef __cplusplus
}
#endif
#endif
