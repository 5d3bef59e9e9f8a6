/*
 * csrdu: what the conversion (csrdu_build.c), the CPU execution
 * (csrdu_host.c), the plugin glue (csrdu.c) and the kernels (csrdu.cu:
 * tiles, combine, launcher; csrdu_stream.cu; csrdu_vector.cu) share. The
 * layout is described at the top of csrdu.c.
 */
#ifndef SPMVLAB_CSRDU_H
#define SPMVLAB_CSRDU_H

#include <stddef.h>
#include <stdint.h>

#include "../common/launch.h"
#include "../common/value_store.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__CUDACC__)
#define CSRDU_HD __host__ __device__ __forceinline__
#else
#define CSRDU_HD static inline
#endif

/* Entries of one chunk: consecutive non-zeros (in CSR order, across row
 * boundaries) sharing one 32-bit base; one warp load touches at most two. */
#define CSRDU_CHUNK 32
/* Warps per block of the main kernel; each warp runs one task. */
#define CSRDU_WARPS 4
/* Threads per block of the combine kernel (one block per split row). */
#define CSRDU_COMBINE_THREADS 256
/* Vector kernel: entries a lane loads before its first multiply, split
 * into R = CSRDU_VEC_LOADS / U rows of U entries each (U = `batch`). */
#define CSRDU_VEC_LOADS 4
/* Vector kernel: entries a lane of a row piece loads per batch (the warp
 * covers 32 times as many). */
#define CSRDU_PIECE_J 8

/* Stream kernel: entries and rows of a block's tile (128 threads, 8
 * entries each; up to 2 rows a thread, so rows of 4 still fill it), and
 * the longest row a tile takes by default (longer: row pieces; fewer on
 * small matrices' smaller tiles, csrdu.c stream_long_len). */
#define CSRDU_STREAM_TILE 1024
#define CSRDU_STREAM_ROWS 256
#define CSRDU_STREAM_LONG 256

/* Which kernel runs the matrix. */
typedef enum csrdu_kernel { CSRDU_K_TILES = 0, CSRDU_K_VECTOR = 1, CSRDU_K_STREAM = 2 } csrdu_kernel;

/* Lanes a row of a stream tile of `rows` rows: the largest power of two
 * up to 32 that gives every row its lanes within the 128 threads (1 from
 * 65 rows on; beyond 128 a thread takes a second row). */
CSRDU_HD int csrdu_stream_lanes(int32_t rows)
{
    int g = 1;
    while (g < 32 && 2 * g * rows <= 32 * CSRDU_WARPS)
        g *= 2;
    return g;
}

/* How values are stored and computed. */
typedef enum csrdu_vmode {
    CSRDU_V_F64 = 0,   /* f64 values, f64 run */
    CSRDU_V_F32 = 1,   /* f32 values, f32 run */
    CSRDU_V_F32_F64 = 2 /* f32 values, f64 x, y and arithmetic */
} csrdu_vmode;

/* One warp's work (a block's, for a stream tile). The vector kernel has
 * row pieces only (its rows of at most long_len entries need no task); the
 * stream kernel's tiles hold at most CSRDU_STREAM_TILE entries and
 * CSRDU_STREAM_ROWS rows, one block each.
 * Row tile (r0 >= 0): rows [r0, r1) whole, whose entries are [k0, k1) with
 *   k1 - k0 <= the tile size; products staged in shared memory, then
 *   reduced by groups of `lanes` lanes per row; y written directly.
 * Row piece (r0 < 0): entries [k0, k1) of row ~r0, strided over the warp;
 *   r1 == -1: the whole row, y written directly; else the partial-sum slot
 *   the combine kernel adds up. */
typedef struct csrdu_task {
    int32_t k0, k1, r0, r1;
} csrdu_task;

/* A row split into `count` pieces with partial sums in slots
 * [slot0, slot0 + count). */
typedef struct csrdu_split {
    int32_t row, slot0, count, pad;
} csrdu_split;

/* The absolute column of entry k from its chunk's base b, its stored
 * offset o and, for an escaped chunk (b < 0), the high bits h read at
 * csrdu_hi_index(b, k). No prefix scan: each entry decodes alone. */
CSRDU_HD int32_t csrdu_decode(int32_t b, uint32_t o, uint32_t h, int delta_bits)
{
    return b >= 0 ? b + (int32_t)o : (int32_t)((h << delta_bits) | o);
}
/* Where entry k's high bits lie in the escape array: chunk ~b of the
 * escaped chunks, slot k mod 32 of it. */
CSRDU_HD int64_t csrdu_hi_index(int32_t b, int64_t k)
{
    return ((int64_t)~b * CSRDU_CHUNK) | (k & (CSRDU_CHUNK - 1));
}

/* Device pointers and sizes of one instance, for the launcher. */
typedef struct csrdu_dev {
    const int32_t *row_ptr;
    const void *val;          /* f64 or f32 (vmode), or codes into the table (vs) */
    const spmvlab_value_store *vs; /* how val holds the values (vmode f32 for f64: native floats) */
    const void *off;          /* uint8 or uint16 offsets (off_bytes) */
    const int32_t *base;      /* per chunk: base column, or ~escape ordinal */
    const void *hi;           /* uint8 or uint16 high bits of escaped entries */
    const csrdu_task *tasks;  /* pieces first, then row tiles */
    const csrdu_split *splits;
    void *partial;            /* one accumulator per split piece */
    int32_t *count;           /* stream and vector: finished pieces of each split row, 0 between launches */
    int32_t ntasks, nsplits;
    int32_t npieces;          /* tasks [0, npieces) are row pieces */
    int vmode, off_bytes, hi_bytes;
    int kernel;               /* csrdu_kernel */
    int tile;                 /* tiles: entries of a row tile, 128, 256 or 512 */
    int lanes;                /* tiles: lanes per row in a tile's reduction; vector: lanes a row (2..32) */
    int batch;                /* vector: entries a lane loads per row per batch (1 below 32 lanes) */
    int32_t rows, long_len;   /* vector: rows longer than long_len are the row pieces */
    int steps;                /* vector: row groups a warp runs in turn */
} csrdu_dev;

/* y = A*x: the main kernel (tiles, stream or vector by d->kernel); the
 * tiles kernel then the combine kernel when rows were split (the stream
 * and vector kernels add split rows themselves). Asynchronous on stream.
 * Returns 0 or a cudaError_t code. */
SPMVLAB_LAUNCHER_DECLS(csrdu, csrdu_dev)
/* The vector and stream kernels (csrdu_vector.cu, csrdu_stream.cu), split
 * rows included. */
int csrdu_launch_vector(const csrdu_dev *d, const void *x, void *y, void *stream);
int csrdu_launch_stream(const csrdu_dev *d, const void *x, void *y, void *stream);

#ifdef __cplusplus
}
#endif
#endif
