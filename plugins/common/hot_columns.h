/* Hot columns (C and CUDA host side): the x entries that most of a
 * matrix's entries read, copied in every call into one compact buffer that
 * the kernel reads instead of x. On a power-law matrix a few thousand hub
 * columns hold a third or more of the entries, but their x values lie one
 * to a 32-byte sector all over x; packed together they fill few sectors
 * and stay in L1. Each hot entry's column becomes h - count (negative: h is
 * the column's slot in the buffer), so the kernel reads
 * (c < 0 ? buffer + count : x)[c]: the same value, in the same order, so
 * every sum is bit for bit the one without. hot_columns.cuh gathers the
 * buffer and reads through it on the device. */
#ifndef SPMVLAB_PLUGINS_COMMON_HOT_COLUMNS_H
#define SPMVLAB_PLUGINS_COMMON_HOT_COLUMNS_H

#include <stdlib.h>
#include <string.h>

#include <spmvlab/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The buffer auto fills: 64 KiB of x values (8,192 in f64), which stay in
 * an SM's L1 beside a kernel's shared memory. */
#define SPMVLAB_HOT_BYTES (64 * 1024)
/* auto takes hot columns when they hold at least this share of the
 * entries, and x is at least this many times the buffer. */
#define SPMVLAB_HOT_MIN_SHARE 0.25
#define SPMVLAB_HOT_MIN_RATIO 16
/* The most hot columns an option may ask for. */
#define SPMVLAB_HOT_MAX 65536
/* The help text of a hot_columns option row. */
#define SPMVLAB_HOT_COLUMNS_HELP                                                                            \
    "the x values of this many columns with the most entries, copied every call into a buffer the kernel " \
    "reads (0: none); auto: 64 KiB of them where they hold a quarter of the entries and x is 16 times larger"

typedef struct spmvlab_hot_columns {
    int32_t count;    /* hot columns, 0 = none (the kernel reads x alone) */
    int32_t *col;     /* host: their columns, increasing (slot h holds x[col[h]]) */
    int32_t *col_idx; /* host: the matrix's columns, hot ones as h - count; NULL when count = 0 */
    int64_t entries;  /* entries in hot columns */
    void *host_x;     /* host: the buffer of spmv_host, count values of the dtype */
    void *d_col;      /* device: col */
    void *d_x;        /* device: the buffer, gathered every call */
} spmvlab_hot_columns;

/* The counts of the k columns with the most entries, ties to the lower
 * column: the threshold count t and how many columns at t are taken
 * (those of count above t are all taken). count[] holds each column's
 * entries. */
