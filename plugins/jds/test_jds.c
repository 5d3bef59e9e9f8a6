/*
 * jds: the stable longest-first permutation, jd_ptr and the diagonal layout
 * on a matrix small enough to write down, the rules (long_row,
 * threads_per_row), the long-row split, empty rows, and the footprint
 * formula, all on the CPU. The rules are also called directly
 * (jds_build.c is compiled into this test).
 */
#include <stdlib.h>
#include <string.h>

#include "jds.h"
#include "testlib_plugin.h"

/* Row lengths 2, 0, 3, 2, 1: sorted longest first and stable, the rows are
 * 2, 0, 3, 4, 1 (rows 0 and 3 tie and keep their order). */
static const int32_t small_lengths[] = {2, 0, 3, 2, 1};
#define SMALL_ROWS 5
#define SMALL_COLS 6

/* jds converted with sets and checked through spmv_host (seed 5). */
static test_instance *convert_ok(const spmvlab_csr *A, spmvlab_dtype d, const char *const *sets)
{
    return test_convert_ok("jds", A, d, sets, 5);
}

static void test_rows_sort_longest_first_and_ties_keep_their_order(const spmvlab_csr *A)
{
    test_instance *t = convert_ok(A, SPMVLAB_F64, NULL);
    if (!t)
        return;
    const jds_format *f = t->in.fmt;
    static const int32_t perm[] = {2, 0, 3, 4, 1};
    TEST_CHECK(memcmp(f->perm, perm, sizeof perm) == 0);
    test_instance_free(t);
}

/* Diagonal d holds entry d of every sorted row longer than d, at
 * jd_ptr[d] + r: lengths 3 2 2 1 0 give diagonals of 4, 3 and 1. */
static void test_diagonals_are_stored_one_after_another(const spmvlab_csr *A)
{
    test_instance *t = convert_ok(A, SPMVLAB_F64, NULL);
    if (!t)
        return;
    const jds_format *f = t->in.fmt;
    static const int32_t jd_ptr[] = {0, 4, 7, 8};
    TEST_CHECK(f->diagonals == 3 && f->nlong == 0 && f->short_nnz == A->nnz);
    TEST_CHECK(memcmp(f->jd_ptr, jd_ptr, sizeof jd_ptr) == 0);
    const double *val = f->val;
    for (int32_t r = 0; r < SMALL_ROWS; r++) {
        int32_t b = A->row_ptr[f->perm[r]], len = A->row_ptr[f->perm[r] + 1] - b;
        for (int32_t d = 0; d < len; d++) {
            TEST_CHECK(f->col[jd_ptr[d] + r] == A->col_idx[b + d]);
            TEST_CHECK(val[jd_ptr[d] + r] == A->val[b + d]);
        }
    }
    test_instance_free(t);
}

/* Many ties: within every length the original rows stay in ascending order. */
static void test_permutation_is_stable_among_many_ties(void)
{
    enum { rows = 1000 };
    int32_t lengths[rows];
    for (int32_t i = 0; i < rows; i++)
        lengths[i] = (i * 7) % 5;
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, 50, lengths, 9) == 0);
    test_instance *t = convert_ok(&A, SPMVLAB_F32, NULL);
    if (t) {
        const jds_format *f = t->in.fmt;
        for (int32_t r = 1; r < rows; r++) {
            int32_t a = f->perm[r - 1], b = f->perm[r];
            TEST_CHECK(lengths[a] > lengths[b] || (lengths[a] == lengths[b] && a < b));
        }
    }
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* long_row = auto is max(64, 4 ceil(nnz / rows)). */
static void test_long_row_rule(void)
{
    TEST_CHECK(jds_rule_long_row(1000, 5000) == 64);
    TEST_CHECK(jds_rule_long_row(1000, 120000) == 480);
    TEST_CHECK(jds_rule_long_row(0, 0) == 64);
}

/* threads_per_row = auto: T doubles while each lane keeps >= 8 entries and
 * the rows * 2T / 32 warps of the doubled launch fit in the resident warps. */
static void test_tpr_rule(void)
{
    TEST_CHECK(jds_rule_tpr(5.0, 100, 8448) == 1);
    TEST_CHECK(jds_rule_tpr(16.0, 100, 8448) == 2);
    TEST_CHECK(jds_rule_tpr(59.0, 4884, 8448) == 4);   /* bcsstk16: 59.5 per row */
    TEST_CHECK(jds_rule_tpr(300.0, 100, 8448) == 32);
    TEST_CHECK(jds_rule_tpr(120.0, 2000000, 8448) == 1); /* one lane fills the GPU */
}

/* Rows of 3 entries and two of 1200 (rows 5 and 40): those two sort first,
 * leave the diagonals (long_row 4 x ceil(2694 / 100) = 108) and take 3 pieces each; col / val hold
 * the diagonals, then the long rows in sorted order. */
