/* Random streams, column sampling, CSR allocation and values for the
 * matrix generators. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

uint64_t gen_salt(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    return h;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

void gen_sort_i32(int32_t *a, int32_t n)
{
    if (n > 32) {
        qsort(a, (size_t)n, sizeof *a, cmp_i32);
        return;
    }
    for (int32_t i = 1; i < n; i++) {
        int32_t t = a[i], j = i - 1;
        while (j >= 0 && a[j] > t) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = t;
    }
}

/* Removes repeats from a sorted array; returns the new length. */
static int32_t unique_sorted(int32_t *a, int32_t n)
{
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (m == 0 || a[m - 1] != a[i])
            a[m++] = a[i];
    return m;
}

void gen_sample_sorted(gen_rng *r, int32_t n, int32_t k, int32_t *out)
{
    if (k <= 0)
        return;
    if ((int64_t)k * 4 >= n) {
        /* Selection sampling (Knuth's algorithm S): column c is taken with
         * probability needed / remaining, which yields k sorted columns. */
        int32_t need = k;
        for (int32_t c = 0; c < n && need > 0; c++)
            if (gen_below(r, (uint64_t)(n - c)) < (uint32_t)need)
                out[k - need--] = c;
        return;
    }
    /* Sparse: draw, sort, drop repeats and draw again for the gap; with
     * k <= n/4 the expected number of rounds is small. */
    int32_t have = 0;
    while (have < k) {
        for (int32_t i = have; i < k; i++)
            out[i] = (int32_t)gen_below(r, (uint64_t)n);
        gen_sort_i32(out, k);
        have = unique_sorted(out, k);
    }
}

int gen_fits(const char *kind, const char *what, double count, spmvlab_err *err)
{
    if (count > (double)INT32_MAX) {
        spmvlab_errf(err, "%s would have %.0f %s, beyond the 32-bit index limit of %d", kind,
                     count, what, INT32_MAX);
        return -1;
    }
    return 0;
}

int gen_csr_alloc(spmvlab_csr *A, const char *kind, int64_t rows, int64_t cols, int64_t nnz,
                  spmvlab_err *err)
{
    memset(A, 0, sizeof *A);
    if (gen_fits(kind, "rows", (double)rows, err) || gen_fits(kind, "columns", (double)cols, err) ||
        gen_fits(kind, "non-zeros", (double)nnz, err))
        return -1;
    A->rows = (int32_t)rows;
    A->cols = (int32_t)cols;
    A->nnz = (int32_t)nnz;
    A->row_ptr = malloc(((size_t)rows + 1) * sizeof *A->row_ptr);
    A->col_idx = malloc((nnz ? (size_t)nnz : 1) * sizeof *A->col_idx);
    A->val = malloc((nnz ? (size_t)nnz : 1) * sizeof *A->val);
    if (!A->row_ptr || !A->col_idx || !A->val) {
        spmvlab_csr_free(A);
        spmvlab_errf(err, "%s: out of host memory for %lld rows and %lld non-zeros", kind,
                     (long long)rows, (long long)nnz);
        return -1;
    }
    A->row_ptr[0] = 0;
    strcpy(A->symmetry, "general");
    strcpy(A->field, "real");
    return 0;
}

int gen_random_rows(spmvlab_csr *A, const char *kind, int32_t rows, int32_t cols,
                    const int32_t *len, gen_rng *r, spmvlab_err *err)
{
    int64_t nnz = 0;
    for (int32_t i = 0; i < rows; i++)
        nnz += len[i];
    if (gen_csr_alloc(A, kind, rows, cols, nnz, err))
        return -1;
    int64_t k = 0;
    for (int32_t i = 0; i < rows; i++) {
        gen_sample_sorted(r, cols, len[i], A->col_idx + k);
        k += len[i];
        A->row_ptr[i + 1] = (int32_t)k;
    }
    return 0;
}

int32_t gen_jitter_len(gen_rng *r, int32_t mean, int32_t cols)
{
    if (mean <= 0)
        return 0;
    int64_t len = mean / 2 + (int64_t)gen_below(r, (uint64_t)mean + 1);
    len = len < 1 ? 1 : len;
    return (int32_t)(len > cols ? cols : len);
}

/* A random value ±m·2^-20 with m in [lo, lo + span) from one draw x. */
static double gen_value(uint64_t x, int32_t lo, uint32_t span)
{
    int32_t m = lo + (int32_t)(((x >> 32) * span) >> 32);
    return (x & 1 ? -(double)m : (double)m) * 0x1p-20;
}

/* few distinct values of the random kind into A: value j has a magnitude
 * of its own step of [2^17, 2^20], so the K values differ; each entry takes
 * one uniformly. */
static void gen_fill_few(spmvlab_csr *A, int few, gen_rng *r)
{
    double *table = malloc((size_t)few * sizeof *table);
    if (!table) /* a few KiB at most; without them every entry takes the first step */
        few = 1;
    uint32_t step = (uint32_t)(((1u << 20) - (1u << 17) + 1) / (uint32_t)few);
    double first = gen_value(gen_next(r), 1 << 17, step);
    for (int j = 0; table && j < few; j++)
        table[j] = gen_value(gen_next(r), (1 << 17) + j * (int32_t)step, step);
    for (int32_t k = 0; k < A->nnz; k++)
        A->val[k] = table ? table[gen_below(r, (uint64_t)few)] : first;
    free(table);
}

void gen_fill_values(spmvlab_csr *A, int mode, int few, uint64_t seed)
{
    if (mode == GEN_VALUES_FEW) {
        gen_rng r;
        gen_rng_seed(&r, seed, 0x66657776616c7565ull); /* "fewvalue" */
        gen_fill_few(A, few, &r);
        return;
    }
    if (mode == GEN_VALUES_ONES) {
        for (int32_t k = 0; k < A->nnz; k++)
            A->val[k] = 1.0;
        return;
    }
    /* m in [2^17, 2^20], value ±m·2^-20: integer to double and a power-of-two
     * scale are exact, so no rounding mode or contraction can change it. */
    gen_rng r;
    gen_rng_seed(&r, seed, 0x76616c756573ull); /* "values" */
    for (int32_t k = 0; k < A->nnz; k++) {
        A->val[k] = gen_value(gen_next(&r), 1 << 17, (1u << 20) - (1u << 17) + 1);
    }
}

int gen_textf(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, len, fmt, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int gen_name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || strchr("_.+-", *s)))
            return 0;
    return 1;
}

int gen_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

void gen_pick_block_cols(gen_rng *r, int32_t ib, int32_t n, int32_t w, int32_t spread, int32_t bpr, int32_t *bcol)
{
    int32_t lo = w == n ? 0 : ib - spread;
    lo = lo < 0 ? 0 : lo > n - w ? n - w : lo;
    /* bpr - 1 of the w - 1 other block-columns, then the diagonal in order */
    int32_t d = ib - lo, m = bpr - 1;
    gen_sample_sorted(r, w - 1, m, bcol);
    for (int32_t q = 0; q < m; q++)
        bcol[q] += lo + (bcol[q] >= d);
    int32_t q = m;
    while (q > 0 && bcol[q - 1] > ib) {
        bcol[q] = bcol[q - 1];
        q--;
    }
    bcol[q] = ib;
}

int64_t gen_block_window(int64_t n, int64_t spread)
{
    return spread == 0 || 2 * spread + 1 > n ? n : 2 * spread + 1;
}
