/*
 * csr: the auto rule picks scalar, vector or adaptive from the row lengths;
 * the adaptive binning cuts blocks at 1024 rows and 1024 non-zeros and splits
 * rows longer than 256 into pieces of 2048; every path meets the bound in
 * f64 and f32 on the CPU.
 */
#include <stdlib.h>

#include "testlib_plugin.h"

/* describe() gives every "key=value" of ctx (NULL-ended). */
static void check_facts(test_instance *t, spmvlab_dtype dtype, void *ctx)
{
    (void)dtype;
    test_describe_says(t, ctx);
}

/* Converts A (f64 and f32) with sets, checks spmv_host against the bound
 * and the describe() facts ("key=value") of checks. */
static void expect(const spmvlab_csr *A, const char *const *sets, const char *const *checks)
{
    test_each_dtype("csr", A, sets, 5, check_facts, (void *)checks);
}

/* rows x cols with lengths from fn(i). */
static int gen(spmvlab_csr *A, int32_t rows, int32_t cols, int32_t (*fn)(int32_t))
{
    int32_t *len = malloc((size_t)rows * sizeof *len);
    for (int32_t i = 0; i < rows; i++)
        len[i] = fn(i);
    int rc = test_gen_rows(A, rows, cols, len, 17);
    free(len);
    return rc;
}

/* expect() on a rows x cols matrix with lengths from fn(i), made afresh
 * (the same matrix every time: seed 17). */
static void expect_rows(int32_t rows, int32_t cols, int32_t (*fn)(int32_t), const char *const *sets,
                        const char *const *checks)
{
    spmvlab_csr A;
    TEST_CHECK(gen(&A, rows, cols, fn) == 0);
    expect(&A, sets, checks);
    spmvlab_csr_free(&A);
}

static int32_t len3(int32_t i) { (void)i; return 3; }
static int32_t len10(int32_t i) { (void)i; return 10; }
static int32_t len100(int32_t i) { (void)i; return 100; }
static int32_t len4_one_long(int32_t i) { return i == 77 ? 5000 : 4; }
/* lengths 256 (not long), 257 (one piece), 2048 (one), 2049 (two), 6000 (three) among rows of 2 */
static int32_t len_edges(int32_t i)
{
    switch (i) {
    case 10: return 256;
    case 20: return 257;
    case 30: return 2048;
    case 40: return 2049;
    case 50: return 6000;
    default: return i % 7 == 0 ? 0 : 2;
    }
}

static void test_regular_short_rows_run_scalar(void)
{
    expect_rows(5000, 5000, len3, NULL, (const char *const[]){"kernel=scalar", "width=1", NULL});
}

/* 30000 rows of 10: blocks close at 1024 non-zeros (102 rows, so 295
 * blocks), not at 1024 rows. 300 rows of 10 would give 3 blocks for 132 SMs:
 * blocks shrink to 8 rows and 256 non-zeros, 38 blocks. */
static void test_regular_medium_rows_run_adaptive_blocks(void)
{
    expect_rows(30000, 40000, len10, NULL,
                (const char *const[]){"kernel=adaptive", "blocks=295", "block_rows=1024", "block_nnz=1024",
                                      "pieces=0", NULL});
    expect_rows(300, 400, len10, NULL,
                (const char *const[]){"kernel=adaptive", "blocks=38", "block_rows=8", "block_nnz=256", NULL});
}

/* Rows of 100: vector with 32 lanes when there are rows enough to fill the
 * device (16384), adaptive when there are few. */
static void test_long_regular_rows_run_vector_when_rows_are_many(void)
{
    expect_rows(16384, 20000, len100, NULL, (const char *const[]){"kernel=vector", "width=32", NULL});
    expect_rows(1000, 2000, len100, NULL, (const char *const[]){"kernel=adaptive", NULL});
}

/* Regular rows longer than a row block takes (257 and more) run vector even
 * when they are few: adaptive would make every row a piece of its own. Rows
 * of 256 still fit a row block and stay adaptive. */
static int32_t len256(int32_t i) { (void)i; return 256; }
static int32_t len300(int32_t i) { (void)i; return 300; }
static void test_few_regular_rows_past_the_row_block_run_vector(void)
{
    expect_rows(400, 1000, len300, NULL, (const char *const[]){"kernel=vector", "width=32", "pieces=0", NULL});
    expect_rows(400, 1000, len256, NULL, (const char *const[]){"kernel=adaptive", "long_rows=0", NULL});
}

/* One row of 5000 among rows of 4: uneven (max far beyond the mean), so
 * adaptive, the long row in three pieces. */
static void test_a_long_row_makes_rows_uneven_and_is_split(void)
{
    const char *scalar[] = {"kernel=scalar", NULL}, *vector[] = {"kernel=vector", NULL};
    expect_rows(4000, 8000, len4_one_long, NULL,
                (const char *const[]){"kernel=adaptive", "pieces=3", "long_rows=1", NULL});
    expect_rows(4000, 8000, len4_one_long, scalar, (const char *const[]){"kernel=scalar", NULL});
    expect_rows(4000, 8000, len4_one_long, vector, (const char *const[]){"kernel=vector", "width=8", NULL});
}

/* The long-row threshold and the piece size at their edges; empty rows. */
static void test_piece_edges(void)
{
    const char *adaptive[] = {"kernel=adaptive", NULL};
    expect_rows(600, 7000, len_edges, adaptive,
                (const char *const[]){"kernel=adaptive", "long_rows=4", "pieces=7", NULL});
}

/* 300,000 rows, nine in ten empty, rows of 3 between them and a row of 600
 * every 997 rows (R-MAT-like). With 1024 rows a block closes at each long
 * row, which trails it instead of taking a block of its own: 302 blocks (the
 * first holds only row 0, a long row). With block_rows = 128: 2409 blocks. */
static int32_t len_sparse(int32_t i) { return i % 997 == 0 ? 600 : i % 10 == 0 ? 3 : 0; }
static void test_runs_of_empty_rows_pack_into_wide_blocks(void)
{
    const char *narrow[] = {"block_rows=128", NULL};
    expect_rows(300000, 1000, len_sparse, NULL,
                (const char *const[]){"kernel=adaptive", "block_rows=1024", "blocks=302", "long_rows=301",
                                      "pieces=301", NULL});
    expect_rows(300000, 1000, len_sparse, narrow,
                (const char *const[]){"kernel=adaptive", "block_rows=128", "blocks=2409", "pieces=301", NULL});
}

/* An explicit width with kernel = auto means vector (width 1: scalar); an
 * empty matrix runs scalar. */
static int32_t len0(int32_t i) { (void)i; return 0; }
static void test_explicit_width_and_empty_matrix(void)
{
    const char *w4[] = {"width=4", NULL}, *w1[] = {"width=1", NULL};
    expect_rows(300, 400, len10, w4, (const char *const[]){"kernel=vector", "width=4", NULL});
    expect_rows(300, 400, len10, w1, (const char *const[]){"kernel=scalar", NULL});
    expect_rows(3, 5, len0, NULL, (const char *const[]){"kernel=scalar", NULL});
}

int main(void)
{
    test_regular_short_rows_run_scalar();
    test_regular_medium_rows_run_adaptive_blocks();
    test_long_regular_rows_run_vector_when_rows_are_many();
    test_few_regular_rows_past_the_row_block_run_vector();
    test_a_long_row_makes_rows_uneven_and_is_split();
    test_piece_edges();
    test_runs_of_empty_rows_pack_into_wide_blocks();
    test_explicit_width_and_empty_matrix();
    return test_done("csr auto_rule");
}
