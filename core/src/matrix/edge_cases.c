/* The conformance battery of small matrices with awkward shapes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/core.h"
#include "spmvlab/edge.h"

typedef struct builder {
    int32_t *ri, *ci;
    double *v;
    size_t n, cap;
    uint64_t rng;
} builder;

static uint64_t next(builder *b)
{
    uint64_t z = (b->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double rand_val(builder *b)
{
    double m = 0.25 + 0.75 * (double)(next(b) >> 11) * 0x1.0p-53;
    return (next(b) & 1) ? -m : m;
}

static int put(builder *b, int32_t r, int32_t c, double v)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        int32_t *ri = realloc(b->ri, cap * sizeof *ri), *ci = ri ? realloc(b->ci, cap * sizeof *ci) : NULL;
        if (ri)
            b->ri = ri;
        if (ci)
            b->ci = ci;
        double *vv = ci ? realloc(b->v, cap * sizeof *vv) : NULL;
        if (!vv)
            return -1;
        b->v = vv;
        b->cap = cap;
    }
    b->ri[b->n] = r;
    b->ci[b->n] = c;
    b->v[b->n++] = v;
    return 0;
}

/* Row r gets len distinct random columns (or all when len >= cols). */
static int random_row(builder *b, int32_t r, int32_t len, int32_t cols)
{
    if (len <= 0)
        return 0;
    if (len >= cols) {
        for (int32_t c = 0; c < cols; c++)
            if (put(b, r, c, rand_val(b)))
                return -1;
        return 0;
    }
    /* Evenly strided start plus jitter keeps columns distinct cheaply. */
    int32_t stride = cols / len, start = (int32_t)(next(b) % (uint64_t)stride);
    for (int32_t k = 0; k < len; k++)
        if (put(b, r, start + k * stride, rand_val(b)))
            return -1;
    return 0;
}

typedef int (*edge_fn)(builder *b, int32_t *rows, int32_t *cols);

