/*
 * The SELL-C-sigma handle and the host-side steps that build and run it:
 * sell.c (plugin entry points), sell_build.c (rules, sorting, layout) and
 * sell_host.c (the kernels on the CPU) share it. Host code only.
 */
#ifndef SPMVLAB_SELL_FORMAT_H
#define SPMVLAB_SELL_FORMAT_H

#include <stdint.h>

#include "../common/long_rows.h"
#include "../common/value_store.h"
#include "sell.h"
#include "spmvlab/plugin.h"

#define SELL_C_MAX 4096              /* largest slice height accepted; option C: "1..4096" */
#define SELL_SIGMA_GLOBAL 1073741824 /* sigma >= 2^30: one global sort, for every C */
#define SELL_SIGMA_FILL 1.10         /* auto sigma: padding up to 10 % needs no sort */
#define SELL_C1_MIN_TPR 8             /* auto C: 1 (else 32) when 8 or more lanes share a row */
#define SELL_DEFAULT_WARPS (132 * 64) /* resident warps assumed without a GPU (H100) */
#define SELL_INDEX_SHARE 0.5         /* auto index: 16 bits when >= half the slots compress */
#define SELL_STREAM_L2_SHARE 0.75    /* auto loads: streaming when a product moves this share of L2 */
#define SELL_DEFAULT_L2 (50.0 * 1024 * 1024) /* L2 bytes assumed without a GPU (H100) */
#define SELL_BASE_MARGIN 4           /* auto index_base: per slot column when that saves more than
                                      * 1/4 byte a slot (~2 % of an f64 slot's traffic), which
                                      * pays for the kernel's base load at every slot */

/* One SELL-C-sigma matrix with its long-row tail: host arrays for
 * spmv_host, device twins for spmv. */
typedef struct sell_fmt {
    spmvlab_ctx *ctx;          /* services of the instance; frees device memory */
    spmvlab_dtype dtype;       /* type of val, x and y */
    int32_t rows, cols, nnz;   /* shape of A and its non-zeros */
    int32_t C;                 /* rows per slice */
    int32_t sigma;             /* sorting window used: 1 (none) .. rows (global) */
    int32_t threads_per_row;   /* lanes sharing one row in the slice kernel */
    int32_t long_threshold;    /* rows longer than this take the long-row path */
    int C_auto, sigma_auto, tpr_auto, long_auto; /* which of the four came from a rule */
    int32_t nslices;           /* ceil(rows / C) */
    int32_t max_width;         /* widest slice */
    int32_t stored;            /* slots of the slices: their non-zeros plus padding */
    int32_t sell_nnz;          /* non-zeros in the slices (nnz - long_nnz) */
    int32_t *slice_ptr;        /* host, nslices + 1 slot offsets */
    int32_t *perm;             /* host, rows; NULL when the order is the identity */
    int32_t *col;              /* host, stored columns (SELL_PAD_COL for padding); index 32 */
    spmvlab_value_store vs;    /* how val holds the slice values: native, codes or a pattern value
                                * (the long rows keep native values) */
    void *val;                 /* host, stored values of dtype (float when val_f32), or codes */
    int val_f32;               /* slice values stored in f32 for an f64 run (values = f32) */
    int32_t index_bits;        /* 32 (col) or 16 (lo, hi, aux) */
    int index_auto;            /* index came from the rule */
    int32_t index_mode;        /* SELL_IX_32, SELL_IX_16 or SELL_IX_MIXED */
    int stream;                /* slices' columns and values loaded past L1 (sell_rule_loads) */
    int loads_auto;            /* stream came from the rule */
    int32_t compressed_slices; /* slices whose columns span at most SELL_SPAN_MAX */
    int32_t compressed_slots;  /* slots of the groups (slices or slot columns) that fit */
    int index_column;          /* one base per slot column of a slice, else per slice */
    int32_t ngroups;           /* groups with a base: slices, or stored / C slot columns */
    int32_t hi_slots;          /* slots of the 32-bit slices when index_bits = 16 */
    uint16_t *lo;              /* host, stored low halves / offsets; index 16 */
    uint16_t *hi;              /* host, hi_slots high halves; index 16 with 32-bit slices */
    int32_t *aux;              /* host, ngroups bases or ~(first hi slot); index 16 */
    int32_t nlong;             /* long rows */
    int32_t long_nnz;          /* their entries */
    int32_t npieces;           /* their pieces of at most SELL_PIECE entries */
    int32_t multi_piece;       /* 1 when a long row has more than one piece */
    int32_t *long_row;         /* host, nlong original rows (ascending) */
    int32_t *long_ptr;         /* host, nlong + 1 entry offsets */
    int32_t *piece_ptr;        /* host, nlong + 1 piece offsets */
    int32_t *piece_of;         /* host, npieces: the long row of each piece */
    int32_t *long_col;         /* host, long_nnz columns */
    void *long_val;            /* host, long_nnz values of dtype */
    int32_t *d_slice_ptr, *d_perm, *d_col, *d_aux; /* device twins of the arrays above */
    uint16_t *d_lo, *d_hi;
    void *d_val;
    int32_t *d_long_row, *d_long_ptr, *d_piece_ptr, *d_piece_of, *d_long_col;
    void *d_long_val;
    void *d_partial;           /* device, npieces partial sums (dtype) when multi_piece */
    int32_t *d_count;          /* device, nlong finished-piece counters (0) when multi_piece */
} sell_fmt;

/* The long-row threshold rule of ../common/long_rows.h: max(64, 4 ceil(nnz / rows)). */
int32_t sell_rule_long_row(int32_t rows, int32_t nnz);

/* The threads_per_row rule of ../common/long_rows.h: doubles T from 1 while
 * each lane keeps at least 8 slots of the mean slice width and the
 * rows * 2T / 32 warps of the doubled launch still fit in the device's
 * resident warps. */
int32_t sell_rule_tpr(double mean_width, int32_t max_width, int64_t rows, int64_t resident_warps);

/* Checks C, sigma and threads_per_row (SPMVLAB_AUTO skips a check).
 * Returns 0, or -1 with one sentence in why. */
int sell_check_values(int C, int sigma, int tpr, char *why, size_t len);

/* The index rule: 32 or 16 bits for a run of stored slots of which
 * compressible sit in slices spanning at most SELL_SPAN_MAX columns;
 * choice is an enum sell_index_choice. auto: 16 when compressible is at
 * least SELL_INDEX_SHARE of stored (and stored > 0), else 32. */
int32_t sell_rule_index(int choice, int64_t compressible, int64_t stored);

/* Whether one slice's columns, from lo to hi over its entries (a slice
 * without entries passes lo > hi), fit 16-bit offsets from lo. */
int sell_slice_compressible(int32_t lo, int32_t hi);

/* The index_base rule: 1 (a base per slot column of a slice) or 0 (per
 * slice); choice is an enum sell_base_choice. auto: per slot column when
 * its index bytes, 2 (stored - compressible slots) + 4 bases, are more than
 * stored / SELL_BASE_MARGIN below those per slice, given the compressible
 * slots and the number of groups of either kind. */
int sell_rule_index_base(int choice, int64_t stored, int64_t slots_slice, int64_t nslices,
                         int64_t slots_column, int64_t ncolumns);

/* The loads rule: 1 (the slices' columns and values loaded past L1 and
 * L2's first to go, evict-first) or 0 (through L1), for choice (an enum
 * sell_loads_choice), the lanes a row (streaming is built for one) and the
 * bytes a product moves (the format's device bytes, x and y) against the
 * L2's. auto: streaming from SELL_STREAM_L2_SHARE of L2: a matrix that
 * stays in L2 between products loses its arrays there when they go first
 * (README.md, "The rules"). */
int sell_rule_loads(int choice, int32_t threads_per_row, double moved_bytes, double l2_bytes);

/* Applies the index options to the filled slices of f (col set): counts
 * the compressible slices and slot columns, applies both rules and, for 16
 * bits, replaces col by lo, hi and aux. Returns OK or NOMEM. */
spmvlab_status sell_compress_index(sell_fmt *f, int choice, int base_choice, spmvlab_err *err);

/* values = f32: refuses (LIMIT, with the value, its row and column) an A
 * whose finite non-zero values overflow f32 or fall below its smallest
 * normal, so that every stored value keeps a relative error <= 2^-24;
 * otherwise narrows f's slice values to float. Returns OK, LIMIT or NOMEM. */
spmvlab_status sell_narrow_values(sell_fmt *f, const spmvlab_matrix *A, spmvlab_err *err);

/* Plans and fills the slices and the long rows of f (ctx, dtype, shape, C
 * set) from A under o: long-row split, sigma, sort, widths, threads per
 * row, host arrays. Returns OK, LIMIT (more than 2^31 - 1 slots) or NOMEM
 * with the sentence in err; the caller frees f on failure. */
spmvlab_status sell_build(sell_fmt *f, const spmvlab_matrix *A, const sell_opts *o,
                          spmvlab_err *err);

/* The device's copy of the sorted order, with long rows (f->nlong > 0):
 * the original row at each sorted position (the identity without perm),
 * ~row for a long row, so that the slices skip the rows the long-row
 * pieces write in the same kernel. NULL without long rows (then the device
 * takes perm as it is) or without host memory; the caller frees it. */
int32_t *sell_device_perm(const sell_fmt *f);

/* y = A x on the CPU from f's host arrays, the kernels' operations in the
 * kernels' order (values of dtype f->dtype). */
void sell_host_f64(const sell_fmt *f, const double *x, double *y);
void sell_host_f32(const sell_fmt *f, const float *x, float *y);

/* The option table (sell_options.c). */
extern const spmvlab_option sell_options[];

#endif /* SPMVLAB_SELL_FORMAT_H */
