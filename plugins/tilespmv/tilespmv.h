/* The tilespmv plugin's pieces shared between its files: the format, the
 * per-tile format rule and the build (tilespmv_build.c), the CPU execution
 * (tilespmv_host.c) and the kernel launcher (tilespmv.cu). */
#ifndef TILESPMV_H
#define TILESPMV_H

#include <stddef.h>
#include <stdint.h>

#include <spmvlab/plugin.h>

#include "../common/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TILE 16          /* a tile is TILE x TILE; in-tile indices fit 4 bits */
#define TILE_AREA 256    /* TILE * TILE */
#define TILE_WARP 32     /* lanes of the warp that walks one tile row */

/* The storage of one tile, the value of kind[t] on host and device. A
 * forced tile_format maps to one of the first five (tilespmv_build.c); the
 * dense row and column kinds come only from the rule. */
enum tile_kind { TILE_CSR = 0, TILE_COO, TILE_ELL, TILE_HYB, TILE_DENSE, TILE_DNSROW, TILE_DNSCOL, TILE_KINDS };

/* The tile_format option's choice values (choice rows in tilespmv.c). */
enum { TILESPMV_FORMAT_AUTO, TILESPMV_FORMAT_CSR, TILESPMV_FORMAT_COO, TILESPMV_FORMAT_ELL,
       TILESPMV_FORMAT_HYB, TILESPMV_FORMAT_DENSE };

/* The typed options (ABI 1.1), filled by the core from the option table. */
typedef struct tilespmv_opts {
    int tile_format;      /* TILESPMV_FORMAT_*: every tile in one format, or the rule's choice */
    double dense_fill;    /* rule: a tile with at least this share of its area is dense */
    int coo_max;          /* rule: a tile with at most this many entries is COO */
    double ell_variation; /* rule: row-length variation at most this: ELL */
    double hyb_variation; /* rule: row-length variation above this: HYB (else CSR) */
} tilespmv_opts;

/* One tiled matrix. Tile row tr covers rows [16 tr, 16 tr + 16); its tiles
 * are tptr[tr] .. tptr[tr + 1] - 1 in column order. Tile t stores its values
 * from voff[t] and its 8-bit indices from ioff[t] in one layout per kind
 * (README.md, Layout); kind[t] and param[t] (ELL / HYB width, dense row or
 * column count, COO entries of a HYB tile) say which. */
typedef struct tilespmv_fmt {
    spmvlab_ctx *ctx;     /* the instance's services; frees device memory */
    spmvlab_dtype dtype;  /* f64 or f32: values, x and y */
    int32_t rows, cols, nnz;
    int32_t tile_rows;    /* ceil(rows / 16) */
    int32_t ntiles;       /* non-empty tiles */
    int64_t nvals;        /* stored values, padding included */
    int64_t nidx;         /* stored index bytes */
    int32_t counts[TILE_KINDS]; /* tiles of each kind, for describe */
    int32_t *tptr;        /* host, tile_rows + 1: first tile of each tile row */
    int32_t *tcol;        /* host, ntiles: the tile's column of tiles */
    uint8_t *kind;        /* host, ntiles: enum tile_kind */
    uint8_t *param;       /* host, ntiles: width or count, by kind */
    int32_t *voff;        /* host, ntiles + 1: first value of each tile */
    int32_t *ioff;        /* host, ntiles + 1: first index byte of each tile */
    void *val;            /* host, nvals values of dtype */
    uint8_t *idx;         /* host, nidx index bytes */
    int32_t *d_tptr, *d_tcol, *d_voff, *d_ioff; /* device copies */
    uint8_t *d_kind, *d_param, *d_idx;
    void *d_val;
} tilespmv_fmt;

/* Fills f's host arrays from A, each tile in the kind the rule (or a forced
 * tile_format) gives. Returns OK, or NOMEM / LIMIT with the sentence. */
spmvlab_status tilespmv_build(tilespmv_fmt *f, const spmvlab_matrix *A, const tilespmv_opts *o, spmvlab_err *err);

/* The kind the rule picks for a tile with len[i] entries in row i (rows x
 * cols of the tile are in use), col_count[j] entries in column j. */
int tilespmv_rule(const tilespmv_opts *o, const int *len, const int *col_count, int rows, int cols);

/* y = A x on the CPU from f's arrays, in the kernel's lane order. */
SPMVLAB_HOST_DECLS_F64_F32(tilespmv, tilespmv_fmt)

/* Launches the warp-per-tile-row kernel (tilespmv.cu) on stream; returns 0
 * or the cudaError_t code of the launch. */
SPMVLAB_LAUNCHER_DECLS(tilespmv, tilespmv_fmt)

#ifdef __cplusplus
}
#endif
#endif
