/* The tilespmv plugin's pieces shared between its files: the format, the
 * per-tile format rule and the build (tilespmv_build.c), the CPU execution
 * (tilespmv_host.c) and the kernel launcher (tilespmv.cu). */
#ifndef TILESPMV_H
#define TILESPMV_H

#include <stddef.h>
#include <stdint.h>

#include <spmvlab/plugin.h>

#include "../common/launch.h"
#include "../common/merge_path.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TILE 16          /* a tile is TILE x TILE; in-tile indices fit 4 bits */
#define TILE_AREA 256    /* TILE * TILE */
#define TILE_WARP 32     /* lanes of the warp that runs one chunk */
#define TILE_PIECE_PER_LANE 32 /* a deferred piece of a split tile row: 32 x chunk_tiles entries */

/* The storage of one tile, the value of kind[t] on host and device. A
 * forced tile_format maps to one of the first five (tilespmv_build.c); the
 * dense row and column kinds come only from the rule. */
enum tile_kind { TILE_CSR = 0, TILE_COO, TILE_ELL, TILE_HYB, TILE_DENSE, TILE_DNSROW, TILE_DNSCOL, TILE_KINDS };

/* The tile_format option's choice values (choice rows in tilespmv.c). */
enum { TILESPMV_FORMAT_AUTO, TILESPMV_FORMAT_CSR, TILESPMV_FORMAT_COO, TILESPMV_FORMAT_ELL,
       TILESPMV_FORMAT_HYB, TILESPMV_FORMAT_DENSE };

/* The deferred option's choice values, and the resolved path
 * (tilespmv_fmt.path: fused or merge; tilespmv_defer.c):
 * - FUSED: a WHOLE chunk sums its rows' deferred entries and writes y once;
 * - MERGE: the merge-path kernels (../common/merge_path.cuh) compute the
 *   deferred CSR into every row of y first, the chunks then add their tiles. */
enum { TILESPMV_DEFER_FUSED, TILESPMV_DEFER_MERGE, TILESPMV_DEFER_AUTO };
/* deferred = auto takes merge when the deferred rows' lengths (rows with at
 * least one deferred entry) vary by more than MERGE_UNEVEN_ROWS_CV
 * (../common/merge_path.h). */

/* A chunk, one warp's work (4 int32: kind, tile row or row, begin, end),
 * tilespmv_plan.c:
 * - WHOLE: tile row id, tiles [begin, end), and (fused) its rows' deferred
 *   entries; y written once, or (merge) added to, no atomics;
 * - PIECE: tiles [begin, end) of a split tile row id, added atomically;
 * - DEFERRED: deferred entries [begin, end) of row id (of a split tile
 *   row), summed by the warp and added atomically.
 * Fused: the rows of split tile rows are zeroed first (split[]). Merge:
 * no DEFERRED chunks, a tile row splits by its tiles alone, a tile row
 * without tiles has no chunk, nothing is zeroed. */
enum chunk_kind { CHUNK_WHOLE = 0, CHUNK_PIECE, CHUNK_DEFERRED };
#define CHUNK_INTS 4

/* The typed options (ABI 1.1), filled by the core from the option table. */
typedef struct tilespmv_opts {
    int tile_format;      /* TILESPMV_FORMAT_*: every tile in one format, or the rule's choice */
    double dense_fill;    /* rule: a tile with at least this share of its area is dense */
    int coo_max;          /* rule: a tile with at most this many entries is COO */
    double ell_variation; /* rule: row-length variation at most this: ELL */
    double hyb_variation; /* rule: row-length variation above this: HYB (else CSR) */
    int defer_max;        /* a tile with at most this many entries goes to the deferred CSR part */
    int chunk_tiles;      /* a warp's bound: tiles, and loop trips a lane over deferred entries */
    int defer_lanes;      /* lanes per row over a whole tile row's deferred entries; SPMVLAB_AUTO */
    int deferred;         /* TILESPMV_DEFER_*: how the deferred part is summed */
    int whole_merge;      /* bool: deferred = auto may send the whole matrix to the merge pass */
} tilespmv_opts;

/* The whole-matrix rule (deferred = auto, tile_format = auto, whole_merge
 * on; tilespmv_whole.c):
 * the tiles are kept for short rows (a mean of at most TILESPMV_SHORT_MEAN
 * over the rows with entries) on a matrix under TILESPMV_SHORT_NNZ non-zeros
 * (stored tiles of such rows only under TILESPMV_SHORT_TILES_NNZ), or when
 * the stored tiles hold TILESPMV_DENSE_TILE entries or more on average on a
 * matrix of at least TILESPMV_DENSE_NNZ, and never beside an uneven
 * deferred part; otherwise every entry is deferred and summed by the merge
 * pass. */
#define TILESPMV_SHORT_MEAN 8.0
#define TILESPMV_SHORT_NNZ (1 << 21)
#define TILESPMV_SHORT_TILES_NNZ (1 << 19)
#define TILESPMV_DENSE_TILE 128.0
#define TILESPMV_DENSE_NNZ (1 << 20)

/* One tiled matrix. Tile row tr covers rows [16 tr, 16 tr + 16); its tiles
 * are tptr[tr] .. tptr[tr + 1] - 1 in column order. Tile t stores its values
 * from voff[t] and its 8-bit indices from ioff[t] in one layout per kind
 * (README.md, Layout); kind[t] and param[t] (ELL / HYB width, dense row or
 * column count, COO entries of a HYB tile) say which. Tiles of at most
 * defer_max entries are not stored as tiles: their entries form the
 * deferred CSR part (dptr, dcol, dval). */
