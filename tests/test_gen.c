/* Matrix generators (spmvlab/gen.h): each kind's shape, non-zeros and row
 * lengths, determinism for a seed, values, parameter refusals. The set
 * files: test_gen_set.c. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/cache.h"
#include "spmvlab/gen.h"
#include "testlib.h"

static int32_t row_len(const spmvlab_csr *A, int32_t i)
{
    return A->row_ptr[i + 1] - A->row_ptr[i];
}

/* The error sentence of generating kind with params (must fail). */
static const char *gen_error(const char *kind, const char *params)
{
    static spmvlab_err err;
    spmvlab_gen_params p;
    spmvlab_csr A;
    memset(&p, 0, sizeof p);
    if (spmvlab_gen_params_parse(&p, params, &err) == 0 && spmvlab_gen(kind, &p, &A, &err) == 0) {
        spmvlab_csr_free(&A);
        snprintf(err.msg, sizeof err.msg, "(no error)");
    }
    return err.msg;
}

static void stencils_have_full_interior_rows(void)
{
    spmvlab_csr A;
    if (test_gen("stencil2d5", "n=10", &A) == 0) {
        TEST_CHECK(A.rows == 100 && A.cols == 100 && A.nnz == 5 * 100 - 4 * 10);
        for (int y = 1; y < 9; y++)
            for (int x = 1; x < 9; x++)
                TEST_CHECK(row_len(&A, y * 10 + x) == 5);
        TEST_CHECK(row_len(&A, 0) == 3 && row_len(&A, 5) == 4);
        /* Row 55: neighbours at 45, 54, 55, 56, 65. */
        const int32_t *c = A.col_idx + A.row_ptr[55];
        TEST_CHECK(c[0] == 45 && c[1] == 54 && c[2] == 55 && c[3] == 56 && c[4] == 65);
    }
    spmvlab_csr_free(&A);
    if (test_gen("stencil3d7", "n=6", &A) == 0) {
        TEST_CHECK(A.rows == 216 && A.nnz == 7 * 216 - 6 * 36);
        TEST_CHECK(row_len(&A, (2 * 6 + 3) * 6 + 2) == 7 && row_len(&A, 0) == 4);
    }
    spmvlab_csr_free(&A);
    if (test_gen("stencil3d27", "n=5", &A) == 0) {
        TEST_CHECK(A.rows == 125 && A.nnz == 13 * 13 * 13);
        int interior = 0;
        for (int z = 1; z < 4; z++)
            for (int y = 1; y < 4; y++)
                for (int x = 1; x < 4; x++)
                    interior += row_len(&A, (z * 5 + y) * 5 + x) == 27;
        TEST_CHECK(interior == 27);
        TEST_CHECK(row_len(&A, 0) == 8);
    }
    spmvlab_csr_free(&A);
}

static void banded_rows_cover_the_band(void)
{
    spmvlab_csr A;
    if (test_gen("banded", "n=50 bandwidth=3", &A) == 0) {
        TEST_CHECK(A.rows == 50 && A.nnz == 50 * 7 - 3 * 4);
        TEST_CHECK(row_len(&A, 0) == 4 && row_len(&A, 25) == 7 && row_len(&A, 49) == 4);
        TEST_CHECK(A.col_idx[A.row_ptr[25]] == 22 && A.col_idx[A.row_ptr[26] - 1] == 28);
    }
    spmvlab_csr_free(&A);
    if (test_gen("banded", "n=5 bandwidth=100", &A) == 0)
        TEST_CHECK(A.nnz == 25); /* the band covers the whole matrix */
    spmvlab_csr_free(&A);
}

static void uniform_rows_have_k_entries(void)
{
    spmvlab_csr A;
    if (test_gen("uniform", "n=500 k=7 cols=300", &A) == 0) {
        TEST_CHECK(A.rows == 500 && A.cols == 300 && A.nnz == 3500);
        int all = 1;
        for (int32_t i = 0; i < A.rows; i++)
            all &= row_len(&A, i) == 7;
        TEST_CHECK(all);
    }
    spmvlab_csr_free(&A);
    if (test_gen("uniform", "n=20 k=20", &A) == 0) /* dense rows: every column */
        TEST_CHECK(A.nnz == 20 * 20);
    spmvlab_csr_free(&A);
}

