/*
 * hyb: the format handle (built by hyb.c, inspected by test_hyb.c) and the
 * kernel launchers that hyb.c calls and hyb.cu defines. Each launcher returns
 * cudaGetLastError() after its launch (cudaSuccess when there was nothing to
 * launch). Values, x and y are double for SPMVLAB_F64 and float for
 * SPMVLAB_F32.
 */
#ifndef SPMVLAB_HYB_H
#define SPMVLAB_HYB_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "../coo/coo_blocked.h"
#include "../coo/coo_owner.h"
#include "../coo/coo_rule.h"
#include "../coo/coo_segmented.h"
#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The coo_kernel option's choices, in the order of its "a|b" text: the COO
 * kernels of the coo plugin (coo_blocked.h, coo_segmented.h). */
enum { HYB_COO_BLOCKED = 0, HYB_COO_SEGMENTED = 1, HYB_COO_AUTO = 2 };

/* Threads per block of the ELL kernel. */
#define HYB_BLOCK 256
/* Most lanes per row of the ELL kernel (f64; f32 takes at most 4, so that
 * each lane group still reads whole 32-byte sectors). */
#define HYB_MAX_LANES 8
/* An ELL part of fewer lane groups than this (rows x lanes), each walking
 * more than HYB_THIN_SLOTS slots a lane, leaves the device waiting on each
 * thread's chain of gathers: pure COO instead (guarded=4, README.md). */
#define HYB_THIN_THREADS 32768
#define HYB_THIN_SLOTS 64

typedef struct hyb_format {
    spmvlab_ctx *ctx;     /* services; outlives the format */
    spmvlab_dtype dtype;  /* value type of val arrays, x and y */
    int32_t rows, cols;   /* matrix shape */
    int32_t nnz;          /* stored non-zeros, both parts */
    int32_t width;        /* K: ELL slots per row; 0: pure COO */
    int32_t lanes;        /* G: lanes of the ELL kernel per row (1, 2, 4, 8) */
    int32_t ell_entries;  /* non-zeros in the ELL part (slots minus padding) */
    int32_t coo_entries;  /* non-zeros in the COO part */
    int guarded;          /* auto width made pure COO: 1 byte guard, 2 COO share, 3 launch-bound, 4 thin ELL */
    int coo_kernel;       /* HYB_COO_BLOCKED or HYB_COO_SEGMENTED */
    coo_seg_plan plan;    /* chunk per warp of the COO kernel (coo_segmented.h) */
    int owner;            /* pure COO written without a memset (../coo/coo_owner.h) */
    coo_own own;          /* owner: the carry slots */
    int32_t *starts;      /* pure COO, segmented: chunk edges at row starts (plan.starts), or NULL */
    /* host copies, read by spmv_host */
    int32_t *ell_col;           /* rows*K columns, -1 in padding */
    void *ell_val;              /* rows*K values, 0 in padding */
    int32_t *coo_row, *coo_col; /* coo_entries rows and columns */
    void *coo_val;              /* coo_entries values */
    /* device copies, read by the kernels */
    int32_t *d_ell_col;
    void *d_ell_val;
    int32_t *d_coo_row, *d_coo_col;
    void *d_coo_val;
    int32_t *d_starts;
} hyb_format;

/* y[i] = sum of row i's ELL part for every row (plain store), `lanes` lanes
 * per row; width 0 zeroes y instead. col < 0 marks padding, always at the
 * end of a row. */
cudaError_t hyb_launch_ell(int dtype, int32_t rows, int32_t width, int32_t lanes,
                           const int32_t *col, const void *val, const void *x, void *y,
                           cudaStream_t stream);

/* Adds the COO part to y with the coo plugin's blocked or segmented kernel
 * (HYB_COO_*; atomics at chunk edges; the rows a chunk owns get a plain
 * store when y_zeroed, i.e. there is no ELL part, else a plain add). With
 * own (pure COO, y not zeroed) the owner write of ../coo/coo_owner.h: every
 * one of the rows rows stored once, then the carry pass. */
cudaError_t hyb_launch_coo(int kernel, int dtype, int y_zeroed, int32_t rows, coo_seg_plan plan,
                           int32_t entries, const int32_t *row, const int32_t *col,
                           const void *val, const void *x, void *y, const coo_own *own,
                           cudaStream_t stream);

/* Blocks of that COO kernel resident per SM; 0 when unknown (no device). */
int hyb_coo_occupancy(int kernel, int dtype, int y_zeroed);

#ifdef __cplusplus
}
#endif
typedef struct hyb_opts {
    int ell_width;       /* K, or SPMVLAB_AUTO */
    double row_fraction; /* auto width: fraction of the rows that must reach K */
    int min_rows;        /* auto width: rows that must reach K, at least */
    double ell_guard;    /* auto width: largest ELL/COO byte ratio kept; 0: no guards */
    double coo_share;    /* auto width: largest share of the non-zeros left to COO */
    int small_nnz;       /* auto width: below this many non-zeros, no ELL beside a COO part */
    int ell_lanes;       /* G, or SPMVLAB_AUTO */
    int coo_kernel;      /* HYB_COO_* */
    int coo_zero;        /* COO_ZERO_* (../coo/coo_owner.h) */
    int coo_loads;       /* COO_LOADS_* (../coo/coo_rule.h) */
    int coo_edges;       /* COO_EDGES_* (../coo/coo_owner.h) */
    int coo_chunk;       /* COO entries per warp's chunk, or SPMVLAB_AUTO */
} hyb_opts;

/* The option table (hyb_options.c). */
extern const spmvlab_option hyb_options[];

#endif
