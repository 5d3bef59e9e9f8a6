/*
 * cusparse: the host layouts handed to cuSPARSE (Sliced-ELL slices,
 * BSR blocks and their padding), the BSR block rule, the fill guards, and
 * the mixed mode's declared storage, all on the CPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusparse_layout.h"
#include "testlib_plugin.h"

/* A host-only view of A's CSR in dtype d (f64 values cast when d is f32). */
static spmvlab_matrix view_of(const spmvlab_csr *A, spmvlab_dtype d, float *f32)
{
    spmvlab_matrix m = {"test", A->rows, A->cols, A->nnz, d, A->row_ptr, A->col_idx, A->val, NULL, NULL, NULL};
    if (d == SPMVLAB_F32) {
        for (int32_t k = 0; k < A->nnz; k++)
            f32[k] = (float)A->val[k];
        m.val = f32;
    }
    return m;
}

/* n triplets (row, col, value) into A. */
static void build(spmvlab_csr *A, int32_t rows, int32_t cols, const double (*t)[3], size_t n)
{
    spmvlab_triplet *tr = malloc(n * sizeof *tr);
    for (size_t k = 0; k < n; k++)
        tr[k] = (spmvlab_triplet){(int32_t)t[k][0], (int32_t)t[k][1], t[k][2]};
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(A, rows, cols, tr, n, &err) == 0);
}

/* The 4 x 4 matrix of cuSPARSE's Sliced-ELL sample with slice size 2: the
 * slices are column-major, padded with column -1 and value 0. */
static void test_sell_layout_is_column_major_per_slice(void)
{
    static const double t[][3] = {{0, 0, 1}, {0, 2, 2}, {0, 3, 3}, {1, 1, 4}, {2, 0, 5},
                                  {2, 2, 6}, {2, 3, 7}, {3, 1, 8}, {3, 3, 9}};
    spmvlab_csr A;
    build(&A, 4, 4, t, sizeof t / sizeof t[0]);
    float f32[16];
    spmvlab_matrix m = view_of(&A, SPMVLAB_F32, f32);
    cusparse_layout L;
    char why[256];
    TEST_CHECK(cusparse_layout_build(&L, &m, CUSPARSE_FAMILY_SELL, SPMVLAB_F32, 2, 0, why, sizeof why) == SPMVLAB_OK);
    static const int32_t ptr[] = {0, 6, 12}, col[] = {0, 1, 2, -1, 3, -1, 0, 1, 2, 3, 3, -1};
    static const float val[] = {1, 4, 2, 0, 3, 0, 5, 8, 6, 9, 7, 0};
    TEST_CHECK(L.n_ptr == 3 && L.n_val == 12);
    TEST_CHECK(memcmp(L.ptr, ptr, sizeof ptr) == 0);
    TEST_CHECK(memcmp(L.idx, col, sizeof col) == 0);
    TEST_CHECK(memcmp(L.val, val, sizeof val) == 0);
    float x[] = {1, 2, 3, 4}, y[4];
    cusparse_layout_spmv_f32(&L, x, y);
    TEST_CHECK(y[0] == 19 && y[1] == 8 && y[2] == 51 && y[3] == 52);
    cusparse_layout_free(&L);
    spmvlab_csr_free(&A);
}

/* 5 x 5 with b = 2: three block rows and columns, blocks sorted by column,
 * row-major inside, the entries past row and column 5 zero. */
static void test_bsr_layout_pads_the_edge_blocks(void)
{
    static const double t[][3] = {{0, 4, 1}, {0, 0, 2}, {1, 1, 3}, {2, 3, 4}, {3, 2, 5}, {4, 4, 6}, {4, 0, 7}};
    spmvlab_csr A;
    build(&A, 5, 5, t, sizeof t / sizeof t[0]);
    spmvlab_matrix m = view_of(&A, SPMVLAB_F64, NULL);
    cusparse_layout L;
    char why[256];
    TEST_CHECK(cusparse_layout_build(&L, &m, CUSPARSE_FAMILY_BSR, SPMVLAB_F64, 0, 2, why, sizeof why) == SPMVLAB_OK);
    TEST_CHECK(L.brows == 3 && L.bcols == 3 && L.n_idx == 5 && L.n_val == 20);
    static const int32_t ptr[] = {0, 2, 3, 5}, bcol[] = {0, 2, 1, 0, 2};
    static const double val[] = {2, 0, 0, 3, /* (0,0) */ 1, 0, 0, 0, /* (0,2) */ 0, 4, 5, 0, /* (1,1) */
                                 7, 0, 0, 0, /* (2,0) */ 6, 0, 0, 0 /* (2,2) */};
    TEST_CHECK(memcmp(L.ptr, ptr, sizeof ptr) == 0);
    TEST_CHECK(memcmp(L.idx, bcol, sizeof bcol) == 0);
    TEST_CHECK(memcmp(L.val, val, sizeof val) == 0);
    double x[] = {1, 10, 100, 1000, 10000}, y[5];
    cusparse_layout_spmv_f64(&L, x, y);
    TEST_CHECK(y[0] == 10002 && y[1] == 30 && y[2] == 4000 && y[3] == 500 && y[4] == 60007);
    TEST_CHECK(cusparse_bsr_count(&m, 2) == 5 && cusparse_bsr_count(&m, 5) == 1);
    cusparse_layout_free(&L);
    spmvlab_csr_free(&A);
}

