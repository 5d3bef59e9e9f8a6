/*
 * SELL-C-sigma: what the host side (sell.c, sell_build.c, sell_host.c) and
 * the kernels (sell.cu) share. The format is described in sell.c.
 */
#ifndef SPMVLAB_SELL_H
#define SPMVLAB_SELL_H

#include <stdint.h>

#include "../common/value_store.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads of one warp; C and threads_per_row are chosen relative to it. */
#define SELL_WARP 32

/* Column index of a padding slot: the kernels load no x for it, so a
 * padding slot never multiplies an x value (Inf or NaN in x stays out). */
#define SELL_PAD_COL (-1)

/* Column offset of a padding slot in a slice of 16-bit offsets: a slice is
 * compressed only when its columns span at most SELL_SPAN_MAX, so no real
 * entry has this offset and the kernels need no other mask to skip x. */
#define SELL_PAD_OFF 0xFFFFu
#define SELL_SPAN_MAX 65534

/* How the kernels read column indices: one 32-bit column per slot
 * (SELL_IX_32); a 16-bit offset per slot from its slice's 32-bit base, every
 * slice (SELL_IX_16); or per slice either of the two (SELL_IX_MIXED: slices
 * whose columns span more than SELL_SPAN_MAX keep 32 bits, split in a low
 * and a high 16-bit half); or SELL_IX_COLUMN: as SELL_IX_MIXED with a base
 * per slot column of a slice (C consecutive slots) instead of per slice. */
enum { SELL_IX_32 = 0, SELL_IX_16 = 1, SELL_IX_MIXED = 2, SELL_IX_COLUMN = 3 };

/* Slots a lane loads before it adds them (memory-level parallelism). */
#define SELL_UNROLL 4
/* Lanes per row on launch-bound matrices (sell_rule_tpr). */
#define SELL_TPR_SMALL 4
/* Widest slice over the mean from which launch-bound matrices take 8 lanes. */
#define SELL_TPR_UNEVEN 2.5

/* Long-row path: one warp adds one piece of at most SELL_PIECE entries of a
 * long row, each lane SELL_PIECE / 32 of them; in a row of several pieces
 * the warp that finishes last adds the pieces' partial sums. */
#define SELL_PIECE 512

/* The options struct the core fills (ABI 1.1); INT_AUTO members hold
 * SPMVLAB_AUTO for "auto". */
typedef struct sell_opts {
    int C;               /* rows per slice */
    int sigma;           /* sorting window in rows, or auto */
    int threads_per_row; /* lanes per row, or auto */
    int long_row;        /* rows longer than this take the long-row path, or auto */
    int index;           /* enum sell_index_choice */
    int index_base;      /* enum sell_base_choice */
    int values;          /* enum sell_values_choice */
    int loads;           /* enum sell_loads_choice */
} sell_opts;

/* The choices of the index and values options, in the tables' order. */
enum sell_index_choice { SELL_INDEX_AUTO, SELL_INDEX_32, SELL_INDEX_16 };
enum sell_values_choice { SELL_VALUES_NATIVE, SELL_VALUES_F32 };
enum sell_base_choice { SELL_BASE_AUTO, SELL_BASE_SLICE, SELL_BASE_COLUMN };
enum sell_loads_choice { SELL_LOADS_AUTO, SELL_LOADS_CACHED, SELL_LOADS_STREAMING };

/* The device arrays of one SELL-C-sigma matrix plus its long-row tail, as
 * the kernels read them. */
typedef struct sell_device_view {
    int32_t rows;               /* rows of A; sorted positions >= rows are padding */
    int32_t C;                  /* rows per slice */
    int32_t threads_per_row;    /* 1, 2, 4, ..., 32 lanes share one row */
    int32_t is_f32;             /* x and y are float (else double) */
    int32_t val_f32;            /* slice values are float (always when is_f32) */
    int32_t index_mode;         /* SELL_IX_32, SELL_IX_16 or SELL_IX_MIXED */
    int32_t stream;             /* the slices' columns and values are loaded past L1 (one lane a row) */
    const int32_t *slice_ptr;   /* first slot of each slice, nslices + 1 (width = diff / C) */
    const int32_t *perm;        /* original row of each sorted position, ~row for a long row;
                                 * NULL = identity (only without long rows) */
    const int32_t *col;         /* SELL_IX_32: column of each slot, SELL_PAD_COL for padding */
    const uint16_t *lo;         /* otherwise: offset from the slice's base (SELL_PAD_OFF for
                                 * padding), or the low half of the column in a 32-bit slice */
    const uint16_t *hi;         /* SELL_IX_MIXED: high halves of the 32-bit slices' columns */
    const int32_t *aux;         /* per slice (SELL_IX_COLUMN: per slot column of a slice):
                                 * base column (>= 0), or ~(first hi slot) when 32-bit */
    const void *val;            /* value of each slot, 0 for padding (or its code, by vs) */
    const spmvlab_value_store *vs; /* how val holds the values (val_f32: native floats) */
    int32_t nlong;              /* long rows (0: no long-row path) */
    int32_t npieces;            /* pieces of the long rows */
    int32_t multi_piece;        /* 1 when some long row has more than one piece */
    const int32_t *long_row;    /* original row of each long row, nlong */
    const int32_t *long_ptr;    /* first entry of each long row, nlong + 1 */
    const int32_t *piece_ptr;   /* first piece of each long row, nlong + 1 */
    const int32_t *piece_of;    /* long row of each piece, npieces */
    const int32_t *long_col;    /* columns of the long rows' entries */
    const void *long_val;       /* values of the long rows' entries */
    void *partial;              /* one partial sum per piece (dtype) */
    int32_t *count;             /* finished pieces of each long row, 0 between launches */
} sell_device_view;

/* Launches y = A*x on stream (a cudaStream_t): one kernel, the long rows'
 * pieces and the slices. Returns the first cudaError_t as
 * an int (0 = cudaSuccess). */
int sell_spmv_launch(const sell_device_view *A, const void *x, void *y, void *stream);

/* The text of a CUDA error code returned by sell_spmv_launch. */
const char *sell_cuda_error_text(int code);

#ifdef __cplusplus
}
#endif
#endif /* SPMVLAB_SELL_H */