static int e_no_rows(builder *b, int32_t *rows, int32_t *cols) { (void)b; *rows = 0; *cols = 5; return 0; }
static int e_no_cols(builder *b, int32_t *rows, int32_t *cols) { (void)b; *rows = 5; *cols = 0; return 0; }
static int e_no_nonzeros(builder *b, int32_t *rows, int32_t *cols) { (void)b; *rows = 37; *cols = 41; return 0; }
static int e_one_by_one(builder *b, int32_t *rows, int32_t *cols)
{
    *rows = *cols = 1;
    return put(b, 0, 0, rand_val(b));
}
static int e_one_row(builder *b, int32_t *rows, int32_t *cols)
{
    *rows = 1;
    *cols = 3001;
    return random_row(b, 0, 3001, 3001);
}
static int e_one_col(builder *b, int32_t *rows, int32_t *cols)
{
    *rows = 3001;
    *cols = 1;
    for (int32_t i = 0; i < 3001; i++)
        if (put(b, i, 0, rand_val(b)))
            return -1;
    return 0;
}
static int e_diagonal(builder *b, int32_t *rows, int32_t *cols)
{
    *rows = *cols = 1025;
    for (int32_t i = 0; i < 1025; i++)
        if (put(b, i, i, rand_val(b)))
            return -1;
    return 0;
}
static int e_empty_rows(builder *b, int32_t *rows, int32_t *cols)
{
    /* Empty rows at the start, the end, in runs and alone. */
    *rows = 517;
    *cols = 300;
    for (int32_t i = 0; i < 517; i++) {
        if (i < 40 || i > 480 || i % 3 == 0 || (i >= 200 && i < 300))
            continue;
        if (random_row(b, i, 1 + (int32_t)(next(b) % 9), 300))
            return -1;
    }
    return 0;
}
static int e_dense_row(builder *b, int32_t *rows, int32_t *cols)
{
    *rows = 700;
    *cols = 700;
    for (int32_t i = 0; i < 700; i++)
        if (random_row(b, i, i == 123 ? 700 : 1 + (int32_t)(next(b) % 4), 700))
            return -1;
    return 0;
}
static int e_power_law(builder *b, int32_t *rows, int32_t *cols)
{
    /* Row lengths ~ 1 / u^1.2: most rows short, a heavy tail to 4000. */
    *rows = 3000;
    *cols = 5000;
    for (int32_t i = 0; i < 3000; i++) {
        double u = ((double)(next(b) >> 11) + 1) * 0x1.0p-53;
        double len = pow(u, -1.2);
        int32_t n = len > 4000 ? 4000 : (int32_t)len;
        if (random_row(b, i, n, 5000))
            return -1;
    }
    return 0;
}
static int e_long_row_many_tiles(builder *b, int32_t *rows, int32_t *cols)
{
    /* One row spanning many 32 x 32 tiles between short rows and empty rows. */
    *rows = 97;
    *cols = 40000;
    for (int32_t i = 0; i < 97; i++) {
        int32_t len = i == 50 ? 35000 : (i % 4 == 0 ? 0 : 1 + (int32_t)(next(b) % 6));
        if (len && random_row(b, i, len, 40000))
            return -1;
    }
    return 0;
}
static int e_uniform(builder *b, int32_t *rows, int32_t *cols)
{
    *rows = 2111;
    *cols = 1999;
    for (int32_t i = 0; i < 2111; i++)
        if (random_row(b, i, 7, 1999))
            return -1;
    return 0;
}
static int e_row_lengths_mixed(builder *b, int32_t *rows, int32_t *cols)
{
    /* Lengths 0..300 cycling: every short, medium and long class boundary. */
    *rows = 1500;
    *cols = 1200;
    for (int32_t i = 0; i < 1500; i++)
        if (random_row(b, i, i % 301, 1200))
            return -1;
    return 0;
}
static int e_wide(builder *b, int32_t *rows, int32_t *cols)
{
    *rows = 33;
    *cols = 100000;
    for (int32_t i = 0; i < 33; i++)
        if (random_row(b, i, 3 + i * 13, 100000))
            return -1;
    return 0;
}

static const struct {
    const char *name;
    edge_fn build;
} cases[] = {
    {"no_rows_0x5", e_no_rows},       {"no_cols_5x0", e_no_cols},
    {"no_nonzeros_37x41", e_no_nonzeros}, {"one_by_one", e_one_by_one},
    {"one_row_1x3001", e_one_row},     {"one_col_3001x1", e_one_col},
    {"diagonal_1025", e_diagonal},    {"empty_rows_517x300", e_empty_rows},
    {"dense_row_700", e_dense_row},   {"power_law_3000x5000", e_power_law},
    {"long_row_97x40000", e_long_row_many_tiles}, {"uniform_k7_2111x1999", e_uniform},
    {"lengths_0_to_300", e_row_lengths_mixed}, {"wide_33x100000", e_wide},
};

int spmvlab_edge_count(void) { return (int)(sizeof cases / sizeof *cases); }

const char *spmvlab_edge_name(int i) { return i >= 0 && i < spmvlab_edge_count() ? cases[i].name : "?"; }

int spmvlab_edge_build(int i, spmvlab_csr *A, spmvlab_err *err)
{
    memset(A, 0, sizeof *A);
    if (i < 0 || i >= spmvlab_edge_count())
        return spmvlab_errf(err, "no edge case %d", i), -1;
    builder b = {0};
    b.rng = 0x5eed0000ULL + (uint64_t)i;
    int32_t rows = 0, cols = 0;
    int rc = cases[i].build(&b, &rows, &cols);
    if (rc)
        spmvlab_errf(err, "out of host memory building %s", cases[i].name);
    else
        rc = spmvlab_csr_build(A, rows, cols, b.n, b.ri, b.ci, b.v, err);
    free(b.ri);
    free(b.ci);
    free(b.v);
    return rc;
}