/* True when every (i, j) has its (j, i). */
static int pattern_symmetric(const spmvlab_csr *A)
{
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int32_t j = A->col_idx[k], lo = A->row_ptr[j], hi = A->row_ptr[j + 1];
            while (lo < hi) {
                int32_t mid = (lo + hi) / 2;
                if (A->col_idx[mid] < i)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == A->row_ptr[j + 1] || A->col_idx[lo] != i)
                return 0;
        }
    return 1;
}

static void rmat_rows_are_heavy_tailed(void)
{
    spmvlab_csr A;
    if (test_gen("rmat", "scale=12 edge_factor=16", &A) == 0) {
        spmvlab_row_stats s;
        spmvlab_row_stats_of(&A, &s);
        TEST_CHECK(A.rows == 4096 && A.nnz <= 16 * 4096 && A.nnz > 12 * 4096);
        TEST_CHECK(s.max > 20 * s.mean); /* a few very heavy rows */
        TEST_CHECK(s.empty > 0);         /* and many rows without edges */
        TEST_CHECK(s.stddev > 2 * s.mean);
    }
    spmvlab_csr_free(&A);
    if (test_gen("rmat", "scale=10 edge_factor=8 undirected=1", &A) == 0)
        TEST_CHECK(pattern_symmetric(&A));
    spmvlab_csr_free(&A);
    /* Without shuffling, the heaviest row is row 0 (a is the largest quadrant). */
    if (test_gen("rmat", "scale=10 permute=0", &A) == 0) {
        spmvlab_row_stats s;
        spmvlab_row_stats_of(&A, &s);
        TEST_CHECK(row_len(&A, 0) == s.max);
    }
    spmvlab_csr_free(&A);
}

/* Rows come in runs of one column pattern (a node's unknowns), each run
 * min_size .. max_size rows, and every row's columns in runs of whole
 * nodes, as many as its bpr blocks. */
static void vblocks_are_dense_blocks_of_mixed_sizes(void)
{
    spmvlab_csr A;
    if (test_gen("vblocks", "nodes=200 bpr=4 min_size=2 max_size=6 spread=5", &A) == 0) {
        TEST_CHECK(A.rows == A.cols && A.rows >= 400 && A.rows <= 1200);
        int ok = 1, runs = 0, sizes_seen[7] = {0};
        for (int32_t i = 0, run = 1; i < A.rows; i++, run++) {
            int last = i + 1 == A.rows || row_len(&A, i) != row_len(&A, i + 1) ||
                       memcmp(A.col_idx + A.row_ptr[i], A.col_idx + A.row_ptr[i + 1],
                              (size_t)row_len(&A, i) * sizeof(int32_t)) != 0;
            ok &= row_len(&A, i) >= 4 * 2 && row_len(&A, i) <= 4 * 6;
            if (last) {
                ok &= run >= 2 && run <= 6;
                sizes_seen[run < 7 ? run : 0]++;
                runs++;
                run = 0;
            }
        }
        TEST_CHECK(ok);
        TEST_CHECK(runs == 200);
        for (int s = 2; s <= 6; s++)
            TEST_CHECK(sizes_seen[s] > 0); /* every size occurs among 200 nodes */
    }
    spmvlab_csr_free(&A);
}

static void blocks_are_dense_and_near_the_diagonal(void)
{
    spmvlab_csr A;
    if (test_gen("blocks", "block_rows=50 bpr=4 r=2 c=3 spread=5", &A) == 0) {
        TEST_CHECK(A.rows == 100 && A.cols == 150 && A.nnz == 50 * 4 * 2 * 3);
        int ok = 1;
        for (int32_t i = 0; i < A.rows; i++) {
            int32_t ib = i / 2, diag = 0;
            ok &= row_len(&A, i) == 12;
            for (int32_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k += 3) {
                int32_t bc = A.col_idx[k] / 3;
                ok &= A.col_idx[k] % 3 == 0 && A.col_idx[k + 2] == A.col_idx[k] + 2;
                ok &= bc >= ib - 10 && bc <= ib + 10;
                diag += bc == ib;
            }
            ok &= diag == 1;
            /* both rows of a block-row share their columns */
            if (i % 2)
                ok &= memcmp(A.col_idx + A.row_ptr[i], A.col_idx + A.row_ptr[i - 1],
                             12 * sizeof(int32_t)) == 0;
        }
        TEST_CHECK(ok);
    }
    spmvlab_csr_free(&A);
}

