/* The corpus's generator families (powerlaw, clustered, blockmix): each
 * matrix has the requested shape, non-zeros within tolerance, its row-length
 * law and its share of empty rows; a seed gives the same matrix. */
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

static int32_t empty_rows(const spmvlab_csr *A)
{
    int32_t e = 0;
    for (int32_t i = 0; i < A->rows; i++)
        e += row_len(A, i) == 0;
    return e;
}

/* Rows at least len long. */
static double rows_at_least(const spmvlab_csr *A, int32_t len)
{
    double c = 0;
    for (int32_t i = 0; i < A->rows; i++)
        c += row_len(A, i) >= len;
    return c;
}

static void powerlaw_has_its_shape_mean_and_empty_share(void)
{
    spmvlab_csr A;
    if (test_gen("powerlaw", "n=40000 cols=10000 k=12 alpha=2.2 empty=0.35", &A))
        return;
    TEST_CHECK(A.rows == 40000 && A.cols == 10000);
    TEST_CHECK(empty_rows(&A) == 14000); /* an exact count of empty rows */
    double mean = (double)A.nnz / (A.rows - 14000);
    TEST_CHECK(fabs(mean - 12) < 0.05 * 12);
    spmvlab_csr_free(&A);
}

/* The tail P(L >= x) of a density falling as x^-alpha falls as
 * x^-(alpha-1): the slope between two lengths of the tail gives alpha. */
static double tail_exponent(const char *params)
{
    spmvlab_csr A;
    if (test_gen("powerlaw", params, &A))
        return NAN;
    double lo = rows_at_least(&A, 40), hi = rows_at_least(&A, 320);
    spmvlab_csr_free(&A);
    return 1 + log(lo / hi) / log(320.0 / 40.0);
}

static void powerlaw_tail_follows_the_exponent(void)
{
    double a18 = tail_exponent("n=200000 k=8 alpha=1.8 max_len=100000");
    double a25 = tail_exponent("n=200000 k=8 alpha=2.5 max_len=100000");
    TEST_CHECK(fabs(a18 - 1.8) < 0.15);
    TEST_CHECK(fabs(a25 - 2.5) < 0.25);
}

static void powerlaw_caps_rows_at_max_len(void)
{
    spmvlab_csr A;
    if (test_gen("powerlaw", "n=20000 k=10 alpha=1.5 max_len=300", &A))
        return;
    TEST_CHECK(rows_at_least(&A, 301) == 0);
    TEST_CHECK(rows_at_least(&A, 300) > 0); /* a heavy tail reaches the cap */
    spmvlab_csr_free(&A);
}

static void clustered_rows_hold_k_in_runs_near_the_diagonal(void)
{
    spmvlab_csr A;
    if (test_gen("clustered", "n=2000 cols=16000 k=24 runs=3 spread=400 empty=0.25", &A))
        return;
    TEST_CHECK(A.rows == 2000 && A.cols == 16000 && empty_rows(&A) == 500);
    TEST_CHECK(A.nnz == 1500 * 24);
    int runs_ok = 1, near_ok = 1;
    for (int32_t i = 0; i < A.rows; i++) {
        int32_t runs = 0, diag = (int32_t)((int64_t)i * A.cols / A.rows);
        for (int32_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) {
            runs += k == A.row_ptr[i] || A.col_idx[k] != A.col_idx[k - 1] + 1;
            /* a window of 2 * 400 + 1 columns, shifted inward at the edges */
            near_ok &= abs(A.col_idx[k] - diag) <= 800 &&
                       A.col_idx[A.row_ptr[i + 1] - 1] - A.col_idx[A.row_ptr[i]] <= 800;
        }
        runs_ok &= row_len(&A, i) == 0 || (runs >= 1 && runs <= 3); /* adjacent runs merge */
    }
    TEST_CHECK(runs_ok);
    TEST_CHECK(near_ok);
    spmvlab_csr_free(&A);
}

