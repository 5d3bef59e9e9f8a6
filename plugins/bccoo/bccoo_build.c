/*
 * bccoo conversion: the non-empty h x w blocks of each block row, in
 * column order, laid out in chunks of BCCOO_CHUNK blocks (bccoo.h), with
 * the row-end flags, the 16-bit column deltas and their escapes.
 */
#include <stdlib.h>
#include <string.h>

#include "bccoo_format.h"

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Block columns of block row br into list (distinct, ascending); mark[bc]
 * holds the last block row that saw bc. Returns their number. */
static int32_t block_row_columns(const spmvlab_matrix *A, int h, int w, int32_t br, int32_t *mark, int32_t *list)
{
    int32_t n = 0, r1 = (br + 1) * h < A->rows ? (br + 1) * h : A->rows;
    for (int32_t r = br * h; r < r1; r++)
        for (int32_t k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            int32_t bc = A->col_idx[k] / w;
            if (mark[bc] != br) {
                mark[bc] = br;
                list[n++] = bc;
            }
        }
    if (h > 1)
        qsort(list, (size_t)n, sizeof *list, cmp_i32);
    return n;
}

void bccoo_arrays_free(bccoo_arrays *a)
{
    void *const p[] = {a->val, a->flags, a->base, a->delta, a->esc, a->seg0, a->brow};
    for (int k = 0; k < SPMVLAB_COUNT(p); k++)
        free(p[k]);
    memset(a, 0, sizeof *a);
}

size_t bccoo_bytes(const bccoo_arrays *a, size_t vs)
{
    size_t slots = (size_t)a->chunks * BCCOO_CHUNK, threads = (size_t)a->chunks * BCCOO_THREADS;
    return slots * (size_t)(a->h * a->w) * vs + threads * (1 + 4) + slots * 2 +
           (size_t)a->escaped * BCCOO_PER_THREAD * 4 + (size_t)a->chunks * 4 +
           (a->brow ? (size_t)a->segments * 4 : 0) + (size_t)a->chunks * (4 + (size_t)a->h * vs);
}

int32_t bccoo_block_col(const bccoo_arrays *a, int64_t c, int t, int i)
{
    int32_t b = a->base[c * BCCOO_THREADS + t];
    if (b < 0)
        return a->esc[bccoo_escape_index(b, i)];
    for (int j = 1; j <= i; j++)
        b += a->delta[bccoo_pos(c, t, j)];
    return b;
}

/* Flags, bases, deltas and escapes of each thread's group from the block
 * columns bcol[] and the block-row ends end[] (1 for a block that ends its
 * block row), in global block order. */
static int encode_columns(bccoo_arrays *a, const int32_t *bcol, const uint8_t *end)
{
    int64_t threads = (int64_t)a->chunks * BCCOO_THREADS;
    a->escaped = 0;
    int32_t nesc_cap = 0;
    for (int64_t g = 0; g < threads; g++) {
        int64_t c = g / BCCOO_THREADS, b0 = g * BCCOO_PER_THREAD;
        int t = (int)(g % BCCOO_THREADS), fits = 1;
        int32_t col[BCCOO_PER_THREAD];
        uint8_t fl = 0;
        for (int i = 0; i < BCCOO_PER_THREAD; i++) {
            int64_t b = b0 + i;
            /* padding repeats the last real column: its x loads stay in range */
            col[i] = b < a->blocks ? bcol[b] : i ? col[i - 1] : a->blocks ? bcol[a->blocks - 1] : 0;
            fl |= (uint8_t)((b < a->blocks && end[b]) << i);
            if (i && (col[i] - col[i - 1] > INT16_MAX || col[i] - col[i - 1] < INT16_MIN))
                fits = 0;
        }
        a->flags[g] = fl;
        for (int i = 0; i < BCCOO_PER_THREAD; i++)
            a->delta[bccoo_pos(c, t, i)] = (int16_t)(fits && i ? col[i] - col[i - 1] : 0);
        if (fits) {
            a->base[g] = col[0];
            continue;
        }
        if (a->escaped == nesc_cap) {
            nesc_cap = nesc_cap ? 2 * nesc_cap : 64;
            int32_t *grown = realloc(a->esc, (size_t)nesc_cap * BCCOO_PER_THREAD * sizeof *grown);
            if (!grown)
                return -1;
            a->esc = grown;
        }
        a->base[g] = ~a->escaped;
        memcpy(a->esc + (size_t)a->escaped * BCCOO_PER_THREAD, col, sizeof col);
        a->escaped++;
    }
    return 0;
}