static void mixed_rows_follow_the_fractions(void)
{
    spmvlab_csr A;
    if (test_gen("mixed", "n=20000 short_len=4 medium_len=64 long_len=1024 short_frac=0.9 medium_frac=0.09",
            &A) == 0) {
        int s = 0, m = 0, l = 0;
        for (int32_t i = 0; i < A.rows; i++) {
            int32_t len = row_len(&A, i);
            s += len >= 2 && len <= 6;
            m += len >= 32 && len <= 96;
            l += len >= 512 && len <= 1536;
        }
        TEST_CHECK(s + m + l == A.rows);
        TEST_CHECK(fabs(s / 20000.0 - 0.9) < 0.01);
        TEST_CHECK(fabs(m / 20000.0 - 0.09) < 0.01);
        TEST_CHECK(l > 100 && l < 300);
    }
    spmvlab_csr_free(&A);
}

static void longrows_has_its_long_rows(void)
{
    spmvlab_csr A;
    if (test_gen("longrows", "n=1000 k=4 long_rows=3 long_len=800", &A) == 0) {
        int longs = 0, others_short = 1;
        for (int32_t i = 0; i < A.rows; i++) {
            if (row_len(&A, i) == 800)
                longs++;
            else
                others_short &= row_len(&A, i) >= 2 && row_len(&A, i) <= 6;
        }
        TEST_CHECK(longs == 3 && others_short);
    }
    spmvlab_csr_free(&A);
    if (test_gen("longrows", "n=100 k=2 long_rows=1 long_len=1000000", &A) == 0) {
        spmvlab_row_stats s;
        spmvlab_row_stats_of(&A, &s);
        TEST_CHECK(s.max == 100); /* capped at the column count: a dense row */
    }
    spmvlab_csr_free(&A);
}

/* Small instances of every kind, and their hashes for seed 1 on a
 * little-endian machine: a change here means matrices changed for users,
 * so the kind's version must be bumped. */
static const struct {
    const char *kind, *params;
} samples[] = {
    {"stencil2d5", "n=12"},
    {"stencil3d7", "n=5"},
    {"stencil3d27", "n=4"},
    {"banded", "n=40 bandwidth=2"},
    {"uniform", "n=60 k=5"},
    {"rmat", "scale=8 edge_factor=8"},
    {"blocks", "block_rows=20 bpr=3 r=2 c=2"},
    {"mixed", "n=300"},
    {"longrows", "n=300 long_rows=2 long_len=200"},
    {"vblocks", "nodes=30 bpr=3 spread=5"},
};
#define SAMPLES ((int)(sizeof samples / sizeof *samples))

static const uint64_t golden[SAMPLES] = {
    0xeae15948eaf86beeull, /* stencil2d5 */
    0x9868c4e69f7b941bull, /* stencil3d7 */
    0xae2e91161dfa17b0ull, /* stencil3d27 */
    0xc127b9ca26ab317cull, /* banded */
    0x3f25f67265ddcdc5ull, /* uniform */
    0x197625396bcc224eull, /* rmat */
    0x7bf01929ae688815ull, /* blocks */
    0x0d1925a999d69e6bull, /* mixed */
    0x8ca77815c127e85cull, /* longrows */
    0x0dd67a9120a8c8b3ull, /* vblocks */
};

static uint64_t hash_of(const char *kind, const char *params, const char *extra)
{
    char text[256];
    snprintf(text, sizeof text, "%s %s", params, extra);
    spmvlab_csr A;
    if (test_gen(kind, text, &A))
        return 0;
    uint64_t h = spmvlab_csr_hash(&A);
    spmvlab_csr_free(&A);
    return h;
}