static void clustered_jitter_spreads_lengths(void)
{
    spmvlab_csr A;
    if (test_gen("clustered", "n=5000 k=20 jitter=uniform runs=20", &A))
        return;
    int in_range = 1;
    for (int32_t i = 0; i < A.rows; i++)
        in_range &= row_len(&A, i) >= 10 && row_len(&A, i) <= 30;
    TEST_CHECK(in_range);
    TEST_CHECK(fabs((double)A.nnz / A.rows - 20) < 0.5);
    TEST_CHECK(rows_at_least(&A, 28) > 0 && rows_at_least(&A, 13) < A.rows);
    spmvlab_csr_free(&A);
}

static void blockmix_blocks_have_their_sizes_and_fill(void)
{
    spmvlab_csr full, half;
    if (test_gen("blockmix", "n=6000 cols=3000 r_min=3 r_max=3 c_min=4 c_max=4 bpr=5", &full))
        return;
    TEST_CHECK(full.rows == 6000 && full.cols == 3000);
    TEST_CHECK(full.nnz == 6000 * 5 * 4); /* equal full blocks: every row holds bpr * c */
    int aligned = 1;
    for (int32_t k = 0; k < full.nnz; k += 4)
        aligned &= full.col_idx[k] % 4 == 0 && full.col_idx[k + 3] == full.col_idx[k] + 3;
    TEST_CHECK(aligned);
    spmvlab_csr_free(&full);
    if (test_gen("blockmix", "n=20000 r_min=1 r_max=6 c_min=2 c_max=8 bpr=4 fill=0.5", &half))
        return;
    double expected = 20000 * 4 * 5 * 0.5;
    TEST_CHECK(fabs(half.nnz - expected) < 0.03 * expected);
    spmvlab_csr_free(&half);
}

static uint64_t hash_of(const char *kind, const char *params)
{
    spmvlab_csr A;
    if (test_gen(kind, params, &A))
        return 0;
    uint64_t h = spmvlab_csr_hash(&A);
    spmvlab_csr_free(&A);
    return h;
}

static void a_seed_gives_the_same_matrix(void)
{
    static const char *const cases[][2] = {
        {"powerlaw", "n=3000 k=6 alpha=2 empty=0.2"},
        {"clustered", "n=3000 k=12 runs=3 spread=100 empty=0.1"},
        {"blockmix", "n=3000 fill=0.6 spread=200"},
    };
    for (int i = 0; i < 3; i++) {
        char seed1[128], seed2[128];
        snprintf(seed1, sizeof seed1, "%s seed=1", cases[i][1]);
        snprintf(seed2, sizeof seed2, "%s seed=2", cases[i][1]);
        uint64_t a = hash_of(cases[i][0], seed1), b = hash_of(cases[i][0], seed1);
        TEST_CHECK(a != 0 && a == b);
        TEST_CHECK(a != hash_of(cases[i][0], seed2));
    }
}

static void bad_parameters_are_refused(void)
{
    static const char *const cases[][3] = {
        {"powerlaw", "n=100 k=200", "exceeds the longest row"},
        {"powerlaw", "n=100 alpha=1", "alpha = 1 is outside"},
        {"clustered", "n=100 cols=10 k=20", "do not fit the 10 columns"},
        {"blockmix", "n=100 r_min=4 r_max=2", "r_min > r_max"},
        {"blockmix", "n=100 cols=20 bpr=6 c_max=6", "do not fit the 20 columns"},
    };
    for (int i = 0; i < 5; i++) {
        spmvlab_gen_params p;
        spmvlab_err err;
        memset(&p, 0, sizeof p);
        TEST_CHECK(spmvlab_gen_params_parse(&p, cases[i][1], &err) == 0);
        TEST_CHECK(spmvlab_gen_check(cases[i][0], &p, &err) != 0);
        TEST_CONTAINS(err.msg, cases[i][2]);
    }
}

int main(void)
{
    powerlaw_has_its_shape_mean_and_empty_share();
    powerlaw_tail_follows_the_exponent();
    powerlaw_caps_rows_at_max_len();
    clustered_rows_hold_k_in_runs_near_the_diagonal();
    clustered_jitter_spreads_lengths();
    blockmix_blocks_have_their_sizes_and_fill();
    a_seed_gives_the_same_matrix();
    bad_parameters_are_refused();
    return test_done("test_gen_families");
}
