/*
 * coo: what the `auto` values pick (shared with hyb's COO part): the kernel,
 * its chunk and entries a lane, and the loads. The blocked kernel streams
 * matrices of regular rows best once they are large; the segmented kernel
 * is faster on launch-bound matrices, where its shorter tiles finish sooner,
 * and on uneven rows, where a lane's 8 consecutive entries straddle many row
 * ends. The measurements behind each rule are in README.md.
 */
#ifndef COO_RULE_H
#define COO_RULE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "spmvlab/plugin.h"

#define COO_AUTO_MIN_NNZ (1 << 20) /* blocked from this many non-zeros on */
#define COO_AUTO_MAX_CV 1.0        /* ... when the row lengths' CV is at most this */

/* Below COO_AUTO_MIN_NNZ the blocked kernel only from COO_AUTO_SMALL_NNZ
 * non-zeros with rows of more than COO_AUTO_SMALL_MEAN entries on average:
 * then a lane's 8 entries mostly lie in one row, while shorter rows, and
 * fewer non-zeros (a wave of blocked warps with too little to do), lose to
 * the segmented kernel (README.md, "Blocked or segmented below 2^20"). */
#define COO_AUTO_SMALL_NNZ (1 << 18)
#define COO_AUTO_SMALL_MEAN 12.0

/* The most entries a row of the CSR row pointer holds (0 without rows). */
static inline int32_t coo_longest_row(const int32_t *row_ptr, int32_t rows)
{
    int32_t most = 0;
    for (int32_t i = 0; i < rows; i++)
        if (row_ptr[i + 1] - row_ptr[i] > most)
            most = row_ptr[i + 1] - row_ptr[i];
    return most;
}

/* The blocked kernel on a large matrix (COO_AUTO_MIN_NNZ on): chunks of
 * COO_BLK_CHUNK entries a warp over several waves instead of one chunk per
 * resident warp, and 4 entries a lane where rows average at most
 * COO_BLK_ITEMS4_MEAN entries (longer rows lose with 4). Small matrices keep
 * one chunk per warp: there chunks of 512 leave too few warps (README.md,
 * "Chunks over many waves"). */
#define COO_BLK_CHUNK 512
#define COO_BLK_ITEMS4_MEAN 12.0

/* The segmented kernel on a large matrix: chunks of COO_SEG_CHUNK entries
 * over many waves. A warp that finishes its chunk early leaves room for the
 * next one, where a single wave waits for its slowest warp (README.md,
 * "Chunks over many waves"). */
#define COO_SEG_CHUNK 256

/* The chunk `chunk = auto` takes from COO_AUTO_MIN_NNZ entries on:
 * COO_BLK_CHUNK for the blocked kernel, COO_SEG_CHUNK for the segmented
 * one; below it 0 (one chunk per resident warp). */
static inline int32_t coo_auto_chunk(int blocked, int64_t entries)
{
    return entries < COO_AUTO_MIN_NNZ ? 0 : blocked ? COO_BLK_CHUNK : COO_SEG_CHUNK;
}

/* Random columns (COO_AUTO_MIN_NNZ on, rows of more than
 * COO_BLK_ITEMS4_MEAN entries on average): at least COO_RANDOM_SHARE of the
 * entries open a new 32-byte sector of x within their row. Eight random
 * gathers a lane gain nothing from L1, so the blocked kernel takes 4 entries
 * a lane, and from COO_RANDOM_SEG_MEAN entries a row the segmented kernel
 * takes over; stencils, bands and blocks share sectors and keep 8 a lane
 * (README.md, "Random columns"). */
#define COO_RANDOM_SHARE 0.9
#define COO_RANDOM_SEG_MEAN 28.0

/* The share of the entries of a CSR matrix that open a new 32-byte sector
 * of x (value_bytes a value) within their row; the first of a row always
 * does. About 1 for random columns, less where neighbours share sectors. */