static inline void spmvlab_hot_threshold(const int32_t *count, int32_t cols, int32_t k, int32_t *t, int32_t *at_t)
{
    int32_t lo = 0, hi = 0;
    for (int32_t j = 0; j < cols; j++)
        hi = count[j] > hi ? count[j] : hi;
    /* the largest t with at least k columns of count >= t */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2, n = 0;
        for (int32_t j = 0; j < cols && n < k; j++)
            n += count[j] >= mid;
        if (n >= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    int32_t above = 0;
    for (int32_t j = 0; j < cols; j++)
        above += count[j] > lo;
    *t = lo;
    *at_t = k - above;
}

/* Builds h for A (col_idx of nnz entries over cols columns): request is the
 * option (SPMVLAB_AUTO, 0 for none, or a count); value_size the dtype's
 * size, for auto's buffer. A matrix with at most k columns, or no entries,
 * takes none. Returns OK or NOMEM with the sentence in err. */
static inline spmvlab_status spmvlab_hot_columns_build(spmvlab_ctx *ctx, const int32_t *col_idx, int64_t nnz,
                                                       int32_t cols, int request, size_t value_size,
                                                       spmvlab_hot_columns *h, spmvlab_err *err)
{
    memset(h, 0, sizeof *h);
    const int automatic = request == SPMVLAB_AUTO;
    int32_t k = automatic ? (int32_t)(SPMVLAB_HOT_BYTES / value_size) : request;
    if (k <= 0 || nnz == 0 || cols <= k)
        return SPMVLAB_OK;
    if (automatic && (int64_t)cols < (int64_t)SPMVLAB_HOT_MIN_RATIO * k)
        return SPMVLAB_OK; /* x is small enough to stay in L1 or near it */
    int32_t *count = (int32_t *)calloc((size_t)cols, sizeof *count);
    if (!count)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the entries of %d columns", cols);
    for (int64_t e = 0; e < nnz; e++)
        count[col_idx[e]]++;
    int32_t t, at_t, n = 0;
    spmvlab_hot_threshold(count, cols, k, &t, &at_t);
    int64_t entries = 0;
    for (int32_t j = 0; j < cols; j++) { /* mark the hot columns (-1): above t, then the first at t */
        int hot = count[j] > t;
        if (!hot && count[j] == t && t > 0 && at_t > 0) {
            hot = 1;
            at_t--;
        }
        if (hot) {
            entries += count[j];
            count[j] = -1;
            n++;
        }
    }
    if (n == 0 || (automatic && (double)entries < SPMVLAB_HOT_MIN_SHARE * (double)nnz)) {
        free(count);
        return SPMVLAB_OK;
    }
    h->col = (int32_t *)malloc((size_t)n * sizeof *h->col);
    h->col_idx = (int32_t *)malloc((size_t)nnz * sizeof *h->col_idx);
    h->host_x = malloc((size_t)n * value_size);
    if (!h->col || !h->col_idx || !h->host_x) {
        free(count);
        free(h->col);
        free(h->col_idx);
        free(h->host_x);
        memset(h, 0, sizeof *h);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the hot columns of %lld entries",
                         (long long)nnz);
    }
    for (int32_t j = 0, slot = 0; j < cols; j++) /* count[j] becomes column j's label */
        if (count[j] < 0) {
            count[j] = slot - n; /* slot, counted from the buffer's end */
            h->col[slot++] = j;
        } else
            count[j] = j;
    for (int64_t e = 0; e < nnz; e++)
        h->col_idx[e] = count[col_idx[e]];
    free(count);
    h->count = n;
    h->entries = entries;
    return SPMVLAB_OK;
}

/* The columns a format copies per entry: the relabelled ones, or A's. */
static inline const int32_t *spmvlab_hot_columns_of(const spmvlab_hot_columns *h, const int32_t *col_idx)
{
    return h->count ? h->col_idx : col_idx;
}

/* Uploads the hot columns and allocates the buffer (tracked device memory,
 * its bytes added to *held); the host copy of the relabelled columns is
 * the format's to upload in its own layout. */
static inline spmvlab_status spmvlab_hot_columns_upload(spmvlab_ctx *ctx, spmvlab_hot_columns *h, size_t value_size,
                                                        size_t *held, spmvlab_err *err)
{
    if (!h->count)
        return SPMVLAB_OK;
    spmvlab_status st = spmvlab_dev_put(ctx, &h->d_col, h->col, (size_t)h->count * sizeof(int32_t), held, err);
    if (st == SPMVLAB_OK)
        st = spmvlab_dev_put(ctx, &h->d_x, NULL, (size_t)h->count * value_size, held, err);
    return st;
}

/* Frees the host arrays (the device ones are the format's, freed with its
 * others). */
static inline void spmvlab_hot_columns_free_host(spmvlab_hot_columns *h)
{
    free(h->col);
    free(h->col_idx);
    free(h->host_x);
    h->col = NULL;
    h->col_idx = NULL;
    h->host_x = NULL;
}

/* spmv_host's gather of the buffer, as the device's before the kernel:
 * host_x[h] = x[col[h]] (T the dtype). */
#define SPMVLAB_HOT_GATHER_HOST(T, h, x)                                                                   \
    for (int32_t h_ = 0; h_ < (h)->count; h_++)                                                            \
        ((T *)(h)->host_x)[h_] = (x)[(h)->col[h_]]
/* x at label c on the host: the buffer for a hot column (c < 0), else x. */
#define SPMVLAB_HOT_X(T, h, x, c) ((c) < 0 ? ((const T *)(h)->host_x)[(h)->count + (c)] : (x)[c])

#ifdef __cplusplus
}
#endif
#endif
