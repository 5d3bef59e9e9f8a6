/* The vbr plugin's pieces shared between its files: the format, the block
 * finder and the build (vbr_build.c), the CPU execution (vbr_host.c) and
 * the kernel launcher (vbr.cu). */
#ifndef VBR_H
#define VBR_H

#include <stddef.h>
#include <stdint.h>

#include <spmvlab/plugin.h>

#include "../common/value_store.h"
#include "../common/launch.h"
#include "../common/merge_path.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VBR_WARP 32      /* lanes of a warp: the rows of one slice */
#define VBR_MAX_WIDTH 255 /* a longer run of columns is cut into blocks of at most this width (uint8) */
/* max_bytes_ratio's default: under 10% fewer bytes than CSR the format's extra index work does not pay */
#define VBR_MIN_SAVING 0.9
#define VBR_TEXT_(x) #x
#define VBR_TEXT(x) VBR_TEXT_(x) /* a constant as the option table's default text */

/* The values option's choice values (choice rows in vbr.c). */
enum { VBR_VALUES_NATIVE, VBR_VALUES_F32 };

/* The remainder option's choice values: how the CSR remainder is summed
 * (vbr_fmt.rem_merge holds the resolved path; vbr_rem.c):
 * - VECTOR: rem_lanes lanes a remainder row, a second launch beside the
 *   block kernel (the parts write disjoint rows);
 * - MERGE: the merge-path kernels (../common/merge_path.cuh) over the
 *   remainder as a CSR of all rows write every row of y first, then the
 *   block kernel adds its rows. */
enum { VBR_REM_VECTOR, VBR_REM_MERGE, VBR_REM_AUTO };
/* remainder = auto: merge when the remainder rows' lengths vary by more than
 * MERGE_UNEVEN_ROWS_CV (../common/merge_path.h), or when a remainder row is longer than this: a warp would loop 256 trips on one row. */
#define VBR_REMAINDER_MERGE_LEN (256 * VBR_WARP)

/* The typed options (ABI 1.1), filled by the core from the option table. */
typedef struct vbr_opts {
    double max_bytes_ratio; /* refuse (limit) when vbr moves more than this times CSR's bytes */
    int values;             /* VBR_VALUES_*: storage of the block and remainder values */
    int remainder;          /* VBR_REM_*: how the CSR remainder is summed */
    int min_height;         /* rows of one column pattern a block row needs (expert) */
    int rem_lanes;          /* lanes per remainder row, or SPMVLAB_AUTO (expert) */
    int steps;              /* steps a lane issues per iteration of the block kernel (expert) */
    int min_block_rows;     /* refuse (limit) fewer block rows; 0: off */
    double min_block_entries; /* refuse (limit) blocks of at most this many entries on average; 0: off */
} vbr_opts;

/* One matrix as a block part and a CSR remainder; every row lies in
 * exactly one of them.
 *
 * Block part (1D-VBL): a block row is a run of consecutive rows with one
 * column pattern; one of at least min_height rows (and rows no longer than
 * the long-row threshold) is kept. Its blocks are the maximal runs of
 * consecutive columns of the pattern, each one start column (bcol) and one
 * width (bwid, at most 255). The kept rows, numbered q = 0 .. nq - 1 in
 * matrix order, form slices of 32, a lane per row: the slice's values lie
 * step by step (a row's t-th entry at step t), the rows still running at a
 * step in lane order, so a warp's loads of one step are consecutive words.
 *
 * Remainder: the other rows as CSR, a group of rem_lanes lanes per row
 * (vector), or (merge) a CSR of all rows, those of the block part empty,
 * summed by the merge-path pass. */