static inline double coo_x_sector_share(const int32_t *row_ptr, const int32_t *col_idx,
                                        int32_t rows, size_t value_bytes)
{
    const int32_t per = value_bytes < 32 ? (int32_t)(32 / value_bytes) : 1;
    long long opened = 0;
    for (int32_t i = 0; i < rows; i++) {
        int32_t prev = -1;
        for (int32_t k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
            const int32_t sector = col_idx[k] / per;
            opened += sector != prev;
            prev = sector;
        }
    }
    return row_ptr[rows] > 0 ? (double)opened / row_ptr[rows] : 0;
}

/* 1 when the random-column rule applies: a large matrix whose rows average
 * more than COO_BLK_ITEMS4_MEAN entries and whose columns are random
 * (COO_RANDOM_SHARE; the share is counted only then). */
static inline int coo_auto_random(const int32_t *row_ptr, const int32_t *col_idx, int32_t rows,
                                  int32_t nnz, size_t value_bytes)
{
    return rows > 0 && nnz >= COO_AUTO_MIN_NNZ && (double)nnz > COO_BLK_ITEMS4_MEAN * rows &&
           coo_x_sector_share(row_ptr, col_idx, rows, value_bytes) >= COO_RANDOM_SHARE;
}

/* 1 when `auto` takes the blocked kernel for a CSR row pointer of rows rows
 * and nnz non-zeros, 0 for the segmented one; random: coo_auto_random. */
static inline int coo_auto_blocked(const int32_t *row_ptr, int32_t rows, int32_t nnz, int random)
{
    if (rows == 0 || nnz < COO_AUTO_SMALL_NNZ)
        return 0;
    if (nnz < COO_AUTO_MIN_NNZ && (double)nnz <= COO_AUTO_SMALL_MEAN * rows)
        return 0;
    if (random && (double)nnz >= COO_RANDOM_SEG_MEAN * rows)
        return 0;
    double mean = (double)nnz / rows, ss = 0;
    for (int32_t i = 0; i < rows; i++) {
        double d = (double)(row_ptr[i + 1] - row_ptr[i]) - mean;
        ss += d * d;
    }
    return sqrt(ss / rows) <= COO_AUTO_MAX_CV * mean;
}

/* The entries a lane `items = auto` takes for the blocked kernel; random:
 * coo_auto_random. */
static inline int coo_auto_items(int32_t rows, int32_t nnz, int random)
{
    return random || (rows > 0 && (double)nnz <= COO_BLK_ITEMS4_MEAN * rows) ? 4 : 8;
}

/* loads = auto: evict-first loads (stream) when the three arrays, nnz x
 * (8 + value bytes), are larger than the device's L2 cache, else the
 * read-only path (cached): a matrix that fits stays in L2 from one SpMV to
 * the next, and evict-first lines would give that up (README.md, "Loads that
 * leave the caches to x"). Without a device: the H100's 50 MiB. */
#define COO_L2_DEFAULT ((size_t)50 << 20)

/* The loads option's choices (coo's loads, hyb's coo_loads), in the order of
 * their "a|b|c" text. */
enum { COO_LOADS_CACHED = 0, COO_LOADS_STREAM = 1, COO_LOADS_AUTO = 2 };

static inline int coo_auto_stream(int64_t nnz, size_t value_bytes, const spmvlab_device *dev)
{
    size_t l2 = dev && dev->present && dev->l2_bytes ? dev->l2_bytes : COO_L2_DEFAULT;
    return (double)nnz * (double)(8 + value_bytes) > (double)l2;
}

/* Whether the loads option's value (COO_LOADS_*) asks for evict-first loads
 * of nnz entries (auto: the rule). */
static inline int coo_loads_stream(int loads, int64_t nnz, size_t value_bytes, const spmvlab_device *dev)
{
    return loads == COO_LOADS_AUTO ? coo_auto_stream(nnz, value_bytes, dev) : loads == COO_LOADS_STREAM;
}

#endif /* COO_RULE_H */
