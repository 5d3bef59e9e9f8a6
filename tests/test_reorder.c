/* Orderings are permutations; the permuted matrix times the permuted x is
 * the permuted y; RCM narrows a shuffled band; degree puts hubs first. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/bound.h"
#include "spmvlab/reorder.h"
#include "testlib.h"

/* A band matrix of half-width w whose rows and columns were shuffled by a
 * seeded permutation (the same one for both, so it stays symmetric). */
static spmvlab_csr shuffled_band(int32_t n, int32_t w, uint64_t seed)
{
    int32_t *p = malloc((size_t)n * sizeof *p);
    for (int32_t i = 0; i < n; i++)
        p[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int32_t j = (int32_t)((seed >> 33) % (uint64_t)(i + 1)), t = p[i];
        p[i] = p[j], p[j] = t;
    }
    spmvlab_triplet *t = malloc((size_t)n * (2 * w + 1) * sizeof *t);
    size_t k = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i - w; j <= i + w; j++)
            if (j >= 0 && j < n)
                t[k++] = (spmvlab_triplet){p[i], p[j], 1.0 + (i + j) % 7};
    free(p);
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_csr_from_triplets(&A, n, n, t, k, &err)) {
        fprintf(stderr, "building the band: %s\n", err.msg);
        exit(1);
    }
    return A;
}

static void spmv(const spmvlab_csr *A, const double *x, double *y, double *absum)
{
    for (int32_t i = 0; i < A->rows; i++) {
        double s = 0, a = 0;
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            s += A->val[k] * x[A->col_idx[k]];
            a += fabs(A->val[k] * x[A->col_idx[k]]);
        }
        y[i] = s;
        if (absum)
            absum[i] = a;
    }
}

/* B = ordering o of A; checks B·(P x) = P (A x) row by row within the
 * dot-product bound (columns are summed in another order). */
static void check_permuted_product(const spmvlab_csr *A, spmvlab_ordering o)
{
    int32_t *perm;
    spmvlab_err err;
    TEST_CHECK(spmvlab_order_compute(A, o, &perm, &err) == 0);
    TEST_CHECK(spmvlab_is_permutation(perm, A->rows));
    spmvlab_csr B;
    TEST_CHECK(spmvlab_csr_permute(A, perm, &B, &err) == 0);
    TEST_CHECK(B.nnz == A->nnz && B.rows == A->rows && B.cols == A->cols);
    int square = A->rows == A->cols;
    double *x = malloc((size_t)A->cols * sizeof *x), *px = malloc((size_t)A->cols * sizeof *px);
    double *y = malloc((size_t)A->rows * sizeof *y), *py = malloc((size_t)A->rows * sizeof *py);
    double *absum = malloc((size_t)A->rows * sizeof *absum);
    spmvlab_random_x(x, (size_t)A->cols, SPMVLAB_F64, 7);
    if (square)
        spmvlab_permute_vector(x, perm, A->cols, px);
    else
        memcpy(px, x, (size_t)A->cols * sizeof *x);
    spmv(A, x, y, absum);
    spmv(&B, px, py, NULL);
    int bad = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t old = perm[i], len = A->row_ptr[old + 1] - A->row_ptr[old];
        if (!(fabs(py[i] - y[old]) <= spmvlab_row_bound(SPMVLAB_F64, len, absum[old])))
            bad++;
    }
    TEST_CHECK(bad == 0);
    free(x), free(px), free(y), free(py), free(absum), free(perm);
    spmvlab_csr_free(&B);
}

static void test_orderings_are_permutations_and_keep_the_product(void)
{
    spmvlab_csr band = shuffled_band(500, 3, 11);
    spmvlab_csr rnd = test_uniform(300, 300, 6, 5);
    spmvlab_csr rect = test_uniform(200, 350, 5, 9);
    for (int o = SPMVLAB_ORDER_NONE; o <= SPMVLAB_ORDER_DEGREE; o++) {
        check_permuted_product(&band, (spmvlab_ordering)o);
        check_permuted_product(&rnd, (spmvlab_ordering)o);
    }
    check_permuted_product(&rect, SPMVLAB_ORDER_DEGREE);
    spmvlab_csr_free(&band);
    spmvlab_csr_free(&rnd);
    spmvlab_csr_free(&rect);
}

