/*
 * ell: the padding guard (max_fill) refuses one long row with status limit
 * and a sentence carrying the numbers, before allocating anything; fill at
 * the limit is accepted; a larger max_fill converts the same matrix with the
 * footprint of the formula; a matrix without non-zeros has width 0. CPU only.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib_plugin.h"

/* 100 x 100: row 0 holds 100 entries, rows 1..99 one each, so nnz = 199,
 * width = 100, padded entries 100 * 100 = 10000 and fill 10000 / 199 = 50.25. */
static int gen_one_long_row(spmvlab_csr *A)
{
    int32_t lengths[100];
    for (int i = 0; i < 100; i++)
        lengths[i] = i == 0 ? 100 : 1;
    return test_gen_rows(A, 100, 100, lengths, 7);
}

static void test_one_long_row_is_refused_with_the_numbers(const spmvlab_csr *A)
{
    const spmvlab_dtype dtypes[] = {SPMVLAB_F64, SPMVLAB_F32};
    for (int d = 0; d < 2; d++) {
        spmvlab_err err = {{0}};
        /* refused before any device allocation, not after freeing one */
        TEST_CHECK(test_refuses("ell", A, dtypes[d], NULL, SPMVLAB_LIMIT, &err));
        TEST_CONTAINS(err.msg, "width 100");
        TEST_CONTAINS(err.msg, "10000 padded entries");
        TEST_CONTAINS(err.msg, "199 non-zeros");
        TEST_CONTAINS(err.msg, "fill 50.25");
        TEST_CONTAINS(err.msg, "max_fill 1.45");
        TEST_CONTAINS(err.msg, "uneven row lengths");
        TEST_CHECK(err.msg[strlen(err.msg) - 1] != '.');
    }
}

static void check_long_row_layout(test_instance *t, spmvlab_dtype dtype, void *ctx)
{
    (void)ctx;
    TEST_CONTAINS(test_describe(t), "width=100 slots=10000 fill=50.251");
    /* row_len (4 per row) + col and val per padded entry */
    size_t vs = spmvlab_dtype_size(dtype);
    TEST_CHECK(spmvlab_instance_footprint(&t->in) == 100 * 4 + 10000 * (4 + vs));
    TEST_CHECK(spmvlab_instance_footprint(&t->in) == t->in.cur_bytes);
}

static void test_larger_max_fill_converts_the_long_row(const spmvlab_csr *A)
{
    const char *sets[] = {"max_fill=60", "min_rows_per_width=0", NULL};
    test_each_dtype("ell", A, sets, 11, check_long_row_layout, NULL);
}

/* 2 x 3 with rows of length 3 and 0: 6 padded entries for 3 non-zeros. */
static void test_fill_equal_to_max_fill_is_accepted(void)
{
    spmvlab_csr A;
    const int32_t lengths[] = {3, 0};
    TEST_CHECK(test_gen_rows(&A, 2, 3, lengths, 3) == 0);
    const char *at_limit[] = {"max_fill=2", "min_rows_per_width=0", NULL};
    const char *below[] = {"max_fill=1.99", "min_rows_per_width=0", NULL};
    test_instance_free(test_convert_ok("ell", &A, SPMVLAB_F64, at_limit, 5));
    test_refuses_saying("ell", &A, SPMVLAB_F64, below, SPMVLAB_LIMIT,
                        "6 padded entries for 3 non-zeros, fill 2.00 exceeds max_fill 1.99");
    spmvlab_csr_free(&A);
}

static void test_no_nonzeros_gives_width_zero(void)
{
    spmvlab_csr A;
    const int32_t lengths[] = {0, 0, 0, 0, 0};
    TEST_CHECK(test_gen_rows(&A, 5, 4, lengths, 1) == 0);
    const char *tight[] = {"max_fill=1", NULL};
    test_instance *t = test_convert_ok("ell", &A, SPMVLAB_F64, tight, 2); /* every row written as 0 */
    if (t) {
        TEST_CONTAINS(test_describe(t), "width=0 slots=0 fill=n/a");
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 5 * 4);
    }
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* n rows: every fourth of length 2, the rest of 1 (uneven: fill 1.6) or
 * every second (fill 1.33). */
static int32_t *lengths_of(int32_t n, int every)
{
    int32_t *len = malloc((size_t)n * sizeof *len);
    for (int32_t i = 0; i < n; i++)
        len[i] = i % every == 0 ? 2 : 1;
    return len;
}

/* The defaults: width 2 needs 768 rows (min_rows_per_width 384), and a
 * fill above 1.45 is refused as uneven rows; both flip on one row or one
 * row length. */
static void test_defaults_refuse_few_long_rows_and_uneven_rows(void)
{
    spmvlab_csr A;
    int32_t *half = lengths_of(768, 2), *quarter = lengths_of(1600, 4);
    TEST_CHECK(test_gen_rows(&A, 768, 768, half, 3) == 0); /* fill 1536 / 1152 = 1.33 */
    test_instance_free(test_convert_ok("ell", &A, SPMVLAB_F64, NULL, 5));
    A.nnz -= A.row_ptr[768] - A.row_ptr[767]; /* drop the last row: 767 rows */
    A.rows = 767;
    test_refuses_saying("ell", &A, SPMVLAB_F64, NULL, SPMVLAB_LIMIT,
                        "few long rows: 767 rows of up to 2 non-zeros are fewer than min_rows_per_width 384");
    const char *off[] = {"min_rows_per_width=0", NULL};
    test_instance_free(test_convert_ok("ell", &A, SPMVLAB_F64, off, 5));
    A.rows = 768;
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen_rows(&A, 1600, 1600, quarter, 3) == 0); /* fill 3200 / 2000 = 1.60 */
    test_refuses_saying("ell", &A, SPMVLAB_F64, NULL, SPMVLAB_LIMIT, "uneven row lengths");
    spmvlab_csr_free(&A);
    free(half);
    free(quarter);
}

int main(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen_one_long_row(&A) == 0);
    TEST_CHECK(A.nnz == 199);
    test_one_long_row_is_refused_with_the_numbers(&A);
    test_larger_max_fill_converts_the_long_row(&A);
    spmvlab_csr_free(&A);
    test_fill_equal_to_max_fill_is_accepted();
    test_no_nonzeros_gives_width_zero();
    test_defaults_refuse_few_long_rows_and_uneven_rows();
    return test_done("ell refuses_padding");
}
