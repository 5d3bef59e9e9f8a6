/*
 * The value table of a matrix: its distinct values (by bit pattern, so the
 * storage is lossless: +0.0 and -0.0 differ, every NaN keeps its bits) in
 * ascending bit order with +0.0 always at code 0, and one 1- or 2-byte code
 * per entry. Padding that a format stores as zero bytes is then code 0, the
 * same +0.0 native storage pads with, so every sum is the same.
 */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/value_table.h"

/* An open-addressing set of bit patterns: slot key and code + 1 (0: empty). */
typedef struct value_set {
    uint64_t *key;
    uint32_t *tag;
    size_t mask;
} value_set;

/* The bits of entry k of val (dtype d) as a 64-bit key. */
static uint64_t value_bits(const void *val, size_t k, spmvlab_dtype d)
{
    if (d == SPMVLAB_F64) {
        uint64_t b;
        memcpy(&b, (const char *)val + k * 8, 8);
        return b;
    }
    if (d == SPMVLAB_F32) {
        uint32_t b;
        memcpy(&b, (const char *)val + k * 4, 4);
        return b;
    }
    uint16_t b;
    memcpy(&b, (const char *)val + k * 2, 2);
    return b;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t set_slot(const value_set *s, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    size_t at = (size_t)(h ^ (h >> 29)) & s->mask;
    while (s->tag[at] && s->key[at] != key)
        at = (at + 1) & s->mask;
    return at;
}

/* Ascending order of 64-bit keys, for qsort. */
static int key_order(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The exact number of distinct bit patterns among n entries: a sorted copy.
 * -1 when host memory runs out. */
static int64_t count_distinct(const void *val, size_t n, spmvlab_dtype d)
{
    uint64_t *k = malloc(n ? n * sizeof *k : 1);
    if (!k)
        return -1;
    for (size_t i = 0; i < n; i++)
        k[i] = value_bits(val, i, d);
    qsort(k, n, sizeof *k, key_order);
    int64_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        distinct += i == 0 || k[i] != k[i - 1];
    free(k);
    return distinct;
}

/* Puts every distinct key of A into s (keys[] in arrival order, +0.0
 * first); stops once more than SPMVLAB_VALUE_CODES_MAX of A's own are
 * found. Returns the number of keys and sets *zero_in_A. */
static size_t collect_keys(const spmvlab_matrix *A, value_set *s, uint64_t *keys, int *zero_in_A)
{
    size_t n = 0;
    s->key[set_slot(s, 0)] = 0;
    s->tag[set_slot(s, 0)] = 1;
    keys[n++] = 0;
    *zero_in_A = 0;
    for (size_t k = 0; k < (size_t)A->nnz; k++) {
        uint64_t b = value_bits(A->val, k, A->dtype);
        *zero_in_A |= b == 0;
        size_t at = set_slot(s, b);
        if (s->tag[at])
            continue;
        if (n - (size_t)!*zero_in_A >= SPMVLAB_VALUE_CODES_MAX) { /* one more of A's own than codes */
            keys[n++] = b;
            break;
        }
        s->key[at] = b;
        s->tag[at] = 1;
        keys[n++] = b;
    }
    return n;
}

/* The table's arrays from the n sorted keys: values and one code per entry. */
static int fill_table(spmvlab_value_cache *c, const spmvlab_matrix *A, value_set *s, const uint64_t *keys, size_t n)
{
    size_t vs = spmvlab_dtype_size(A->dtype), cb = n <= 256 ? 1 : 2;
    c->values = malloc(n * vs);
    c->codes = malloc((size_t)A->nnz * cb + 1);
    if (!c->values || !c->codes)
        return -1;
    for (size_t i = 0; i < n; i++) {
        memcpy((char *)c->values + i * vs, &keys[i], vs); /* little-endian: the low bytes are the value */
        s->tag[set_slot(s, keys[i])] = (uint32_t)i + 1;
    }
    for (size_t k = 0; k < (size_t)A->nnz; k++) {
        uint32_t code = s->tag[set_slot(s, value_bits(A->val, k, A->dtype))] - 1;
        if (cb == 1)
            ((uint8_t *)c->codes)[k] = (uint8_t)code;
        else
            ((uint16_t *)c->codes)[k] = (uint16_t)code;
    }
    c->table.count = (int32_t)n;
    c->table.code_bytes = (int32_t)cb;
    c->table.values = c->values;
    c->table.codes = c->codes;
    return 0;
}

/* Builds c's table from A: OK, LIMIT (too many values; the cause in c->why)
 * or NOMEM. */
static spmvlab_status build_table(spmvlab_value_cache *c, const spmvlab_matrix *A)
{
    size_t want = (size_t)A->nnz + 2 < SPMVLAB_VALUE_CODES_MAX + 2 ? (size_t)A->nnz + 2 : SPMVLAB_VALUE_CODES_MAX + 2;
    size_t cap = 16;
    while (cap < 2 * want)
        cap *= 2;
    value_set s = {calloc(cap, sizeof *s.key), calloc(cap, sizeof *s.tag), cap - 1};
    uint64_t *keys = malloc(want * sizeof *keys);
    spmvlab_status st = SPMVLAB_OK;
    int zero_in_A = 0;
    if (!s.key || !s.tag || !keys)
        st = SPMVLAB_NOMEM;
    size_t n = st == SPMVLAB_OK ? collect_keys(A, &s, keys, &zero_in_A) : 0;
    c->table.dtype = A->dtype;
    c->table.distinct = (int64_t)n - !zero_in_A;
    if (st == SPMVLAB_OK && n > SPMVLAB_VALUE_CODES_MAX) {
        st = SPMVLAB_LIMIT;
        if (c->table.distinct > SPMVLAB_VALUE_CODES_MAX)
            snprintf(c->why, sizeof c->why, "the matrix has more than %d distinct values (counting stopped at %lld)",
                     SPMVLAB_VALUE_CODES_MAX, (long long)c->table.distinct);
        else
            snprintf(c->why, sizeof c->why,
                     "the matrix has %lld distinct values and no +0.0 among them: with the +0.0 that padding "
                     "takes, %lld codes, more than the %d a 2-byte code names",
                     (long long)c->table.distinct, (long long)n, SPMVLAB_VALUE_CODES_MAX);
    }
    if (st == SPMVLAB_OK) {
        qsort(keys, n, sizeof *keys, key_order);
        if (fill_table(c, A, &s, keys, n) != 0)
            st = SPMVLAB_NOMEM;
    }
    if (st == SPMVLAB_NOMEM)
        snprintf(c->why, sizeof c->why, "out of host memory for the value table of %d entries", A->nnz);
    free(s.key);
    free(s.tag);
    free(keys);
    return st;
}

spmvlab_status spmvlab_value_cache_get(spmvlab_value_cache *c, const spmvlab_matrix *A, int count_all,
                                       const spmvlab_value_table **table, char *why, size_t len)
{
    if (!c->built) {
        c->st = build_table(c, A);
        c->built = 1;
    }
    if (c->st == SPMVLAB_LIMIT && count_all && !c->counted_all && c->table.distinct > SPMVLAB_VALUE_CODES_MAX) {
        int64_t all = count_distinct(A->val, (size_t)A->nnz, A->dtype);
        if (all >= 0) {
            c->table.distinct = all;
            c->counted_all = 1;
            snprintf(c->why, sizeof c->why, "the matrix has %lld distinct values, more than the %d a 2-byte code names",
                     (long long)all, SPMVLAB_VALUE_CODES_MAX);
        }
    }
    *table = c->st == SPMVLAB_NOMEM ? NULL : &c->table;
    snprintf(why, len, "%s", c->st == SPMVLAB_OK ? "" : c->why);
    return c->st;
}

void spmvlab_value_cache_free(spmvlab_value_cache *c)
{
    if (!c)
        return;
    free(c->values);
    free(c->codes);
    memset(c, 0, sizeof *c);
}
