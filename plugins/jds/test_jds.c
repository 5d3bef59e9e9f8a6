/*
 * jds: the stable longest-first permutation, jd_ptr and the diagonal layout
 * on a matrix small enough to write down, the section layout with its
 * padding, sections clamped to the rows, empty rows, and the footprint
 * formula, all on the CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "jds.h"
#include "testlib.h"

/* Row lengths 2, 0, 3, 2, 1: sorted longest first and stable, the rows are
 * 2, 0, 3, 4, 1 (rows 0 and 3 tie and keep their order). */
static const int32_t small_lengths[] = {2, 0, 3, 2, 1};
#define SMALL_ROWS 5
#define SMALL_COLS 6

/* Converts A with sets and checks spmv_host against the bound; NULL (and a
 * counted failure) when the conversion fails. */
static test_instance *convert_ok(const spmvlab_csr *A, spmvlab_dtype d, const char *const *sets)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    if (test_convert("jds", A, d, sets, &t, &err) != SPMVLAB_OK) {
        fprintf(stderr, "convert failed: %s\n", err.msg);
        test_failures++;
        test_instance_free(t);
        return NULL;
    }
    TEST_CHECK(test_verify_host(t, 5) <= 1.0);
    return t;
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
    TEST_CHECK(f->diagonals == 3 && f->sections == 0 && f->ptr_len == 4);
    TEST_CHECK(memcmp(f->ptr, jd_ptr, sizeof jd_ptr) == 0);
    TEST_CHECK(f->slots == A->nnz);
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

/* sections=2 on 5 rows: sections of 3 and 2 rows, widths 3 and 1; padding
 * (column -1) fills the short rows' ends. */
static void test_sections_are_ell_blocks_as_wide_as_their_first_row(const spmvlab_csr *A)
{
    const char *sets[] = {"sections=2", NULL};
    test_instance *t = convert_ok(A, SPMVLAB_F64, sets);
    if (!t)
        return;
    const jds_format *f = t->in.fmt;
    static const int32_t sec_ptr[] = {0, 9, 11};
    TEST_CHECK(f->sections == 2 && f->section_rows == 3 && f->ptr_len == 3);
    TEST_CHECK(memcmp(f->ptr, sec_ptr, sizeof sec_ptr) == 0);
    TEST_CHECK(f->slots == 11);
    /* section 0, height 3: sorted rows 1 and 2 have 2 entries, pad k = 2 */
    TEST_CHECK(f->col[2 * 3 + 1] == -1 && f->col[2 * 3 + 2] == -1);
    TEST_CHECK(f->col[2 * 3 + 0] == A->col_idx[A->row_ptr[2] + 2]);
    /* section 1, height 2: sorted row 3 (row 4) has 1 entry, row 4 (row 1) none */
    TEST_CHECK(f->col[9] == A->col_idx[A->row_ptr[4]]);
    TEST_CHECK(f->col[10] == -1);
    test_instance_free(t);
}

static void test_more_sections_than_rows_gives_one_row_per_section(const spmvlab_csr *A)
{
    const char *sets[] = {"sections=100", NULL};
    test_instance *t = convert_ok(A, SPMVLAB_F32, sets);
    if (!t)
        return;
    const jds_format *f = t->in.fmt;
    TEST_CHECK(f->sections == SMALL_ROWS && f->section_rows == 1);
    TEST_CHECK(f->slots == A->nnz); /* one row per section: no padding */
    test_instance_free(t);
}

/* A matrix without entries: no diagonals, every row written as 0. */
static void test_all_empty_rows_are_written(void)
{
    static const int32_t lengths[4] = {0, 0, 0, 0};
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 4, 3, lengths, 1) == 0);
    for (int s = 0; s < 2; s++) {
        const char *sets[] = {s ? "sections=3" : "sections=0", NULL};
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

int main(void)
{
    spmvlab_csr A;
    if (test_gen_rows(&A, SMALL_ROWS, SMALL_COLS, small_lengths, 4) != 0) {
        fprintf(stderr, "cannot build the test matrix\n");
        return 1;
    }
    test_rows_sort_longest_first_and_ties_keep_their_order(&A);
    test_diagonals_are_stored_one_after_another(&A);
    test_permutation_is_stable_among_many_ties();
    test_sections_are_ell_blocks_as_wide_as_their_first_row(&A);
    test_more_sections_than_rows_gives_one_row_per_section(&A);
    test_all_empty_rows_are_written();
    test_footprint_follows_the_formula(&A);
    spmvlab_csr_free(&A);
    return test_done("jds");
}