static void test_long_rows_leave_the_diagonals(void)
{
    int32_t len[100];
    for (int i = 0; i < 100; i++)
        len[i] = i == 5 || i == 40 ? 1200 : 3;
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 100, 1500, len, 3) == 0);
    test_instance *t = convert_ok(&A, SPMVLAB_F64, NULL);
    if (t) {
        const jds_format *f = t->in.fmt;
        TEST_CHECK(f->long_threshold == 108 && f->nlong == 2 && f->npieces == 6); /* 4 x 27 */
        TEST_CHECK(f->perm[0] == 5 && f->perm[1] == 40 && f->diagonals == 3);
        TEST_CHECK(f->short_nnz == 98 * 3 && f->long_ptr[0] == 98 * 3);
        TEST_CHECK(f->col[f->long_ptr[1]] == A.col_idx[A.row_ptr[40]]);
        TEST_CHECK(f->multi_piece == 1 && f->piece_of[3] == 1);
        /* perm, jd_ptr, col + val, long_ptr + piece_ptr, piece_of, partial,
         * a finished-piece counter a long row */
        TEST_CHECK(spmvlab_instance_footprint(&t->in) ==
                   4 * 100 + 4 * 4 + 12 * (size_t)A.nnz + 2 * 12 + 4 * 6 + 8 * 6 + 4 * 2);
    }
    test_instance_free(t);
    const char *off[] = {"long_row=2147483647", "threads_per_row=4", NULL};
    t = convert_ok(&A, SPMVLAB_F32, off);
    if (t) {
        const jds_format *f = t->in.fmt;
        TEST_CHECK(f->nlong == 0 && f->diagonals == 1200 && f->threads_per_row == 4);
    }
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* A matrix without entries: no diagonals, every row written as 0. */
static void test_all_empty_rows_are_written(void)
{
    static const int32_t lengths[4] = {0, 0, 0, 0};
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 4, 3, lengths, 1) == 0);
    for (int s = 0; s < 2; s++) {
        const char *sets[] = {s ? "threads_per_row=8" : "threads_per_row=1", NULL};
        test_instance *t = convert_ok(&A, SPMVLAB_F64, sets);
        if (t)
            TEST_CHECK(((const jds_format *)t->in.fmt)->diagonals == 0);
        test_instance_free(t);
    }
    spmvlab_csr_free(&A);
}

/* bytes = nnz*(4 + s) + 4*rows + 4*(D + 1), s the value size. */
static void test_footprint_follows_the_formula(const spmvlab_csr *A)
{
    for (int d = SPMVLAB_F64; d <= SPMVLAB_F32; d++) {
        test_instance *t = convert_ok(A, (spmvlab_dtype)d, NULL);
        if (!t)
            continue;
        size_t s = spmvlab_dtype_size((spmvlab_dtype)d);
        TEST_CHECK(spmvlab_instance_footprint(&t->in) ==
                   (size_t)A->nnz * (4 + s) + 4 * SMALL_ROWS + 4 * (3 + 1));
        test_instance_free(t);
    }
}

/* The uneven-rows rule of ../common/long_rows.h through jds: the rule
 * itself (its cuts of mean and CV) is tested once, in sell's
 * test_uneven_rows_rule; here that jds takes it, and that a set
 * threads_per_row keeps it. */
static void test_uneven_rows_rule(void)
{
    /* through the plugin: {100, 4 x 9} repeated over 100 rows takes 8
     * lanes; the same rows with threads_per_row set keep it */
    int32_t len[100];
    for (int i = 0; i < 100; i++)
        len[i] = i % 10 == 0 ? 100 : 4;
    spmvlab_csr A;
    if (test_gen_rows(&A, 100, 400, len, 5) == 0) {
        test_convert_says("jds", &A, NULL, 5, "threads_per_row=8 tpr_auto=yes");
        test_convert_says("jds", &A, (const char *[]){"threads_per_row=2", NULL}, 5,
                          "threads_per_row=2 tpr_auto=no");
        spmvlab_csr_free(&A);
    }
}

/* The short-chain rule of ../common/long_rows.h through jds (the rule's
 * cuts are tested in sell's test_short_chains_rule): 2,000 rows of 2 with
 * every 100th of 40 take 8 lanes (one lane before); with rows of 31
 * instead, 1. */
static void test_short_chains_rule(void)
{
    const int32_t widest[] = {40, 31};
    const char *want[] = {"diagonals=40 threads_per_row=8 tpr_auto=yes", "diagonals=31 threads_per_row=1 tpr_auto=yes"};
    int32_t len[2000];
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < 2000; i++)
            len[i] = i % 100 == 0 ? widest[c] : 2;
        spmvlab_csr A;
        if (test_gen_rows(&A, 2000, 4000, len, 5) == 0) {
            test_convert_says("jds", &A, NULL, 5, want[c]);
            spmvlab_csr_free(&A);
        }
    }
}

int main(void)
{
    spmvlab_csr A;
    test_need_rows(&A, SMALL_ROWS, SMALL_COLS, small_lengths, 4);
    test_rows_sort_longest_first_and_ties_keep_their_order(&A);
    test_diagonals_are_stored_one_after_another(&A);
    test_permutation_is_stable_among_many_ties();
    test_long_row_rule();
    test_tpr_rule();
    test_uneven_rows_rule();
    test_short_chains_rule();
    test_long_rows_leave_the_diagonals();
    test_all_empty_rows_are_written();
    test_footprint_follows_the_formula(&A);
    spmvlab_csr_free(&A);
    return test_done("jds");
}