static void a_seed_gives_the_same_matrix(void)
{
    const uint16_t probe = 1;
    int little = *(const unsigned char *)&probe == 1, print = getenv("SPMVLAB_PRINT_GOLDEN") != NULL;
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t a = hash_of(samples[i].kind, samples[i].params, "seed=1");
        uint64_t b = hash_of(samples[i].kind, samples[i].params, "seed=1");
        uint64_t c = hash_of(samples[i].kind, samples[i].params, "seed=2");
        TEST_CHECK(a == b);
        TEST_CHECK(a != c);
        if (print)
            printf("    0x%016llxull, /* %s */\n", (unsigned long long)a, samples[i].kind);
        else if (little && a != golden[i]) {
            fprintf(stderr, "%s %s: hash %016llx, expected %016llx\n", samples[i].kind,
                    samples[i].params, (unsigned long long)a, (unsigned long long)golden[i]);
            test_failures++;
        }
    }
}

static void values_are_exact_and_bounded(void)
{
    spmvlab_csr A;
    if (test_gen("uniform", "n=2000 k=10", &A) == 0) {
        int ok = 1, neg = 0;
        for (int32_t k = 0; k < A.nnz; k++) {
            double v = fabs(A.val[k]), m = v * 1048576.0;
            ok &= v >= 0.125 && v <= 1 && m == floor(m);
            neg += A.val[k] < 0;
        }
        TEST_CHECK(ok);
        TEST_CHECK(neg > A.nnz / 3 && neg < 2 * A.nnz / 3);
    }
    spmvlab_csr_free(&A);
    if (test_gen("stencil2d5", "n=8 values=ones", &A) == 0) {
        int ones = 1;
        for (int32_t k = 0; k < A.nnz; k++)
            ones &= A.val[k] == 1.0;
        TEST_CHECK(ones);
    }
    spmvlab_csr_free(&A);
    /* The structure does not depend on the values mode. */
    spmvlab_csr B;
    if (test_gen("rmat", "scale=9", &A) == 0 && test_gen("rmat", "scale=9 values=ones", &B) == 0)
        TEST_CHECK(A.nnz == B.nnz && memcmp(A.col_idx, B.col_idx, (size_t)A.nnz * 4) == 0);
    spmvlab_csr_free(&A);
    spmvlab_csr_free(&B);
}

/* Ascending order of doubles, for qsort. */
static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The distinct values of A (a sorted copy). */
static int32_t distinct_values(const spmvlab_csr *A)
{
    double *v = malloc((size_t)A->nnz * sizeof *v + 1);
    memcpy(v, A->val, (size_t)A->nnz * sizeof *v);
    qsort(v, (size_t)A->nnz, sizeof *v, compare_doubles);
    int32_t n = 0;
    for (int32_t k = 0; k < A->nnz; k++)
        n += k == 0 || v[k] != v[k - 1];
    free(v);
    return n;
}

/* values = few:K: K distinct values of the random kind, the structure of
 * the random values; described as few:K; K outside 1..524288 refused. */
static void few_values_are_k_distinct(void)
{
    spmvlab_csr A, B;
    const int ks[] = {1, 2, 7, 27, 1000};
    for (int i = 0; i < 5; i++) {
        char params[64];
        snprintf(params, sizeof params, "n=3000 bandwidth=5 values=few:%d", ks[i]);
        if (test_gen("banded", params, &A) != 0)
            continue;
        TEST_CHECK(distinct_values(&A) == ks[i]);
        int ok = 1;
        for (int32_t k = 0; k < A.nnz; k++)
            ok &= fabs(A.val[k]) >= 0.125 && fabs(A.val[k]) <= 1 && A.val[k] * 1048576.0 == floor(A.val[k] * 1048576.0);
        TEST_CHECK(ok);
        spmvlab_csr_free(&A);
    }
    if (test_gen("rmat", "scale=9", &A) == 0 && test_gen("rmat", "scale=9 values=few:3", &B) == 0)
        TEST_CHECK(A.nnz == B.nnz && memcmp(A.col_idx, B.col_idx, (size_t)A.nnz * 4) == 0);
    spmvlab_csr_free(&A);
    spmvlab_csr_free(&B);
    TEST_CONTAINS(gen_error("uniform", "values=few"), "values = 'few' is not few:K with K a whole number from 1 to 524288");
    TEST_CONTAINS(gen_error("uniform", "values=few:0"), "is not few:K");
    TEST_CONTAINS(gen_error("uniform", "values=few:3x"), "is not few:K");
    TEST_CONTAINS(gen_error("uniform", "values=few:600000"), "is not few:K");
    spmvlab_gen_params p;
    spmvlab_err err;
    memset(&p, 0, sizeof p);
    TEST_CHECK(spmvlab_gen_params_parse(&p, "n=10 values=few:12", &err) == 0);
    char desc[256];
    TEST_CHECK(spmvlab_gen_describe("banded", &p, desc, sizeof desc, &err) == 0);
    TEST_CONTAINS(desc, " values=few:12");
}

