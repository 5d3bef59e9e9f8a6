/* The bcsr plugin's pieces shared between its files: the format, the shape
 * rule (bcsr_shape.c), the conversion (bcsr_build.c), the CPU execution
 * (bcsr_host.c) and the kernel launcher (bcsr.cu). */
#ifndef BCSR_H
#define BCSR_H

#include <stddef.h>
#include <stdint.h>

#include <spmvlab/plugin.h>

#include "../common/launch.h"
#include "../common/value_store.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BCSR_MAX_DIM 8     /* options r and c range over "1..8" */
#define BCSR_WARP 32       /* lanes of the warp that walks one block row */

/* col / c for c in 1..8, by constant divisors: the conversion divides every
 * column index several times, and a division by a variable costs tens of
 * cycles where a constant one is a multiply. */
static inline int32_t bcsr_div(int32_t col, int c)
{
    switch (c) {
    case 1: return col;
    case 2: return col / 2;
    case 3: return col / 3;
    case 4: return col / 4;
    case 5: return col / 5;
    case 6: return col / 6;
    case 7: return col / 7;
    default: return col / 8;
    }
}

/* The kernel option's choices, in the option table's order. */
enum { BCSR_KERNEL_AUTO, BCSR_KERNEL_WARP, BCSR_KERNEL_SLICE };
/* kernel = auto: from this many non-zeros a matrix the slice layout does
 * not pay for is refused (status limit) rather than run by the warp kernel
 * (README.md, "When bcsr refuses"). */
#define BCSR_WARP_MAX_NNZ (1 << 19)
/* kernel = auto: a matrix with a row longer than this is refused likewise:
 * the warp kernel sums each remainder row with one warp (README.md). */
#define BCSR_WARP_MAX_ROW 1024

/* The typed options (ABI 1.1), filled by the core from the option table. */
typedef struct bcsr_opts {
    int r;           /* block rows, or SPMVLAB_AUTO: chosen by the shape rule */
    int c;           /* block columns, or SPMVLAB_AUTO */
    double max_fill; /* a block is kept when r*c <= max_fill * its real entries */
    double min_saving; /* auto: the share of 1x1's bytes a shape must save, else LIMIT */
    int kernel;        /* BCSR_KERNEL_*: the layout and kernel, auto by bcsr_slice_pays */
    int x_share;       /* slice, r >= c: a block row's lanes share x by shuffles */
    int x_window;      /* slice: each thread block stages the x its blocks read in shared memory */
    int values;        /* SPMVLAB_VALUES_*: native, indexed, pattern or auto */
    int code_bits;     /* SPMVLAB_CODE_BITS_*: the width of a code; auto takes whole bytes */
} bcsr_opts;

/* The cost of one r x c shape measured on a matrix: what the blocks keep,
 * what the CSR remainder gets, and the device bytes of the whole format. */
typedef struct bcsr_shape {
    int r, c;
    double blocks;      /* kept blocks */
    double blocked_nnz; /* real entries inside kept blocks */
    double rem_nnz;     /* entries left to the CSR remainder */
    double bytes;       /* device bytes (the footprint formula of README.md) */
} bcsr_shape;

/* One BCSR matrix with its CSR remainder: host arrays for spmv_host, device
 * copies for spmv. Blocks are r x c. Warp layout: values row-major within a
 * block and the blocks of a block row contiguous. Slice layout
 * (bcsr_slice.c): bcol and bval hold nslots slots, block rows interleaved
 * in slices of BCSR_WARP / r so that a warp's lanes, one per row, read
 * consecutive words. The remainder is a CSR over all rows (absent, every
 * pointer NULL, when no entry is left over). */
typedef struct bcsr_fmt {
    spmvlab_ctx *ctx;     /* the instance's services; frees device memory */
    spmvlab_dtype dtype;  /* f64 or f32: values, x and y */
    int32_t rows, cols, nnz;
    int r, c;             /* the block shape */
    int automatic;        /* 1 when the shape rule chose r and c */
    double max_fill;      /* the option the blocks were kept with */
    int32_t nbr;          /* block rows: ceil(rows / r) */
    int32_t nblocks;      /* kept blocks */
    int32_t rem_nnz;      /* entries of the remainder */
    int slice;            /* 1: slice layout and kernel, 0: warp per block row */
    int32_t nslices;      /* slice layout: slices of slice_h block rows */
    int32_t slice_h;      /* slice layout: block rows per slice, BCSR_WARP / r */
    int32_t nslots;       /* entries of bcol (blocks, and slice padding) */
    int x_share;          /* slice kernel: x loaded once per block, shuffled (r >= c > 1) */
    int32_t xwin_max;     /* slice kernel with x windows: the widest window (x entries), else 0 */
    int32_t *xwin;        /* host, 2 per thread block of the slice kernel: its window's first and last + 1 column */
    int32_t *d_xwin;      /* device copy */
    int values_mode;      /* the values option (SPMVLAB_VALUES_*), resolved by bcsr_build */
    int code_bits;        /* the code_bits option (SPMVLAB_CODE_BITS_*), applied by bcsr_build */
    spmvlab_value_store vs; /* how bval and rval hold the values: native, codes or one pattern value */
    int32_t *sptr;        /* host, nslices + 1: first slot of each slice, or NULL */
    int32_t *bptr;        /* host, nbr + 1: first block of each block row */
    int32_t *bcol;        /* host, nslots: first column of each block */
    void *bval;           /* host, nslots * r * c entries (vs.elem bytes each: values or codes; 4-bit codes packed two a byte once placed) */
    int32_t *rptr;        /* host, rows + 1 remainder row pointers, or NULL */
    int32_t *rcol;        /* host, rem_nnz remainder columns, or NULL */
    void *rval;           /* host, rem_nnz remainder entries (as bval), or NULL */
    int32_t *d_bptr, *d_bcol, *d_rptr, *d_rcol, *d_sptr; /* device copies */
    void *d_bval, *d_rval;
} bcsr_fmt;