/* A matrix of dense b x b blocks on a block band (aligned, n = 48 rows). */
static void gen_blocks(spmvlab_csr *A, int b)
{
    int32_t n = 48, nb = n / b;
    size_t count = 0;
    spmvlab_triplet *tr = malloc((size_t)nb * 3 * b * b * sizeof *tr);
    for (int32_t I = 0; I < nb; I++)
        for (int32_t J = I - 1; J <= I + 1; J++)
            for (int r = 0; J >= 0 && J < nb && r < b; r++)
                for (int c = 0; c < b; c++)
                    tr[count++] = (spmvlab_triplet){I * b + r, J * b + c, 1.0 + 0.01 * (double)(count % 97)};
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(A, n, n, tr, count, &err) == 0);
}

static int describe_int(test_instance *t, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    char text[1024];
    snprintf(text, sizeof text, " %s", test_describe(t));
    const char *at = strstr(text, pat);
    return at ? atoi(at + strlen(pat)) : -1;
}

static void test_bsr_auto_finds_the_block_size(void)
{
    const char *sets[] = {"format=bsr", NULL};
    for (int b = 2; b <= 8; b += 1) {
        if (48 % b)
            continue;
        spmvlab_csr A;
        gen_blocks(&A, b);
        test_instance *t;
        spmvlab_err err = {{0}};
        TEST_CHECK(test_convert("cusparse", &A, SPMVLAB_F64, sets, &t, &err) == SPMVLAB_OK);
        int got = describe_int(t, "block");
        if (got != b)
            fprintf(stderr, "dense %dx%d blocks: auto chose %d (%s)\n", b, b, got, test_describe(t));
        TEST_CHECK(got == b);
        TEST_CHECK(test_verify_host(t, 7) <= 1.0);
        test_instance_free(t);
        spmvlab_csr_free(&A);
    }
}

/* Every b on an irregular matrix with odd sizes: the host BSR product meets
 * the bound whatever the padding. */
static void test_bsr_every_block_size_is_exact(void)
{
    int32_t lengths[37];
    for (int i = 0; i < 37; i++)
        lengths[i] = (i * 7) % 11;
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 37, 29, lengths, 3) == 0);
    for (int b = CUSPARSE_BSR_MIN; b <= CUSPARSE_BSR_MAX; b++) {
        char block[32];
        snprintf(block, sizeof block, "block=%d", b);
        const char *sets[] = {"format=bsr", block, "max_fill=1e9", NULL};
        for (int d = SPMVLAB_F64; d <= SPMVLAB_F16; d++) {
            test_instance_free(test_convert_ok("cusparse", &A, (spmvlab_dtype)d, sets, 11 + (uint64_t)b));
        }
    }
    spmvlab_csr_free(&A);
}

static void refuses(const spmvlab_csr *A, const char *const *sets, spmvlab_status want, const char *needle)
{
    test_refuses_saying("cusparse", A, SPMVLAB_F64, sets, want, needle);
}

static void test_fill_guards_refuse_with_the_numbers(void)
{
    int32_t lengths[64];
    for (int i = 0; i < 64; i++)
        lengths[i] = i == 5 ? 400 : 2; /* one long row among short ones */
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 64, 1000, lengths, 5) == 0);
    const char *sell[] = {"format=sell", NULL};
    refuses(&A, sell, SPMVLAB_LIMIT, "longest row 400), above max_fill = 8");
    const char *b8[] = {"format=bsr", "block=8", NULL};
    refuses(&A, b8, SPMVLAB_LIMIT, "BSR with 8x8 blocks stores");
    const char *tight[] = {"format=bsr", "max_fill=1.5", NULL};
    refuses(&A, tight, SPMVLAB_LIMIT, "no block size from 2 to 8 keeps BSR within max_fill = 1.5");
    const char *alg2[] = {"format=sell", "alg=alg2", NULL};
    refuses(&A, alg2, SPMVLAB_INVALID_OPTION, "alg = alg2 applies to format = csr and coo");
    spmvlab_csr_free(&A);
}

/* values = f32 in an f64 run: declared, within the bound with storage
 * rounding, and outside the plain f64 bound (so it cannot pass as f64). */
static void test_f32_values_are_declared_and_bounded(void)
{
    spmvlab_csr A = test_uniform(200, 200, 9, 13);
    static const char *const families[] = {"format=csr", "format=coo", "format=sell", "format=bsr"};
    for (int fam = 0; fam < 4; fam++) {
        const char *sets[] = {families[fam], "values=f32", NULL};
        test_instance *t;
        spmvlab_err err = {{0}};
        TEST_CHECK(test_convert("cusparse", &A, SPMVLAB_F64, sets, &t, &err) == SPMVLAB_OK);
        TEST_CHECK(t->in.storage == SPMVLAB_F32);
        TEST_CONTAINS(test_describe(t), "values=f32");
        TEST_CHECK(test_verify_host(t, 17) <= 1.0);
        t->in.storage = SPMVLAB_F64; /* judged as a plain f64 result, it fails */
        TEST_CHECK(test_verify_host(t, 17) > 1.0);
        test_instance_free(t);
    }
    const char *f32[] = {"values=f32", NULL};
    test_instance *t;
    spmvlab_err err = {{0}};
    TEST_CHECK(test_convert("cusparse", &A, SPMVLAB_F32, f32, &t, &err) == SPMVLAB_OK);
    TEST_CHECK(t->in.storage == SPMVLAB_F32);
    test_instance_free(t);
    test_refuses_saying("cusparse", &A, SPMVLAB_F16, f32, SPMVLAB_UNSUPPORTED, "this run is f16");
    spmvlab_csr_free(&A);
}

int main(void)
{
    test_sell_layout_is_column_major_per_slice();
    test_bsr_layout_pads_the_edge_blocks();
    test_bsr_auto_finds_the_block_size();
    test_bsr_every_block_size_is_exact();
    test_fill_guards_refuse_with_the_numbers();
    test_f32_values_are_declared_and_bounded();
    return test_done("cusparse.unit.layouts");
}