typedef struct tilespmv_fmt {
    spmvlab_ctx *ctx;     /* the instance's services; frees device memory */
    spmvlab_dtype dtype;  /* f64 or f32: values, x and y */
    int32_t rows, cols, nnz;
    int32_t tile_rows;    /* ceil(rows / 16) */
    int32_t ntiles;       /* non-empty tiles */
    int64_t nvals;        /* stored values, padding included */
    int64_t nidx;         /* stored index bytes */
    int32_t counts[TILE_KINDS]; /* tiles of each kind, for describe */
    int32_t ndef;         /* entries in the deferred CSR part */
    int32_t ndef_tiles;   /* tiles whose entries were deferred */
    int32_t lanes;        /* lanes per row over a WHOLE chunk's deferred entries: 2 .. 32 */
    int32_t nchunks;      /* warps of the launch */
    int32_t nsplit;       /* tile rows cut into PIECE (and DEFERRED) chunks */
    int path;             /* TILESPMV_DEFER_FUSED or _MERGE, resolved */
    double defer_cv;      /* std / mean of the deferred rows' lengths (rows with any) */
    double idle_share;    /* share of the rows without a deferred entry */
    merge_dev mdev;       /* merge: the merge pass over dptr, dcol, dval; tiles 0 when fused */
    int32_t *s_end;       /* host, merge: the replay's scratch of one tile's row ends */
    merge_coord *mcoords; /* host, merge: the tiles' starts (tiles + 1) found at convert; NULL otherwise */
    int32_t *tptr;        /* host, tile_rows + 1: first tile of each tile row */
    int32_t *tcol;        /* host, ntiles: the tile's column of tiles */
    uint8_t *kind;        /* host, ntiles: enum tile_kind */
    uint8_t *param;       /* host, ntiles: width or count, by kind */
    int32_t *voff;        /* host, ntiles + 1: first value of each tile */
    int32_t *ioff;        /* host, ntiles + 1: first index byte of each tile */
    void *val;            /* host, nvals values of dtype */
    uint8_t *idx;         /* host, nidx index bytes */
    int32_t *dptr;        /* host, rows + 1: each row's deferred entries (CSR) */
    int32_t *dcol;        /* host, ndef: their columns, ascending within a row */
    void *dval;           /* host, ndef values of dtype */
    int32_t *chunk;       /* host, CHUNK_INTS x nchunks: split chunks first, then WHOLE ones */
    int32_t *split;       /* host, nsplit: the split tile rows */
    int32_t *d_tcol, *d_voff, *d_ioff, *d_dptr, *d_dcol, *d_chunk, *d_split; /* device copies */
    uint8_t *d_kind, *d_param, *d_idx;
    void *d_val, *d_dval;   /* mdev's coords, carry_row and carry_val are its device scratch */
} tilespmv_fmt;

/* Fills f's host arrays from A, each tile in the kind the rule (or a forced
 * tile_format) gives. Returns OK, or NOMEM / LIMIT with the sentence. */
spmvlab_status tilespmv_build(tilespmv_fmt *f, const spmvlab_matrix *A, const tilespmv_opts *o, spmvlab_err *err);

/* deferred = auto: merge from this share of rows without a deferred entry
 * (empty rows, or rows wholly in tiles), whose lanes idle in the fused
 * chunks; measured on the tune part's empty-row members (README.md, "The
 * deferred path"). */
#define TILESPMV_IDLE_ROWS 0.05

/* Resolves the deferred path (f->path, f->defer_cv) and, for merge, the
 * merge pass's shape (f->mdev, device pointers left NULL) and the replay's
 * scratch (tilespmv_defer.c). Returns OK or NOMEM. */
spmvlab_status tilespmv_defer(tilespmv_fmt *f, const tilespmv_opts *o, spmvlab_err *err);

/* Cuts the tile rows into chunks (f->chunk, f->split) for f->path (after
 * tilespmv_defer) and picks f->lanes from the deferred part
 * (tilespmv_plan.c). Returns OK or NOMEM. */
spmvlab_status tilespmv_plan(tilespmv_fmt *f, const tilespmv_opts *o, spmvlab_err *err);

/* 1 when the whole-matrix rule (above) replaces the format f built from A
 * by every entry deferred to the merge pass (tilespmv_whole.c). */
int tilespmv_whole_merge(const tilespmv_fmt *f, const spmvlab_matrix *A);

/* The device bytes the format holds (README.md, Footprint). */
size_t tilespmv_bytes(const tilespmv_fmt *f);

/* The kind the rule picks for a tile with len[i] entries in row i (rows x
 * cols of the tile are in use), col_count[j] entries in column j. */
int tilespmv_rule(const tilespmv_opts *o, const int *len, const int *col_count, int rows, int cols);

/* y = A x on the CPU from f's arrays, in the kernel's lane order. */
SPMVLAB_HOST_DECLS_F64_F32(tilespmv, tilespmv_fmt)

/* Launches the chunk kernel (tilespmv.cu) on stream, after zeroing the
 * split tile rows (fused) or after the merge pass over the deferred part
 * (merge); returns 0 or the cudaError_t code of a launch. */
SPMVLAB_LAUNCHER_DECLS(tilespmv, tilespmv_fmt)

#ifdef __cplusplus
}
#endif
/* The option table (tilespmv_options.c). */
extern const spmvlab_option tilespmv_options[];

#endif
