/*
 * bccoo: what the conversion (bccoo_build.c), the CPU execution
 * (bccoo_host.c), the plugin glue (bccoo.c) and the kernels (bccoo.cu)
 * share: the chunk geometry, the column decoding and the device view of
 * one instance. The format is described at the top of bccoo.c.
 */
#ifndef SPMVLAB_BCCOO_H
#define SPMVLAB_BCCOO_H

#include <stdint.h>

#include <spmvlab/plugin.h>
#include "../common/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__CUDACC__)
#define BCCOO_HD __host__ __device__ __forceinline__
#else
#define BCCOO_HD static inline
#endif

/* Threads of a thread block; a chunk is the blocks of one thread block. */
#define BCCOO_THREADS 128
/* Blocks a thread takes: its row-end flags are one byte. */
#define BCCOO_PER_THREAD 8
#define BCCOO_CHUNK (BCCOO_THREADS * BCCOO_PER_THREAD)

/* Where slot i of thread t of chunk c lies in a per-block array: slot-major
 * within the chunk, so a warp's loads of one slot are consecutive. */
BCCOO_HD int64_t bccoo_pos(int64_t c, int t, int i)
{
    return c * BCCOO_CHUNK + (int64_t)i * BCCOO_THREADS + t;
}

/* Block column of slot i from its thread's base and delta (base >= 0), or
 * from the escape array (base = ~e: the thread's group escaped). */
BCCOO_HD int32_t bccoo_escape_index(int32_t base, int i) { return ~base * BCCOO_PER_THREAD + i; }

/* Device pointers and sizes of one instance, for the launcher. */
typedef struct bccoo_dev {
    const void *val;          /* blocks x h x w values (run dtype), chunk layout */
    const uint8_t *flags;     /* per thread: bit i set when slot i ends a block row */
    const int32_t *base;      /* per thread: first block column, or ~escape group */
    const int16_t *delta;     /* per block: column minus the previous slot's (slot 0: 0) */
    const int32_t *esc;       /* escaped groups: BCCOO_PER_THREAD block columns each */
    const int32_t *seg0;      /* per chunk: block-row ends in the chunks before */
    const int32_t *brow;      /* segment -> block row; NULL when no block row is empty */
    int32_t *carry_key;       /* per chunk: the segment its last thread left open */
    void *carry_val;          /* per chunk: h partial sums of that segment */
    int32_t rows, cols, chunks, segments, block_rows;
    int h, w;                 /* block height and width: 1, 2 or 4 */
    spmvlab_dtype dtype;      /* the run's: f64 or f32 */
} bccoo_dev;

/* y = A*x: the chunk kernel, then the fix-up of segments cut between
 * chunks. Asynchronous on stream; returns 0 or a cudaError_t code. */
SPMVLAB_LAUNCHER_DECLS(bccoo, bccoo_dev)

#ifdef __cplusplus
}
#endif
#endif