/* Block columns, block-row ends and values in block order (values in the
 * chunk layout), and the segment -> block row map when rows are empty. */
static int fill_blocks(bccoo_arrays *a, const spmvlab_matrix *A, size_t vs, int32_t *bcol, uint8_t *end)
{
    const int h = a->h, w = a->w, hw = h * w;
    int32_t nbc = (A->cols + w - 1) / w;
    int32_t *mark = malloc(((size_t)nbc + 1) * sizeof *mark), *list = malloc(((size_t)nbc + 1) * sizeof *list);
    int32_t *slot = malloc(((size_t)nbc + 1) * sizeof *slot);
    int32_t *brow = malloc(((size_t)a->block_rows + 1) * sizeof *brow);
    if (!mark || !list || !slot || !brow) {
        free(mark), free(list), free(slot), free(brow);
        return -1;
    }
    for (int32_t i = 0; i < nbc; i++)
        mark[i] = -1;
    int64_t b = 0;
    a->segments = 0;
    for (int32_t br = 0; br < a->block_rows; br++) {
        int32_t n = block_row_columns(A, h, w, br, mark, list);
        if (n == 0)
            continue;
        for (int32_t q = 0; q < n; q++) {
            slot[list[q]] = (int32_t)(b + q);
            bcol[b + q] = list[q];
            end[b + q] = q == n - 1;
        }
        int32_t r1 = (br + 1) * h < A->rows ? (br + 1) * h : A->rows;
        for (int32_t r = br * h; r < r1; r++)
            for (int32_t k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
                int64_t blk = slot[A->col_idx[k] / w], c = blk / BCCOO_CHUNK, q = blk % BCCOO_CHUNK;
                int e = (r - br * h) * w + A->col_idx[k] % w;
                int64_t at = c * BCCOO_CHUNK * hw + ((q % BCCOO_PER_THREAD) * hw + e) * BCCOO_THREADS + q / BCCOO_PER_THREAD;
                memcpy((char *)a->val + (size_t)at * vs, (const char *)A->val + (size_t)k * vs, vs);
            }
        brow[a->segments++] = br;
        b += n;
    }
    free(mark), free(list), free(slot);
    if (a->segments < a->block_rows) {
        a->brow = brow;
    } else {
        free(brow);
    }
    return 0;
}

int bccoo_build(bccoo_arrays *a, const spmvlab_matrix *A, size_t vs, int h, int w)
{
    memset(a, 0, sizeof *a);
    a->h = h;
    a->w = w;
    a->block_rows = (A->rows + h - 1) / h;
    int64_t blocks = block_count(A, h, w);
    if (blocks < 0)
        return -1;
    a->blocks = (int32_t)blocks;
    a->chunks = (int32_t)((blocks + BCCOO_CHUNK - 1) / BCCOO_CHUNK);
    size_t slots = (size_t)a->chunks * BCCOO_CHUNK, threads = (size_t)a->chunks * BCCOO_THREADS;
    a->val = calloc(slots * (size_t)(h * w) + 1, vs);
    a->flags = calloc(threads + 1, 1);
    a->base = calloc(threads + 1, 4);
    a->delta = calloc(slots + 1, 2);
    a->seg0 = calloc((size_t)a->chunks + 1, 4);
    int32_t *bcol = malloc(((size_t)blocks + 1) * sizeof *bcol);
    uint8_t *end = malloc((size_t)blocks + 1);
    int rc = a->val && a->flags && a->base && a->delta && a->seg0 && bcol && end ? 0 : -1;
    if (rc == 0)
        rc = fill_blocks(a, A, vs, bcol, end);
    if (rc == 0)
        rc = encode_columns(a, bcol, end);
    for (int32_t c = 1; rc == 0 && c < a->chunks; c++) {
        int32_t ends = 0;
        for (int64_t b = (int64_t)(c - 1) * BCCOO_CHUNK; b < (int64_t)c * BCCOO_CHUNK && b < blocks; b++)
            ends += end[b];
        a->seg0[c] = a->seg0[c - 1] + ends;
    }
    free(bcol);
    free(end);
    if (rc != 0)
        bccoo_arrays_free(a);
    return rc;
}