static void bad_parameters_are_refused(void)
{
    TEST_CONTAINS(gen_error("stencil2d5", "k=3"), "stencil2d5 has no parameter 'k'");
    TEST_CONTAINS(gen_error("stencil2d5", "n=abc"), "is not a number");
    TEST_CONTAINS(gen_error("stencil2d5", "n=2.5"), "is not an integer");
    TEST_CONTAINS(gen_error("stencil2d5", "n=0"), "outside");
    TEST_CONTAINS(gen_error("stencil2d5", "n=30000"), "32-bit index limit");
    TEST_CONTAINS(gen_error("uniform", "n=10 k=11"), "exceeds the 10 columns");
    TEST_CONTAINS(gen_error("rmat", "a=0.5"), "not 1");
    TEST_CONTAINS(gen_error("mixed", "short_frac=0.8 medium_frac=0.3"), "exceeds 1");
    TEST_CONTAINS(gen_error("blocks", "block_rows=10 bpr=4 spread=1"), "do not fit");
    TEST_CONTAINS(gen_error("vblocks", "min_size=5 max_size=3"), "min_size = 5 exceeds max_size = 3");
    TEST_CONTAINS(gen_error("uniform", "values=two"), "not one of random|ones");
    TEST_CONTAINS(gen_error("cubic", "n=3"), "unknown generator 'cubic'");
    spmvlab_gen_params p;
    spmvlab_err err;
    memset(&p, 0, sizeof p);
    TEST_CHECK(spmvlab_gen_params_parse(&p, "n=10, k=3\tseed=4", &err) == 0 && p.count == 3);
    TEST_CHECK(spmvlab_gen_params_parse(&p, "k=5", &err) == 0 && p.count == 3);
    TEST_CHECK(strcmp(spmvlab_gen_params_get(&p, "k"), "5") == 0);
    TEST_CHECK(spmvlab_gen_params_parse(&p, "n", &err) != 0);
    TEST_CONTAINS(err.msg, "not key=value");
    TEST_CHECK(spmvlab_gen_params_parse(&p, "N=3", &err) != 0);
    char desc[256];
    TEST_CHECK(spmvlab_gen_describe("uniform", &p, desc, sizeof desc, &err) == 0);
    TEST_CHECK(strcmp(desc, "uniform n=10 k=5 cols=0 seed=4 values=random") == 0);
    spmvlab_gen_params q;
    memset(&q, 0, sizeof q);
    spmvlab_gen_params_parse(&q, "a=0.6 b=0.15 c=0.15 d=0.1", &err);
    TEST_CHECK(spmvlab_gen_describe("rmat", &q, desc, sizeof desc, &err) == 0);
    TEST_CONTAINS(desc, " a=0.6 b=0.15 c=0.15 d=0.1 ");
}

int main(void)
{
    stencils_have_full_interior_rows();
    banded_rows_cover_the_band();
    uniform_rows_have_k_entries();
    rmat_rows_are_heavy_tailed();
    blocks_are_dense_and_near_the_diagonal();
    vblocks_are_dense_blocks_of_mixed_sizes();
    mixed_rows_follow_the_fractions();
    longrows_has_its_long_rows();
    a_seed_gives_the_same_matrix();
    values_are_exact_and_bounded();
    few_values_are_k_distinct();
    bad_parameters_are_refused();
    return test_done("test_gen");
}
