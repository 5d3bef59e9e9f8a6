/*
 * jds: the format handle (built by jds_build.c, run by jds.c, jds_host.c
 * and jds.cu, inspected by test_jds.c) and the kernel launcher. The format
 * is described in jds.c.
 */
#ifndef SPMVLAB_JDS_H
#define SPMVLAB_JDS_H

#include <stdint.h>

#include "../common/long_rows.h"
#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define JDS_WARP 32            /* lanes of a warp */
#define JDS_UNROLL 4           /* diagonals a lane loads before it adds them */
#define JDS_PIECE 512          /* long rows: entries per warp piece (16 per lane) */
#define JDS_DEFAULT_WARPS (132 * 64) /* resident warps assumed without a GPU (H100) */

/* The options struct the core fills (ABI 1.1); SPMVLAB_AUTO for "auto". */
typedef struct jds_opts {
    int threads_per_row; /* lanes per row of the diagonal kernel, or auto */
    int long_row;        /* rows longer than this take the long-row path, or auto */
} jds_opts;

typedef struct jds_format {
    spmvlab_ctx *ctx;        /* services; outlives the format */
    spmvlab_dtype dtype;     /* value type of val, x and y */
    int32_t rows, cols, nnz; /* matrix shape and non-zeros */
    int32_t threads_per_row; /* lanes sharing a row in the diagonal kernel */
    int32_t long_threshold;  /* rows longer than this are long */
    int tpr_auto, long_auto; /* which of the two came from a rule */
    int32_t nlong;           /* long rows: sorted positions 0 .. nlong - 1 */
    int32_t diagonals;       /* D: jagged diagonals of the short rows (their longest) */
    int32_t short_nnz;       /* entries of the short rows, stored first in col / val */
    int32_t npieces;         /* pieces of the long rows */
    int32_t multi_piece;     /* 1 when a long row has more than one piece */
    /* host copies, read by spmv_host */
    int32_t *perm;      /* rows: sorted position -> original row */
    int32_t *jd_ptr;    /* D + 1: start of each diagonal of the short rows */
    int32_t *long_ptr;  /* nlong + 1: start of each long row in col / val */
    int32_t *piece_ptr; /* nlong + 1: first piece of each long row */
    int32_t *piece_of;  /* npieces: the long row of each piece */
    int32_t *col;       /* nnz columns: diagonals, then the long rows */
    void *val;          /* nnz values, same order */
    /* device copies, read by the kernels */
    int32_t *d_perm, *d_jd_ptr, *d_long_ptr, *d_piece_ptr, *d_piece_of, *d_col;
    void *d_val;
    void *d_partial; /* npieces partial sums when multi_piece */
    int32_t *d_count; /* nlong finished-piece counters (0 between launches) when multi_piece */
} jds_format;

/* The long-row rule of ../common/long_rows.h: max(64, 4 ceil(nnz / rows)). */
int32_t jds_rule_long_row(int32_t rows, int32_t nnz);

/* The threads_per_row rule of ../common/long_rows.h: doubles T from 1 while
 * each lane keeps at least 8 entries of the mean short row and the
 * rows * 2T / 32 warps of the doubled launch still fit in the resident
 * warps. */
int32_t jds_rule_tpr(double mean_len, int64_t rows, int64_t resident_warps);

/* Sorts, splits and fills the host arrays of f (ctx, dtype, shape set) from
 * A under o. Returns OK or NOMEM; the caller frees f on failure. */
spmvlab_status jds_build(jds_format *f, const spmvlab_matrix *A, const jds_opts *o,
                         spmvlab_err *err);

/* y = A x on the CPU, the kernels' operations in their order. */
void jds_host_f64(const jds_format *f, const double *x, double *y);
void jds_host_f32(const jds_format *f, const float *x, float *y);

/* Launches the one kernel (long rows' pieces, then the diagonals) on
 * stream (a cudaStream_t) with f's device arrays. Returns the first cudaError_t as
 * an int (0 = cudaSuccess). */
int jds_spmv_launch(const jds_format *f, const void *x, void *y, void *stream);

/* The text of a CUDA error code returned by jds_spmv_launch. */
const char *jds_cuda_error_text(int code);

#ifdef __cplusplus
}
#endif
/* The option table (jds_options.c). */
extern const spmvlab_option jds_options[];

#endif