static void test_rcm_narrows_a_shuffled_band(void)
{
    spmvlab_csr A = shuffled_band(2000, 4, 3);
    int32_t *perm;
    spmvlab_err err;
    TEST_CHECK(spmvlab_order_compute(&A, SPMVLAB_ORDER_RCM, &perm, &err) == 0);
    spmvlab_csr B;
    TEST_CHECK(spmvlab_csr_permute(&A, perm, &B, &err) == 0);
    int64_t before = spmvlab_csr_bandwidth(&A), after = spmvlab_csr_bandwidth(&B);
    /* shuffled, the band spans most of the matrix; RCM finds a band of the
     * original's width within a small factor */
    TEST_CHECK(before > 1000);
    TEST_CHECK(after <= 2 * 4);
    TEST_CHECK(spmvlab_gather_sectors(&B, 8) < spmvlab_gather_sectors(&A, 8) / 4);
    free(perm);
    spmvlab_csr_free(&A);
    spmvlab_csr_free(&B);
}

static void test_rcm_orders_every_component(void)
{
    /* two disconnected paths and an isolated node: 0-2-4, 1-3, 5 */
    spmvlab_triplet *t = malloc(12 * sizeof *t);
    const int32_t e[][2] = {{0, 2}, {2, 4}, {1, 3}};
    size_t k = 0;
    for (int i = 0; i < 3; i++) {
        t[k++] = (spmvlab_triplet){e[i][0], e[i][1], 1};
        t[k++] = (spmvlab_triplet){e[i][1], e[i][0], 1};
    }
    t[k++] = (spmvlab_triplet){5, 5, 1};
    spmvlab_csr A;
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(&A, 6, 6, t, k, &err) == 0);
    int32_t *perm;
    TEST_CHECK(spmvlab_order_compute(&A, SPMVLAB_ORDER_RCM, &perm, &err) == 0);
    TEST_CHECK(spmvlab_is_permutation(perm, 6));
    spmvlab_csr B;
    TEST_CHECK(spmvlab_csr_permute(&A, perm, &B, &err) == 0);
    TEST_CHECK(spmvlab_csr_bandwidth(&B) == 1); /* each path laid out consecutively */
    free(perm);
    spmvlab_csr_free(&A);
    spmvlab_csr_free(&B);
}

static void test_degree_puts_the_hub_first(void)
{
    /* a star: node 7 linked to every other node */
    spmvlab_triplet *t = malloc(20 * sizeof *t);
    size_t k = 0;
    for (int32_t i = 0; i < 10; i++)
        if (i != 7) {
            t[k++] = (spmvlab_triplet){7, i, 1};
            t[k++] = (spmvlab_triplet){i, 7, 1};
        }
    spmvlab_csr A;
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(&A, 10, 10, t, k, &err) == 0);
    int32_t *perm;
    TEST_CHECK(spmvlab_order_compute(&A, SPMVLAB_ORDER_DEGREE, &perm, &err) == 0);
    TEST_CHECK(perm[0] == 7 && perm[1] == 0 && perm[9] == 9); /* ties keep their order */
    free(perm);
    spmvlab_csr_free(&A);
}

static void test_bad_requests_are_refused_with_a_sentence(void)
{
    spmvlab_csr rect = test_uniform(20, 30, 3, 1);
    int32_t *perm;
    spmvlab_err err;
    TEST_CHECK(spmvlab_order_compute(&rect, SPMVLAB_ORDER_RCM, &perm, &err) == -1 && perm == NULL);
    TEST_CONTAINS(err.msg, "square matrix, not 20 x 30");
    spmvlab_ordering o;
    TEST_CHECK(spmvlab_ordering_parse("metis", &o, &err) == -1);
    TEST_CONTAINS(err.msg, "unknown ordering \"metis\"");
    TEST_CHECK(spmvlab_ordering_parse("rcm", &o, &err) == 0 && o == SPMVLAB_ORDER_RCM);
    int32_t twice[20] = {0};
    spmvlab_csr B;
    TEST_CHECK(spmvlab_csr_permute(&rect, twice, &B, &err) == -1);
    TEST_CONTAINS(err.msg, "not a permutation");
    spmvlab_csr_free(&rect);
}

int main(void)
{
    test_orderings_are_permutations_and_keep_the_product();
    test_rcm_narrows_a_shuffled_band();
    test_rcm_orders_every_component();
    test_degree_puts_the_hub_first();
    test_bad_requests_are_refused_with_a_sentence();
    return test_done("test_reorder");
}