typedef struct vbr_fmt {
    spmvlab_ctx *ctx;    /* the instance's services; frees device memory */
    spmvlab_dtype dtype; /* f64 or f32: x, y and the arithmetic */
    int32_t rows, cols, nnz;
    int store_f32;       /* 1: values stored in f32 for an f64 run */
    int steps;           /* block kernel: steps per iteration (2, 4 or 8) */
    int rem_lanes;       /* remainder kernel: lanes per row (1 .. 32, a power of two) */
    int rem_merge;       /* 1: the remainder by the merge pass, the block kernel adding (vbr_rem.c) */
    double rem_cv;       /* std / mean of the remainder's row lengths; 0 without remainder */
    merge_dev mdev;      /* merge: the pass over d_rptr, d_rcol, d_rval; tiles 0 on the vector path */
    int32_t *s_end;      /* host, merge: the replay's scratch of one tile's row ends */
    merge_coord *mcoords; /* host, merge: the tiles' starts (tiles + 1) found at convert; NULL otherwise */
    int32_t nbr;         /* kept block rows */
    int32_t nq;          /* rows of the block part */
    int32_t nblocks;     /* blocks of the kept block rows */
    int32_t blocked_nnz; /* entries of the block part */
    int32_t nr;          /* rows of the remainder */
    int32_t rem_nnz;     /* entries of the remainder */
    int32_t *qrow;       /* host, nq: matrix row of block-part row q, or NULL when nq = rows */
    int32_t *qptr;       /* host, nq + 1: first value of row q's slice order (row lengths' prefix) */
    int32_t *qblk;       /* host, nq: the first block of row q's block row */
    int32_t *bcol;       /* host, nblocks: first column of each block */
    uint8_t *bwid;       /* host, nblocks: columns of each block */
    spmvlab_value_store vs; /* values = indexed | pattern | auto: how bval holds the block values
                          * (codes or one pattern value); the remainder keeps native values */
    void *bval;          /* host, blocked_nnz values (or codes), slice by slice, step by step */
    int32_t *rrow;       /* host, nr: matrix row of remainder row i, or NULL when nr = rows or merge */
    int32_t *rptr;       /* host, nr + 1 (merge: rows + 1) remainder row pointers, or NULL without remainder */
    int32_t *rcol;       /* host, rem_nnz remainder columns */
    void *rval;          /* host, rem_nnz remainder values */
    int32_t *d_qrow, *d_qptr, *d_qblk, *d_bcol, *d_rrow, *d_rptr, *d_rcol; /* device copies */
    uint8_t *d_bwid;
    void *d_bval, *d_rval;
} vbr_fmt;

/* What the block finder counted before anything is allocated. */
typedef struct vbr_count {
    int32_t nbr, nq, nblocks, blocked_nnz, nr, rem_nnz;
    int32_t long_row; /* rows longer than this go to the remainder */
    int32_t rem_max;  /* the longest remainder row */
    double rem_sq;    /* sum of the squared remainder row lengths */
    int merge;        /* the resolved remainder path (vbr_rem_path): 1 merge */
    double scratch;   /* merge: the pass's scratch bytes (merge_scratch_bytes) */
} vbr_count;

/* The row partition and its counts; in_block (rows bytes) marks the rows
 * of the block part. */
void vbr_count_blocks(const spmvlab_matrix *A, const vbr_opts *o, uint8_t *in_block, vbr_count *c);

/* Fills f's host arrays from A and the counts (values in their storage
 * type). Returns OK, or NOMEM with the sentence in err. */
spmvlab_status vbr_build(vbr_fmt *f, const spmvlab_matrix *A, const uint8_t *in_block, const vbr_count *c,
                         spmvlab_err *err);

/* Resolves the remainder path (f->rem_merge, f->rem_cv, c->merge) from the
 * option and the counts and, for merge, the pass's shape (f->mdev without
 * its device pointers and fix-up flag) and c->scratch (vbr_rem.c). */
void vbr_rem_path(vbr_fmt *f, const spmvlab_matrix *A, const uint8_t *in_block, const vbr_opts *o, vbr_count *c);

/* After vbr_build, merge only: the fix-up flag from the host rptr and the
 * replay's scratch. Returns OK or NOMEM. */
spmvlab_status vbr_rem_finish(vbr_fmt *f, spmvlab_err *err);

/* Device bytes of the format counted in c for a matrix of rows rows with
 * values stored in s bytes (README.md's footprint formula); no allocation. */
double vbr_count_bytes(const vbr_count *c, int32_t rows, double s);

/* Device bytes of f: vbr_count_bytes of its counts. */
double vbr_bytes(const vbr_fmt *f);

/* The position of the first value of A that f32 storage cannot hold
 * honestly (overflow, or below the smallest normal f32), or -1. */
int64_t vbr_f32_unsafe(const spmvlab_matrix *A);

/* y = A x on the CPU from f's arrays, in the kernels' lane order. */
SPMVLAB_HOST_DECLS_F64_F32(vbr, vbr_fmt)

/* Launches the slice kernel of the block part and the vector kernel of the
 * remainder, or the merge pass and then the slice kernel adding (vbr.cu),
 * on stream; returns 0 or the cudaError_t code of the first failed launch. */
SPMVLAB_LAUNCHER_DECLS(vbr, vbr_fmt)

#ifdef __cplusplus
}
#endif
/* The option table (vbr_options.c). */
extern const spmvlab_option vbr_options[];

#endif