/* Measures shape r x c on A: a block (aligned to multiples of r and c) is
 * kept when r*c <= max_fill * its entries. Block rows are sampled with the
 * given stride (1: all) and the counts scaled to the whole matrix. */
void bcsr_shape_measure(const spmvlab_matrix *A, int r, int c, double max_fill, int32_t stride,
                        int32_t *count, int32_t *touched, bcsr_shape *out);

/* The device bytes of a shape from its counts (README.md's formula). */
double bcsr_shape_bytes(const spmvlab_matrix *A, int r, int c, double blocks, double rem_nnz);

/* Chooses the shape with the fewest device bytes among r, c in 1..8 (a
 * fixed r or c narrows the search), measured on a sample of at most about
 * 2^18 non-zeros. Fills *best, *best_blocked (the best shape other than
 * 1x1, for the refusal's numbers) and *csr (1x1, plain CSR's bytes).
 * Returns 0, or -1 when out of memory. */
int bcsr_shape_choose(const spmvlab_matrix *A, const bcsr_opts *o, bcsr_shape *best,
                      bcsr_shape *best_blocked, double *csr);

/* Fills f's host arrays for shape f->r x f->c from A (exact counts).
 * Returns OK or NOMEM / LIMIT with the sentence in err. */
spmvlab_status bcsr_build(bcsr_fmt *f, const spmvlab_matrix *A, spmvlab_err *err);

/* The slots the slice layout of f's blocks would take: every block of a
 * slice padded to its longest block row. */
int64_t bcsr_slice_slots(const bcsr_fmt *f);

/* Whether the slice kernel should run f under kernel = auto: blocks exist,
 * slice padding adds at most 10 % of them, and the remainder, walked by one
 * lane per row, holds at most 4 entries a row on average and 32 in any. */
int bcsr_slice_pays(const bcsr_fmt *f);

/* Slices a thread block of the slice kernel runs. */
#define BCSR_SLICE_WARPS 4

/* Thread blocks of the slice kernel: its grid, and the x windows' count. */
static inline int32_t bcsr_slice_blocks(const bcsr_fmt *f)
{
    return (f->nslices + BCSR_SLICE_WARPS - 1) / BCSR_SLICE_WARPS;
}
/* The widest x window the slice kernel stages (bytes of shared memory). */
#define BCSR_XWIN_BYTES (48 * 1024)

/* The x window of each thread block of the slice kernel (the columns its
 * blocks read, remainder aside) into f->xwin and the widest into
 * f->xwin_max; 0 (no windows) when one would exceed BCSR_XWIN_BYTES.
 * Returns 0, or -1 when out of memory. */
int bcsr_slice_windows(bcsr_fmt *f);

/* Reorders f's warp-layout bcol and bval into the slice layout and builds
 * sptr. Returns OK, NOMEM, or LIMIT when the slots exceed int32. */
spmvlab_status bcsr_slice(bcsr_fmt *f, spmvlab_err *err);

/* y = A x on the CPU from f's arrays, in the kernel's lane order. */
SPMVLAB_HOST_DECLS_F64_F32(bcsr, bcsr_fmt)
SPMVLAB_HOST_DECLS_F64_F32(bcsr_slice, bcsr_fmt)

/* Launches the warp-per-block-row kernel (bcsr.cu) on stream; returns 0 or
 * the cudaError_t code of the launch. */
SPMVLAB_LAUNCHER_DECLS(bcsr, bcsr_fmt)
/* Launches the lane-per-row slice kernel (bcsr_slice.cu), as bcsr_launch. */
int bcsr_slice_launch(const bcsr_fmt *f, const void *x, void *y, void *stream);

#ifdef __cplusplus
}
#endif
/* The option table (bcsr_options.c). */
extern const spmvlab_option bcsr_options[];

#endif
